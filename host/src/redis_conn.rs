//! One way to open a Redis connection for every Redis backend (cache, job
//! queue, credit counters, the crawl's per-host gate): a reconnecting manager
//! that gives up on a dead server in seconds instead of hanging a request.

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::time::Duration;

/// Connects to `url`, waiting at most `response` for each command's answer
/// (2 s connection timeout, 2 retries).
pub async fn connect(url: &str, response: Duration) -> redis::RedisResult<ConnectionManager> {
    let client = redis::Client::open(url)?;
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(2)))
        .set_response_timeout(Some(response))
        .set_number_of_retries(2);
    client.get_connection_manager_with_config(config).await
}
