//! Counters in Redis, shared by every server pointed at it: each change is
//! one Lua script (atomic on the Redis server), keys under `distill:limits:`.

use super::counters::{CounterError, Counters, HoldShift};
use async_trait::async_trait;
use redis::aio::ConnectionManager;
use std::time::Duration;

/// Prefix of every key the limits write.
pub const NAMESPACE: &str = "distill:limits:";

/// KEYS[1]; ARGV: delta, limit, ttl ms, refresh (0/1). Returns the new value
/// or false when it would pass the limit.
const ADD_WITHIN: &str = r"
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = v + tonumber(ARGV[1])
if n > tonumber(ARGV[2]) then return false end
redis.call('SET', KEYS[1], n, 'KEEPTTL')
if ARGV[4] == '1' or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return n
";

/// KEYS: main, hold; ARGV: target, limit, main's ttl ms, the hold's ttl ms. Moves the hold to target,
/// changing main by the difference (taking more only within the limit).
/// Returns main's new value or false.
const SHIFT_HOLD: &str = r"
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
local target = tonumber(ARGV[1])
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = v + target - held
if target > held and n > tonumber(ARGV[2]) then return false end
redis.call('SET', KEYS[1], n, 'KEEPTTL')
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if target == 0 then
  redis.call('DEL', KEYS[2])
else
  redis.call('SET', KEYS[2], target, 'PX', ARGV[4])
end
return n
";

pub struct RedisCounters {
    conn: ConnectionManager,
}

impl RedisCounters {
    pub async fn connect(url: &str) -> Result<RedisCounters, CounterError> {
        let err = |e: redis::RedisError| CounterError(format!("redis: {e}"));
        let conn = crate::redis_conn::connect(url, Duration::from_secs(2))
            .await
            .map_err(err)?;
        Ok(RedisCounters { conn })
    }
}

#[async_trait]
impl Counters for RedisCounters {
    async fn get(&self, key: &str) -> Result<i64, CounterError> {
        let mut c = self.conn.clone();
        let v: Option<i64> = redis::cmd("GET")
            .arg(format!("{NAMESPACE}{key}"))
            .query_async(&mut c)
            .await
            .map_err(|e| CounterError(format!("redis: {e}")))?;
        Ok(v.unwrap_or(0))
    }

    async fn add_within(
        &self,
        key: &str,
        delta: i64,
        limit: i64,
        ttl: Duration,
        refresh_ttl: bool,
    ) -> Result<Option<i64>, CounterError> {
        let mut c = self.conn.clone();
        redis::cmd("EVAL")
            .arg(ADD_WITHIN)
            .arg(1)
            .arg(format!("{NAMESPACE}{key}"))
            .arg(delta)
            .arg(limit)
            .arg(ttl.as_millis().max(1) as u64)
            .arg(if refresh_ttl { "1" } else { "0" })
            .query_async(&mut c)
            .await
            .map_err(|e| CounterError(format!("redis: {e}")))
    }

    async fn shift_hold(&self, shift: &HoldShift) -> Result<Option<i64>, CounterError> {
        let mut c = self.conn.clone();
        redis::cmd("EVAL")
            .arg(SHIFT_HOLD)
            .arg(2)
            .arg(format!("{NAMESPACE}{}", shift.main))
            .arg(format!("{NAMESPACE}{}", shift.hold))
            .arg(shift.target)
            .arg(shift.limit)
            .arg(shift.ttl.as_millis().max(1) as u64)
            .arg(shift.hold_ttl.as_millis().max(1) as u64)
            .query_async(&mut c)
            .await
            .map_err(|e| CounterError(format!("redis: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::counters::tests::to;
    use crate::test_redis::RedisServer;

    #[tokio::test]
    async fn holds_take_within_the_limit_give_back_and_are_reused() {
        let Some(server) = RedisServer::start().await else {
            return;
        };
        let c = RedisCounters::connect(&server.url).await.unwrap();
        let mut taken = 0;
        for i in 0..5 {
            let hold = format!("hold:{i}");
            taken += c.shift_hold(&to("credits:k", &hold, 1)).await.unwrap().is_some() as i64;
        }
        assert_eq!((taken, c.get("credits:k").await.unwrap()), (3, 3));
        // A hold taken again costs nothing more; raising it past the limit fails.
        assert_eq!(
            c.shift_hold(&to("credits:k", "hold:0", 1)).await.unwrap(),
            Some(3)
        );
        assert_eq!(c.shift_hold(&to("credits:k", "hold:0", 2)).await.unwrap(), None);
        assert_eq!(
            c.shift_hold(&to("credits:k", "hold:1", 0)).await.unwrap(),
            Some(2)
        );
        assert_eq!(c.get("hold:1").await.unwrap(), 0, "a refund ends the hold");
        assert_eq!(
            (c.get("hold:0").await.unwrap(), c.get("credits:k").await.unwrap()),
            (1, 2),
            "a kept hold stays spent"
        );
    }
}
