//! Counters in Redis, shared by every server pointed at it: each change is
//! one Lua script (atomic on the Redis server), keys under `distill:limits:`.

use super::counters::{CounterError, Counters};
use async_trait::async_trait;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
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

pub struct RedisCounters {
    conn: ConnectionManager,
}

impl RedisCounters {
    pub async fn connect(url: &str) -> Result<RedisCounters, CounterError> {
        let err = |e: redis::RedisError| CounterError(format!("redis: {e}"));
        let client = redis::Client::open(url).map_err(err)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2);
        let conn = client
            .get_connection_manager_with_config(config)
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
}
