//! The Lua scripts of the Redis queue ([`super::redis_queue`]): each changes
//! one job atomically on the Redis server. Every script gets the job's keys
//! in one order ([`KEY_NAMES`]) and the two global keys after them; tasks
//! travel as `key, json` argument pairs. Scripts are loaded once
//! (`SCRIPT LOAD`) and run by their SHA, re-loaded if Redis forgot them.

/// Per-job keys, in the order every script receives them (KEYS[1..=9]).
pub const KEY_NAMES: [&str; 9] = [
    "", // the job hash itself
    ":queued", ":leased", ":tasks", ":seen", ":stored", ":results", ":errors", ":robots",
];

/// Queues unseen tasks (ARGV pairs from `first`) while `total < limit`.
const QUEUE_FN: &str = r"
local function queue(limit, first)
  local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0')
  local added = 0
  local i = first
  while i < #ARGV do
    if total >= limit then break end
    if redis.call('SADD', KEYS[5], ARGV[i]) == 1 then
      local seq = redis.call('HINCRBY', KEYS[1], 'next_seq', 1) - 1
      redis.call('HSET', KEYS[4], seq, ARGV[i + 1])
      redis.call('ZADD', KEYS[2], seq, seq)
      total = total + 1
      added = added + 1
    end
    i = i + 2
  end
  redis.call('HSET', KEYS[1], 'total', total)
  return added
end
";

/// ARGV: id, record JSON, expires ms, limit, tasks… Returns the total queued.
const CREATE: &str = r"
redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'status', 'scraping', 'total', 0, 'completed', 0,
  'results', 0, 'errors', 0, 'robots', 0, 'next_seq', 0)
redis.call('ZADD', KEYS[10], ARGV[3], ARGV[1])
redis.call('SADD', KEYS[11], ARGV[1])
queue(tonumber(ARGV[4]), 5)
return tonumber(redis.call('HGET', KEYS[1], 'total'))
";

/// ARGV: limit, tasks… Returns how many were queued.
const ENQUEUE: &str = r"
if redis.call('HGET', KEYS[1], 'status') ~= 'scraping' then return 0 end
return queue(tonumber(ARGV[1]), 2)
";

