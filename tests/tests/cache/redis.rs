//! The Redis backend: hits and misses on one server, then two servers sharing one Redis.

use super::*;

fn redis_server(redis: &RedisServer) -> TestServer {
    TestServer::start(ServerOptions::default().env("DISTILL_CACHE_URL", &redis.url()))
}

#[tokio::test]
async fn the_redis_backend_serves_hits_and_misses() {
    let redis = RedisServer::start();
    let server = redis_server(&redis);
    assert!(
        server.logs().contains("backend=\"redis\"") || server.logs().contains("backend=redis"),
        "{}",
        server.logs()
    );
    hit_and_miss(server.url(), "redis").await;
}

#[tokio::test]
async fn two_servers_share_one_redis() {
    let redis = RedisServer::start();
    let (a, b) = (redis_server(&redis), redis_server(&redis));
    let t = unique_token("shared");
    let url = site().url(&format!("/hits/{t}"));
    let r = scrape(a.url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    assert_eq!(r.metadata()["cacheState"], "miss", "{}", r.pretty());
    let r = scrape(b.url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    assert!(r.markdown().contains(&format!("Hit {t}")));
    // The other server renders other formats from the shared page too.
    let r = scrape(b.url(), &json!({ "url": url, "formats": ["rawHtml"] })).await;
    assert_eq!(r.metadata()["cacheState"], "hit", "{}", r.pretty());
    assert_eq!(site().hits(&t), 1);
}
