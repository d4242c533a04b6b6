//! Operator proxy pools (docs/OPERATORS.md, "Proxies") over HTTP against the
//! real server and local forward proxies on loopback: which pool carries a
//! fetch, `proxy: "auto"`'s retry with the enhanced pool after a 403,
//! `metadata.proxyUsed`, the credits charged, a pool chosen by
//! `location.country`, and the target guard applied before any proxy.

use distill_e2e::forward_proxy::ForwardProxy;
use distill_e2e::keys::{create_key, scrape_as, usage_of};
use distill_e2e::{ServerOptions, TestServer, fresh_tmp_dir, site};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

fn page(path: &str, extra: Value) -> Value {
    let mut body = json!({ "url": site().url(path), "formats": ["markdown"], "maxAge": 0 });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

#[tokio::test]
async fn pools_carry_fetches_auto_retries_with_enhanced_and_bills_it() {
    let basic = ForwardProxy::start();
    let enhanced = ForwardProxy::start();
    let german = ForwardProxy::start();
    let keys = fresh_tmp_dir().join("keys.json");
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_KEYS_FILE", keys.to_str().unwrap())
            .env("DISTILL_PROXY_BASIC", &basic.http_url())
            // SOCKS5 by default, an HTTP proxy for Germany.
            .env(
                "DISTILL_PROXY_ENHANCED",
                &format!("{}, DE={}", enhanced.socks_url(), german.http_url()),
            ),
    );
    let key = create_key(&keys, "proxies", &["--credits", "100"]);
    let s = server.url();
    let counts = || (basic.requests(), enhanced.requests(), german.requests());

    // basic: through the basic pool, 1 credit.
    let a = scrape_as(s, &key, &page("/article.html", json!({"proxy": "basic"}))).await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(a.json["data"]["metadata"]["proxyUsed"], "basic");
    assert_eq!(a.credits(), 1);
    assert_eq!(counts(), (1, 0, 0));
    assert_eq!(basic.targets(), [site().url("/article.html")]);
    assert!(a.json["data"]["markdown"].as_str().unwrap().len() > 100);

    // enhanced: through the SOCKS5 enhanced pool, 5 credits.
    let e = scrape_as(s, &key, &page("/article.html", json!({"proxy": "enhanced"}))).await;
    assert_eq!(e.status, 200, "{}", e.json);
    assert_eq!(e.json["data"]["metadata"]["proxyUsed"], "enhanced");
    assert_eq!(e.credits(), 5);
    assert_eq!(counts(), (1, 1, 0));
    assert_eq!(enhanced.targets(), [site().host_port()]);
    assert!(e.json["data"].get("warning").is_none(), "{}", e.json);

    // auto, basic succeeds: the standard cost, no retry.
    let ok = scrape_as(s, &key, &page("/article.html", json!({"proxy": "auto"}))).await;
    assert_eq!(
        (ok.status, &ok.json["data"]["metadata"]["proxyUsed"], ok.credits()),
        (200, &json!("basic"), 1)
    );
    assert_eq!(counts(), (2, 1, 0));

    // auto, the basic proxy answers 403: retried through enhanced, 5 credits.
    basic.refuse(true);
    let retried = scrape_as(s, &key, &page("/article.html", json!({"proxy": "auto"}))).await;
    assert_eq!(retried.status, 200, "{}", retried.json);
    let meta = &retried.json["data"]["metadata"];
    assert_eq!(
        (&meta["proxyUsed"], &meta["statusCode"]),
        (&json!("enhanced"), &json!(200))
    );
    assert_eq!(retried.credits(), 5);
    assert_eq!(counts(), (3, 2, 0));
    // basic alone takes the proxy's 403 as the page's status: 1 credit.
    let refused = scrape_as(s, &key, &page("/article.html", json!({"proxy": "basic"}))).await;
    assert_eq!(
        refused.json["data"]["metadata"]["statusCode"], 403,
        "{}",
        refused.json
    );
    assert_eq!(refused.credits(), 1);
    assert_eq!(counts(), (4, 2, 0));
    basic.refuse(false);

    // location.country picks Germany's pool; its languages become Accept-Language.
    let de = json!({"proxy": "enhanced", "location": {"country": "DE", "languages": ["de-DE", "de"]}});
    let g = scrape_as(s, &key, &page("/echo-headers", de)).await;
    assert_eq!(g.status, 200, "{}", g.json);
    assert_eq!(g.json["data"]["metadata"]["proxyUsed"], "enhanced");
    assert_eq!(counts(), (4, 2, 1));
    assert_eq!(german.targets(), [site().url("/echo-headers")]);
    assert!(
        g.json["data"]["markdown"].as_str().unwrap().contains("de-DE,de"),
        "{}",
        g.json
    );
    // A country without entries uses the pool's default entries.
    let fr = json!({"proxy": "enhanced", "location": {"country": "FR"}});
    assert_eq!(scrape_as(s, &key, &page("/article.html", fr)).await.status, 200);
    assert_eq!(counts(), (4, 3, 1));

    // Everything above, once each: 1 + 5 + 1 + 5 + 1 + 5 + 5.
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 23);

    // auto also retries when the page itself answers 401 or 429 (here the
    // enhanced attempt gets the same answer, and says so).
    for code in [401, 429] {
        let (b, e, g) = counts();
        let r = scrape_as(
            s,
            &key,
            &page(&format!("/status/{code}"), json!({"proxy": "auto"})),
        )
        .await;
        let meta = &r.json["data"]["metadata"];
        assert_eq!(
            (&meta["proxyUsed"], &meta["statusCode"]),
            (&json!("enhanced"), &json!(code)),
            "{}",
            r.json
        );
        assert_eq!(
            counts(),
            (b + 1, e + 1, g),
            "one attempt through each pool for {code}"
        );
    }
}