/// Expired leases (score ≤ ARGV[1]) back to the queue; returns how many.
const REQUEUE_FN: &str = r"
local function requeue(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
  for _, seq in ipairs(expired) do
    redis.call('ZREM', KEYS[3], seq)
    redis.call('ZADD', KEYS[2], seq, seq)
  end
  return #expired
end
";

/// ARGV: now ms. Returns the leases re-queued.
const REQUEUE: &str = r"
return requeue(ARGV[1])
";

/// ARGV: now ms, lease end ms, n. Re-queues expired leases, then leases up
/// to n tasks in sequence order, counting each task's leases in the job
/// hash's field `a:SEQ` (the lease's token, until the task is finished).
/// Returns seq, task JSON, attempt triples.
const LEASE: &str = r"
if redis.call('HGET', KEYS[1], 'status') ~= 'scraping' then return {} end
requeue(ARGV[1])
local seqs = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1)
local out = {}
for _, seq in ipairs(seqs) do
  redis.call('ZREM', KEYS[2], seq)
  redis.call('ZADD', KEYS[3], ARGV[2], seq)
  out[#out + 1] = seq
  out[#out + 1] = redis.call('HGET', KEYS[4], seq)
  out[#out + 1] = tostring(redis.call('HINCRBY', KEYS[1], 'a:' .. seq, 1))
end
return out
";

/// ARGV: lease end ms, seqs… Extends leases still held (a lease already
/// expired and re-queued is not taken back).
const RENEW: &str = r"
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[3], 'XX', ARGV[1], ARGV[i])
end
return 0
";

/// ARGV: seq, kind (page/failed/robots/skipped), payload, final key, limit,
/// the page's credits, the lease's attempt, tasks… A lease older than the
/// task's latest (it expired and another worker took the task) does
/// nothing. The task ends once: its lease (or its re-queued entry, when the
/// lease expired and nobody took it yet) is removed, else the call is a
/// repeat and does nothing. Returns {queued, stored}.
const FINISH: &str = r"
local seq = ARGV[1]
local latest = redis.call('HGET', KEYS[1], 'a:' .. seq)
if latest and latest ~= ARGV[7] then return {0, 0} end
redis.call('HDEL', KEYS[1], 'a:' .. seq)
local was = redis.call('ZREM', KEYS[3], seq) + redis.call('ZREM', KEYS[2], seq)
if was == 0 then return {0, 0} end
redis.call('HDEL', KEYS[4], seq)
if redis.call('HGET', KEYS[1], 'status') ~= 'scraping' then return {0, 0} end
redis.call('HINCRBY', KEYS[1], 'completed', 1)
local stored = 0
local kind = ARGV[2]
if kind == 'page' then
  if redis.call('SADD', KEYS[6], ARGV[4]) == 1 then
    redis.call('RPUSH', KEYS[7], ARGV[3])
    redis.call('HINCRBY', KEYS[1], 'results', 1)
    redis.call('HINCRBY', KEYS[1], 'credits', tonumber(ARGV[6]))
    stored = 1
  end
elseif kind == 'failed' then
  redis.call('RPUSH', KEYS[8], ARGV[3])
  redis.call('HINCRBY', KEYS[1], 'errors', 1)
elseif kind == 'robots' then
  redis.call('RPUSH', KEYS[9], ARGV[3])
  redis.call('HINCRBY', KEYS[1], 'robots', 1)
  redis.call('HINCRBY', KEYS[1], 'total', -1)
  redis.call('HINCRBY', KEYS[1], 'completed', -1)
end
return {queue(tonumber(ARGV[5]), 8), stored}
";

/// ARGV: status, id, error? Moves a scraping job to a final status and drops
/// what only a running job needs. Returns the hash as it was (empty: unknown).
const SET_STATUS: &str = r"
local before = redis.call('HGETALL', KEYS[1])
if #before == 0 then return before end
if redis.call('HGET', KEYS[1], 'status') ~= 'scraping' then return before end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
if #ARGV >= 3 then redis.call('HSET', KEYS[1], 'error', ARGV[3]) end
redis.call('SREM', KEYS[11], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return before
";

/// ARGV: id. Completes a scraping job only when nothing is queued or
/// leased. Returns false (work remains) or the status before.
const COMPLETE: &str = r"
if redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3]) > 0 then return false end
local before = redis.call('HGET', KEYS[1], 'status')
if not before then return 'completed' end
if before ~= 'scraping' then return before end
redis.call('HSET', KEYS[1], 'status', 'completed')
redis.call('SREM', KEYS[11], ARGV[1])
redis.call('DEL', KEYS[4], KEYS[5], KEYS[6])
return before
";

/// Returns {queued, leased} read at one instant.
const OUTSTANDING: &str = r"
return {redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3])}
";

/// One script of the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Script {
    Create,
    Enqueue,
    Requeue,
    Lease,
    Renew,
    Finish,
    SetStatus,
    Complete,
    Outstanding,
}

impl Script {
    pub const ALL: [Script; 9] = [
        Script::Create,
        Script::Enqueue,
        Script::Requeue,
        Script::Lease,
        Script::Renew,
        Script::Finish,
        Script::SetStatus,
        Script::Complete,
        Script::Outstanding,
    ];

    /// The full Lua source (helpers first).
    pub fn source(self) -> String {
        let body = match self {
            Script::Create => CREATE,
            Script::Enqueue => ENQUEUE,
            Script::Requeue => REQUEUE,
            Script::Lease => LEASE,
            Script::Renew => RENEW,
            Script::Finish => FINISH,
            Script::SetStatus => SET_STATUS,
            Script::Complete => COMPLETE,
            Script::Outstanding => OUTSTANDING,
        };
        format!("{QUEUE_FN}{REQUEUE_FN}{body}")
    }
}
