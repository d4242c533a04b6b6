//! The browser engine against hostile pages and a dying Chromium: an alert
//! loop, a tab bomb, pages that eat memory (JavaScript heap and array
//! buffers), Chromium killed mid-request. Each ends that request with a clear
//! error (or, for the tab bomb, with no window opened), and the next request
//! on the same server works.

use distill_e2e::{ServerOptions, TestServer, scrape, site};
use serde_json::json;
use std::time::{Duration, Instant};

/// A server of its own: these tests crash pages and kill Chromium.
fn server(env: &[(&str, &str)]) -> TestServer {
    let mut options = ServerOptions::default();
    for (k, v) in env {
        options = options.env(k, v);
    }
    TestServer::start(options)
}

/// A browser scrape that must work (the pool recovered); never from the cache.
async fn still_works(server: &TestServer) {
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/browser/js-rendered.html"), "waitFor": 200, "maxAge": 0 }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("JSRENDERED-7731"), "{}", r.pretty());
}

/// The server's Chromium (its direct child named chromium), if running.
fn chromium_of(server_pid: u32) -> Option<u32> {
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (name, rest) = stat.split_once(") ")?;
        let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == server_pid && name.contains("chromium") && !rest.starts_with('Z')).then_some(pid)
    })
}

#[tokio::test]
async fn an_alert_loop_is_stopped_with_a_clear_error() {
    let server = server(&[]);
    let started = Instant::now();
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/browser/alert-loop.html"), "waitFor": 100, "timeout": 30000 }),
    )
    .await;
    r.assert_error(500, "SCRAPE_SITE_ERROR");
    assert!(r.error().contains("alert loop"), "{}", r.pretty());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    still_works(&server).await;
}

#[tokio::test]
async fn a_tab_bomb_opens_no_window() {
    let server = server(&[]);
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/browser/tab-bomb.html"), "waitFor": 500 }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("TABBOMB-5120"), "{}", r.pretty());
    assert_eq!(site().hits("tab-bomb"), 0, "a window the page opened was loaded");
    still_works(&server).await;
}

#[tokio::test]
async fn memory_hogs_crash_only_their_own_page() {
    // A small JavaScript heap, and a budget whose double (512 MiB) an
    // array-buffer hog passes within seconds.
    let server = server(&[
        ("DISTILL_BROWSER_JS_HEAP_MIB", "128"),
        ("DISTILL_BROWSER_MEMORY_MIB", "256"),
    ]);
    for page in ["memory-hog", "buffer-hog"] {
        let bystander = tokio::spawn({
            let url = server.url().to_string();
            async move {
                scrape(
                    &url,
                    &json!({ "url": site().url("/browser/js-rendered.html"), "waitFor": 3000, "maxAge": 0 }),
                )
                .await
            }
        });
        let r = scrape(
            server.url(),
            &json!({ "url": site().url(&format!("/browser/{page}.html")), "waitFor": 15000, "timeout": 40000 }),
        )
        .await;
        r.assert_error(500, "SCRAPE_SITE_ERROR");
        assert!(r.error().contains("the page crashed"), "{page}: {}", r.pretty());
        let other = bystander.await.unwrap();
        other.assert_ok();
        assert!(other.markdown().contains("JSRENDERED-7731"), "{}", other.pretty());
        still_works(&server).await;
    }
    // The array buffers are outside the heap cap: the watchdog killed that renderer.
    assert!(
        server.logs().contains("killing its largest renderer"),
        "{}",
        server.logs()
    );
}

#[tokio::test]
async fn chromium_killed_mid_request_fails_that_request_and_is_relaunched() {
    let server = server(&[]);
    still_works(&server).await;
    let first = chromium_of(server.pid()).expect("Chromium runs after a browser scrape");
    // A document answered after 30 s: Chromium is busy with it once the site saw it.
    let token = "killed-mid-request";
    let pending = tokio::spawn({
        let url = server.url().to_string();
        async move {
            scrape(
                &url,
                &json!({ "url": site().url(&format!("/hits/{token}?ms=30000")), "formats": ["screenshot"], "timeout": 40000 }),
            )
            .await
        }
    });
    let waiting = Instant::now();
    while site().hits(token) == 0 {
        assert!(
            waiting.elapsed() < Duration::from_secs(20),
            "Chromium never asked for the page"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let killed_at = Instant::now();
    // SAFETY: a plain syscall on a process this test's server started.
    unsafe { libc::kill(first as i32, libc::SIGKILL) };
    let r = pending.await.unwrap();
    r.assert_error(500, "SCRAPE_SITE_ERROR");
    assert!(r.error().contains("Chromium exited"), "{}", r.pretty());
    assert!(
        killed_at.elapsed() < Duration::from_secs(10),
        "the request noticed after {:?}",
        killed_at.elapsed()
    );
    still_works(&server).await;
    let second = chromium_of(server.pid()).expect("Chromium relaunched");
    assert_ne!(first, second);
}