#[tokio::test]
async fn auto_retries_with_enhanced_when_the_basic_proxy_cannot_be_reached() {
    let enhanced = ForwardProxy::start();
    // A port nothing listens on: every basic attempt fails to connect.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_PROXY_BASIC", &format!("http://{closed}"))
            .env("DISTILL_PROXY_ENHANCED", &enhanced.http_url()),
    );
    let r = distill_e2e::scrape(server.url(), &page("/article.html", json!({"proxy": "auto"}))).await;
    r.assert_ok();
    assert_eq!(r.metadata()["proxyUsed"], "enhanced", "{}", r.pretty());
    assert_eq!(enhanced.requests(), 1);
    let basic_only =
        distill_e2e::scrape(server.url(), &page("/article.html", json!({"proxy": "basic"}))).await;
    assert_ne!(basic_only.status, 200, "{}", basic_only.pretty());
    assert_eq!(enhanced.requests(), 1, "basic is never retried");
}

#[tokio::test]
async fn the_target_guard_applies_before_any_proxy() {
    let proxy = ForwardProxy::start();
    let server = TestServer::start(ServerOptions {
        allow_private_targets: Some(false),
        ..ServerOptions::default()
            .env("DISTILL_PROXY_BASIC", &proxy.http_url())
            .env("DISTILL_PROXY_ENHANCED", &proxy.socks_url())
    });
    let port = site().port();
    for (url, proxy_mode) in [
        (format!("http://127.0.0.1:{port}/article.html"), "basic"),
        (format!("http://localhost:{port}/article.html"), "auto"),
        (format!("http://localhost:{port}/article.html"), "enhanced"),
        // Allowed first hop is not possible on loopback; a redirect hop to a
        // private address is covered by the same per-hop check.
    ] {
        let r = distill_e2e::scrape(server.url(), &json!({"url": url, "proxy": proxy_mode})).await;
        r.assert_error(403, "SCRAPE_TARGET_BLOCKED");
    }
    assert_eq!(
        proxy.requests(),
        0,
        "a refused target reached the proxy: {:?}",
        proxy.targets()
    );
}

#[test]
fn a_malformed_pool_stops_the_server_with_a_clear_message() {
    let mut cmd = std::process::Command::new(distill_e2e::server::distill_bin());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DISTILL_") {
            cmd.env_remove(&key);
        }
    }
    let out = cmd
        .env("DISTILL_PORT", "0")
        .env("DISTILL_DATA_DIR", fresh_tmp_dir())
        .env("DISTILL_PROXY_ENHANCED", "ftp://u:hunter2@127.0.0.1:1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("enhanced proxy pool: scheme \"ftp\" is not supported"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}

