//! Politeness shared by every server on one Redis queue (docs/CRAWL.md):
//! per-host slots as a sorted set of leases (`distill:crawl:host:H`, member
//! a random token, score its expiry), and a job's `delay` as its next
//! allowed start (`distill:crawl:pace:J`). Each step is one Lua script on
//! Redis's clock. A held slot is renewed while its fetch runs; one whose
//! server died expires after the lease time, so a killed server frees its
//! slots. A server that cannot reach Redis fetches without the shared slot
//! (logged): the queue, on the same Redis, is stuck anyway.

use redis::aio::ConnectionManager;
use std::time::Duration;

const PREFIX: &str = "distill:crawl:";

/// Redis's clock in ms.
const NOW: &str = "local t = redis.call('TIME')\nlocal now = t[1] * 1000 + math.floor(t[2] / 1000)\n";

/// KEYS[1] slots; ARGV: token, slots per host, lease ms. 1 when taken.
const ENTER: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
";

/// KEYS[1] slots; ARGV: token, lease ms. Extends a held slot.
const RENEW: &str = r"
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
";

/// KEYS[1] pace; ARGV: delay ms. Takes the job's next start and returns how
/// long to wait for it (ms).
const PACE: &str = r"
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local delay = tonumber(ARGV[1])
redis.call('SET', KEYS[1], at + delay, 'PX', delay + 60000)
return at - now
";

/// How often a waiting fetch asks for a host slot again.
const RETRY: Duration = Duration::from_millis(25);

/// The shared gate.
pub struct SharedGate {
    conn: ConnectionManager,
    per_host: usize,
    lease: Duration,
}

/// A host slot held; given back when dropped.
pub struct SharedSlot {
    renewer: Option<tokio::task::JoinHandle<()>>,
    release: Option<(ConnectionManager, String, String)>,
}

impl Drop for SharedSlot {
    fn drop(&mut self) {
        if let Some(r) = self.renewer.take() {
            r.abort();
        }
        if let Some((mut conn, key, token)) = self.release.take() {
            tokio::spawn(async move {
                let _: Result<i64, _> = redis::cmd("ZREM")
                    .arg(key)
                    .arg(token)
                    .query_async(&mut conn)
                    .await;
            });
        }
    }
}

impl SharedGate {
    /// Connects to the queue's Redis.
    pub async fn connect(url: &str, per_host: usize, lease: Duration) -> anyhow::Result<SharedGate> {
        let conn = crate::redis_conn::connect(url, Duration::from_secs(2)).await?;
        Ok(SharedGate {
            conn,
            per_host,
            lease,
        })
    }

    async fn eval(&self, body: &str, key: &str, args: &[String]) -> redis::RedisResult<i64> {
        let mut conn = self.conn.clone();
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(format!("{NOW}{body}")).arg(1).arg(key);
        for a in args {
            cmd.arg(a);
        }
        cmd.query_async(&mut conn).await
    }

    /// Waits for one of the host's slots, shared by every server.
    pub async fn enter(&self, host: &str) -> SharedSlot {
        let key = format!("{PREFIX}host:{}", host.to_ascii_lowercase());
        let token = uuid::Uuid::new_v4().to_string();
        let lease_ms = self.lease.as_millis().max(1000).to_string();
        let args = [token.clone(), self.per_host.to_string(), lease_ms.clone()];
        loop {
            match self.eval(ENTER, &key, &args).await {
                Ok(1) => break,
                Ok(_) => tokio::time::sleep(RETRY).await,
                Err(e) => {
                    tracing::warn!(host, "shared host slot unavailable, fetching without it: {e}");
                    return SharedSlot {
                        renewer: None,
                        release: None,
                    };
                }
            }
        }
        let renewer = {
            let (gate_conn, key, token, every) =
                (self.conn.clone(), key.clone(), token.clone(), self.lease / 3);
            tokio::spawn(async move {
                let gate = SharedGate {
                    conn: gate_conn,
                    per_host: 0,
                    lease: Duration::ZERO,
                };
                let mut tick = tokio::time::interval(every.max(Duration::from_millis(300)));
                tick.tick().await;
                loop {
                    tick.tick().await;
                    if let Err(e) = gate.eval(RENEW, &key, &[token.clone(), lease_ms.clone()]).await {
                        tracing::warn!("renewing a host slot failed: {e}");
                    }
                }
            })
        };
        SharedSlot {
            renewer: Some(renewer),
            release: Some((self.conn.clone(), key, token)),
        }
    }

    /// Waits for job `id`'s next start, `delay` after the previous one on
    /// any server.
    pub async fn pace(&self, id: &str, delay: Duration) {
        let key = format!("{PREFIX}pace:{id}");
        match self.eval(PACE, &key, &[delay.as_millis().to_string()]).await {
            Ok(wait) if wait > 0 => tokio::time::sleep(Duration::from_millis(wait as u64)).await,
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(job = id, "shared pacing unavailable, pacing locally: {e}");
                tokio::time::sleep(delay).await;
            }
        }
    }
}
