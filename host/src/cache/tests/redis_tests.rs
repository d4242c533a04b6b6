//! The Redis backend against a real `redis-server` (Debian's; `make setup`
//! installs it) started per test on a free 127.0.0.1 port with persistence
//! off. Skipped, saying so, only when the binary is absent.

use super::{contract, value_for};
use crate::cache::redis_store::{NAMESPACE, RedisStore};
use crate::cache::store::{CacheStore, StoreError, Stored, now_ms};
use crate::test_redis::RedisServer;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_meets_the_contract() {
    let Some(server) = RedisServer::start().await else {
        return;
    };
    let store: Arc<dyn CacheStore> = Arc::new(RedisStore::connect(&server.url).await.unwrap());
    assert_eq!(store.backend(), "redis");
    contract::basic(store.as_ref()).await;
    contract::expiry(store.as_ref()).await;
    let missing = contract::concurrent(store.clone()).await;
    assert!(missing.is_empty(), "Redis lost {missing:?}");
}

#[tokio::test]
async fn processes_share_one_cache_under_the_namespace() {
    let Some(server) = RedisServer::start().await else {
        return;
    };
    // Two stores with their own connections: two Distill processes.
    let a = RedisStore::connect(&server.url).await.unwrap();
    let b = RedisStore::connect(&server.url).await.unwrap();
    let now = now_ms();
    a.put("page:shared", &value_for(3), now, Duration::from_secs(3600))
        .await
        .unwrap();
    let got = b
        .get("page:shared")
        .await
        .unwrap()
        .expect("visible to the other process");
    assert_eq!((got.value, got.stored_at_ms), (value_for(3), now));
    assert!(b.delete("page:shared").await.unwrap());
    assert!(a.get("page:shared").await.unwrap().is_none());

    // Keys carry the namespace and an EX time to live; values are the shared encoding.
    a.put("page:ttl", &value_for(4), now, Duration::from_secs(3600))
        .await
        .unwrap();
    let mut raw = redis::Client::open(server.url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let ttl: i64 = redis::cmd("TTL")
        .arg(format!("{NAMESPACE}page:ttl"))
        .query_async(&mut raw)
        .await
        .unwrap();
    assert!((3590..=3600).contains(&ttl), "ttl {ttl}");
    let bytes: Vec<u8> = redis::cmd("GET")
        .arg(format!("{NAMESPACE}page:ttl"))
        .query_async(&mut raw)
        .await
        .unwrap();
    assert!(bytes.len() < value_for(4).len(), "stored compressed");
    assert_eq!(crate::cache::codec::decode(&bytes).unwrap().value, value_for(4));
    // Other namespaces (other deployments) do not see each other.
    let other = RedisStore::connect_with_namespace(&server.url, "other:")
        .await
        .unwrap();
    assert!(other.get("page:ttl").await.unwrap().is_none());
    assert_eq!(other.usage().await.unwrap().entries, 0);
    assert_eq!(a.usage().await.unwrap().entries, 1);
}

/// A fresh `redis-server` and a store on it holding `k`; `None` when the
/// binary is absent.
async fn server_holding_one_key() -> Option<(RedisServer, RedisStore)> {
    let server = RedisServer::start().await?;
    let store = RedisStore::connect(&server.url).await.unwrap();
    store
        .put("k", b"v", now_ms(), Duration::from_secs(60))
        .await
        .unwrap();
    Some((server, store))
}

/// `store.get("k")` bounded at 15 s (`Err` past it), and how long it took.
async fn timed_get(
    store: &RedisStore,
) -> (
    Result<Result<Option<Stored>, StoreError>, tokio::time::error::Elapsed>,
    Duration,
) {
    let started = Instant::now();
    let result = tokio::time::timeout(Duration::from_secs(15), store.get("k")).await;
    (result, started.elapsed())
}

#[tokio::test]
async fn a_dead_redis_is_an_error_not_a_hang() {
    let Some((mut server, store)) = server_holding_one_key().await else {
        return;
    };
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let (result, waited) = timed_get(&store).await;
    let result = result.expect("bounded by the response and connection timeouts");
    assert!(result.is_err(), "{result:?}");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
}

/// A Redis that stops answering (stopped, its socket still open) fails the
/// call after the response timeout instead of holding the request.
#[tokio::test]
async fn a_stalled_redis_is_an_error_after_the_response_timeout() {
    let Some((mut server, store)) = server_holding_one_key().await else {
        return;
    };
    let pid = server.child.id() as i32;
    // SAFETY: plain signals to the redis-server child this test started.
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    let (result, waited) = timed_get(&store).await;
    unsafe { libc::kill(pid, libc::SIGCONT) };
    let result = result.expect("bounded by the response timeout");
    assert!(result.is_err(), "{result:?}");
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(10),
        "answered after {waited:?}"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