/// Pages the browser engine fetches (here a `waitFor`, which only it
/// honours) go through the pools too: the basic pool's proxy carries the
/// page; when it refuses (403), `auto` retries through the enhanced pool;
/// `proxyUsed` says which.
#[tokio::test]
async fn browser_fetches_go_through_the_pools_and_auto_retries() {
    let basic = ForwardProxy::start();
    let enhanced = ForwardProxy::start();
    let server = TestServer::start(
        ServerOptions::default()
            .env("DISTILL_PROXY_BASIC", &basic.http_url())
            .env("DISTILL_PROXY_ENHANCED", &enhanced.http_url()),
    );
    let target = site().url("/article.html");
    let body = page("/article.html", json!({"proxy": "basic", "waitFor": 50}));
    let r = distill_e2e::scrape(server.url(), &body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json["data"]["metadata"]["proxyUsed"], "basic", "{}", r.body);
    assert!(basic.targets().contains(&target), "{:?}", basic.targets());
    assert!(
        r.json["data"]["markdown"].as_str().unwrap().len() > 100,
        "{}",
        r.body
    );
    assert_eq!(enhanced.requests(), 0);

    basic.refuse(true);
    let body = page("/article.html", json!({"proxy": "auto", "waitFor": 50}));
    let r = distill_e2e::scrape(server.url(), &body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json["data"]["metadata"]["proxyUsed"], "enhanced", "{}", r.body);
    assert!(enhanced.targets().contains(&target), "{:?}", enhanced.targets());
    assert!(
        r.json["data"]["markdown"].as_str().unwrap().len() > 100,
        "{}",
        r.body
    );
}

/// A loopback site that answers every request 401 with a Basic challenge
/// and records the `Authorization` headers it is sent.
fn challenging_site() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/members", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for mut conn in listener.incoming().flatten() {
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 2 {
                if line.to_ascii_lowercase().starts_with("authorization:") {
                    record.lock().unwrap().push(line.trim().to_string());
                }
                line.clear();
            }
            let body = "<html><body>members only</body></html>";
            let reply = format!(
                "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"site\"\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = conn.write_all(reply.as_bytes());
        }
    });
    (url, seen)
}

/// A browser fetch through a proxy entry with credentials: the proxy's 407
/// challenge is answered with the entry's user and password (decoded), the
/// page comes through; a site's own challenge never gets them; wrong
/// credentials fail the fetch with an error that says so (and not the
/// password); no credentials reach the log.
#[tokio::test]
async fn browser_fetches_answer_a_proxy_s_credentials_challenge() {
    let proxy = ForwardProxy::start();
    proxy.demand_credentials("crawler", "s3cr:t");
    let entry = proxy.http_url().replace("http://", "http://crawler:s3cr%3At@");
    // The most verbose log the server can write: still no credentials.
    let verbose = || ServerOptions::default().env("DISTILL_LOG", "debug,chromiumoxide=trace,distill=trace");
    let server = TestServer::start(verbose().env("DISTILL_PROXY_BASIC", &entry));
    let body = page("/article.html", json!({"proxy": "basic", "waitFor": 50}));
    let r = distill_e2e::scrape(server.url(), &body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json["data"]["metadata"]["proxyUsed"], "basic", "{}", r.body);
    assert!(
        proxy.targets().contains(&site().url("/article.html")),
        "{:?}",
        proxy.targets()
    );
    assert!(
        r.json["data"]["markdown"].as_str().unwrap().len() > 100,
        "{}",
        r.body
    );
    let seen = proxy.credentials_seen();
    assert!(seen.iter().any(|c| c == "crawler:s3cr:t"), "{seen:?}");

    // A site's own Basic challenge, through the same proxy: not answered
    // with the proxy's credentials.
    let (members, site_saw) = challenging_site();
    let body = json!({"url": members, "formats": ["markdown"], "maxAge": 0, "proxy": "basic", "waitFor": 50});
    let _ = distill_e2e::scrape(server.url(), &body).await;
    assert!(proxy.targets().contains(&members), "{:?}", proxy.targets());
    assert_eq!(*site_saw.lock().unwrap(), Vec::<String>::new());

    let wrong = proxy.http_url().replace("http://", "http://crawler:wr0ng@");
    let refused = TestServer::start(verbose().env("DISTILL_PROXY_BASIC", &wrong));
    let body = page(
        "/article.html",
        json!({"proxy": "basic", "waitFor": 50, "timeout": 15000}),
    );
    let r = distill_e2e::scrape(refused.url(), &body).await;
    assert_eq!(r.status, 500, "{}", r.body);
    let error = r.json["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("refused the credentials") && !error.contains("wr0ng"),
        "{}",
        r.body
    );
    assert!(proxy.credentials_seen().iter().any(|c| c == "crawler:wr0ng"));
    for logs in [server.logs(), refused.logs()] {
        assert!(!logs.contains("s3cr") && !logs.contains("wr0ng"), "{logs}");
    }
}
