//! The browser engine against hostile pages and a dying Chromium: an alert
//! loop, a tab bomb, pages that eat memory (JavaScript heap and array
//! buffers), Chromium killed mid-request. Each ends that request with a clear
//! error (or, for the tab bomb, with no window opened), and the next request
//! on the same server works. The spare page opened for the next scrape is
//! isolated like any other and never outlives its idle time.

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

/// The page targets of the server's Chromium, from its DevTools `/json/list`
/// (the port is in `DevToolsActivePort` of its `--user-data-dir`).
async fn chromium_pages(server: &TestServer) -> Vec<serde_json::Value> {
    running_chromium_pages(server).await.expect("Chromium runs")
}

/// [`chromium_pages`], or `None` while Chromium is not (yet) up.
async fn running_chromium_pages(server: &TestServer) -> Option<Vec<serde_json::Value>> {
    let chromium = chromium_of(server.pid())?;
    // Empty for a moment while the process execs (the kernel names it before
    // it lays out its arguments; Debian's `chromium` is a script that execs
    // the binary): not up yet.
    let cmdline = std::fs::read(format!("/proc/{chromium}/cmdline")).ok()?;
    let profile = String::from_utf8_lossy(&cmdline)
        .split('\0')
        .find_map(|a| a.strip_prefix("--user-data-dir=").map(str::to_string))?;
    let port = std::fs::read_to_string(format!("{profile}/DevToolsActivePort")).ok()?;
    let port = port.lines().next()?.trim().to_string();
    let list = distill_e2e::get(&format!("http://127.0.0.1:{port}/json/list")).await;
    let targets = list.json.as_array().cloned().unwrap_or_default();
    Some(targets.into_iter().filter(|t| t["type"] == "page").collect())
}

/// Waits (at most 30 s) until `done` holds.
async fn wait_until<F, Fut>(what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = Instant::now() + Duration::from_secs(30);
    while !done().await {
        assert!(Instant::now() < until, "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Reads what a page of the fixture site's origin sees of its storage.
const READ_STORAGE: &str = "return String(localStorage.getItem('spare-probe')) + '|' + document.cookie";

/// The spare page opened after a scrape serves the next one, and that scrape
/// sees nothing the first left behind (localStorage, cookies).
#[tokio::test]
async fn the_spare_page_serves_the_next_scrape_with_nothing_of_the_last() {
    // Kept for two minutes: it is there when the next scrape comes. One spare.
    let server = server(&[
        ("DISTILL_BROWSER_SPARE_IDLE_MS", "120000"),
        ("DISTILL_BROWSER_SPARE_PAGES", "1"),
    ]);
    let first = scrape(
        server.url(),
        &json!({
            "url": site().url("/browser/js-rendered.html"), "maxAge": 0,
            "actions": [{"type": "executeJavascript", "script":
                format!("localStorage.setItem('spare-probe', 'LEFT-5501'); document.cookie = 'spare_probe=LEFT-5501; path=/'; {READ_STORAGE}")}]
        }),
    )
    .await;
    first.assert_ok();
    let wrote = first.data()["actions"]["javascriptReturns"][0]["value"].clone();
    assert_eq!(
        wrote,
        json!("LEFT-5501|spare_probe=LEFT-5501"),
        "{}",
        first.pretty()
    );
    // The first page closes while the spare opens: wait for the spare alone.
    wait_until("a spare page, alone, after the scrape", || async {
        let pages = chromium_pages(&server).await;
        server.metric("distill_browser_spare_pages").await == 1.0
            && pages.len() == 1
            && pages[0]["url"] == json!("about:blank")
    })
    .await;
    let pages = chromium_pages(&server).await;
    assert_eq!(pages.len(), 1, "only the spare is open: {pages:?}");
    let spare_id = pages[0]["id"].clone();

    // The next scrape, held at its document: its page is the spare's target.
    let token = format!("spare-{}", std::process::id());
    let held = tokio::spawn({
        let url = server.url().to_string();
        let body = json!({
            "url": site().url(&format!("/gate/{token}")), "maxAge": 0,
            "actions": [{"type": "executeJavascript", "script": READ_STORAGE}]
        });
        async move { scrape(&url, &body).await }
    });
    wait_until("the held scrape reached the page", || async {
        site().gate_arrivals(&token) > 0
    })
    .await;
    wait_until("the spare's target navigates to the held page", || async {
        chromium_pages(&server)
            .await
            .iter()
            .any(|p| p["id"] == spare_id && p["url"].as_str().unwrap_or_default().contains(&token))
    })
    .await;
    assert_eq!(
        server
            .metric("distill_browser_spare_pages_total{outcome=\"used\"}")
            .await,
        1.0
    );
    site().open_gate(&token);
    let second = held.await.unwrap();
    second.assert_ok();
    assert_eq!(
        second.data()["actions"]["javascriptReturns"][0]["value"],
        json!("null|"),
        "the spare saw the last scrape's storage: {}",
        second.pretty()
    );
}

/// A scrape held at its document (`/gate/{token}`) running `script` once the
/// gate opens; the target serving it, once it has navigated there.
async fn held_scrape(
    server: &TestServer,
    token: &str,
    script: &str,
) -> (tokio::task::JoinHandle<distill_e2e::Reply>, serde_json::Value) {
    let held = tokio::spawn({
        let url = server.url().to_string();
        let body = json!({
            "url": site().url(&format!("/gate/{token}")), "maxAge": 0,
            "actions": [{"type": "executeJavascript", "script": script}]
        });
        async move { scrape(&url, &body).await }
    });
    let until = Instant::now() + Duration::from_secs(30);
    let target = loop {
        // Chromium may still be launching for the first scrape.
        let pages = running_chromium_pages(server).await.unwrap_or_default();
        let at = pages
            .iter()
            .find(|p| p["url"].as_str().unwrap_or_default().contains(token));
        if let Some(page) = at {
            break page["id"].clone();
        }
        assert!(
            Instant::now() < until,
            "never: the held scrape's page at the gate"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    (held, target)
}

/// While a scrape works, spares for the next scrapes open beside it (up to
/// `DISTILL_BROWSER_SPARE_PAGES`, a page slot left free); each later scrape
/// is served by one of those untouched blank pages, never by a page another
/// scrape used, and sees nothing the first scrape left behind.
#[tokio::test]
async fn spares_opened_while_a_scrape_works_serve_the_next_ones_untouched() {
    let server = server(&[
        ("DISTILL_BROWSER_SPARE_IDLE_MS", "120000"),
        ("DISTILL_BROWSER_SPARE_PAGES", "2"),
        ("DISTILL_BROWSER_SPARE_AHEAD", "always"),
        ("DISTILL_BROWSER_PAGES", "4"),
    ]);
    let run = std::process::id();
    let write = format!(
        "localStorage.setItem('spare-probe', 'LEFT-5502'); document.cookie = 'spare_probe=LEFT-5502; path=/'; {READ_STORAGE}"
    );
    let (first, first_target) = held_scrape(&server, &format!("busy-a-{run}"), &write).await;
    // Held at its document, the first scrape is still working: two spares open.
    wait_until("two spares beside the working page", || async {
        server.metric("distill_browser_spare_pages").await == 2.0
            && chromium_pages(&server)
                .await
                .iter()
                .filter(|p| p["url"] == json!("about:blank"))
                .count()
                == 2
    })
    .await;
    let spares: Vec<serde_json::Value> = chromium_pages(&server)
        .await
        .into_iter()
        .filter(|p| p["url"] == json!("about:blank"))
        .map(|p| p["id"].clone())
        .collect();
    assert!(!spares.contains(&first_target), "{spares:?}");
    site().open_gate(&format!("busy-a-{run}"));
    let first = first.await.unwrap();
    first.assert_ok();
    assert_eq!(
        first.data()["actions"]["javascriptReturns"][0]["value"],
        json!("LEFT-5502|spare_probe=LEFT-5502"),
        "{}",
        first.pretty()
    );
    // The next two scrapes take the two spares, oldest first.
    let mut served = vec![first_target];
    for round in ["b", "c"] {
        let token = format!("busy-{round}-{run}");
        let (held, target) = held_scrape(&server, &token, READ_STORAGE).await;
        assert!(
            spares.contains(&target) && !served.contains(&target),
            "scrape {round} served by {target}: spares {spares:?}, used before {served:?}"
        );
        served.push(target);
        site().open_gate(&token);
        let reply = held.await.unwrap();
        reply.assert_ok();
        assert_eq!(
            reply.data()["actions"]["javascriptReturns"][0]["value"],
            json!("null|"),
            "scrape {round} saw the first scrape's storage: {}",
            reply.pretty()
        );
    }
    assert_eq!(
        server
            .metric("distill_browser_spare_pages_total{outcome=\"used\"}")
            .await,
        2.0
    );
}

/// With two page slots, one scrape at work and a spare in the other, a
/// request that cannot take the spare (it names a profile) disposes of it
/// and gets the slot: spares never hold back real requests. No second spare
/// opens there (none would leave a slot free).
#[tokio::test]
async fn a_request_that_needs_a_spares_page_slot_gets_it() {
    let server = server(&[
        ("DISTILL_BROWSER_SPARE_IDLE_MS", "120000"),
        ("DISTILL_BROWSER_SPARE_PAGES", "2"),
        ("DISTILL_BROWSER_SPARE_AHEAD", "always"),
        ("DISTILL_BROWSER_PAGES", "2"),
    ]);
    let token = format!("slots-{}", std::process::id());
    let (held, _) = held_scrape(&server, &token, READ_STORAGE).await;
    wait_until("one spare beside the working page", || async {
        server.metric("distill_browser_spare_pages").await == 1.0 && chromium_pages(&server).await.len() == 2
    })
    .await;
    let profiled = scrape(
        server.url(),
        &json!({ "url": site().url("/browser/js-rendered.html"), "waitFor": 50, "maxAge": 0,
                 "profile": {"name": format!("slots-{}", std::process::id()), "saveChanges": false} }),
    )
    .await;
    profiled.assert_ok();
    assert!(
        profiled.markdown().contains("JSRENDERED-7731"),
        "{}",
        profiled.pretty()
    );
    assert!(
        server
            .metric("distill_browser_spare_pages_total{outcome=\"dropped\"}")
            .await
            >= 1.0
    );
    site().open_gate(&token);
    held.await.unwrap().assert_ok();
}

/// After a burst of concurrent scrapes, the spares opened after (or beside)
/// them are disposed of once their idle time passes: no page, context or
/// spare is left in Chromium; with spares turned off none is ever opened.
#[tokio::test]
async fn no_spare_page_outlives_its_idle_time() {
    // The default; two spares opened beside working pages too; spares off.
    for (idle, spares, ahead, most) in [
        ("300", true, "never", "1"),
        ("300", true, "always", "2"),
        ("0", false, "never", "1"),
    ] {
        let server = server(&[
            ("DISTILL_BROWSER_SPARE_IDLE_MS", idle),
            ("DISTILL_BROWSER_SPARE_AHEAD", ahead),
            ("DISTILL_BROWSER_SPARE_PAGES", most),
        ]);
        let burst = (0..6).map(|i| {
            let url = server.url().to_string();
            let body = json!({ "url": site().url(&format!("/browser/js-rendered.html?burst={i}")), "waitFor": 50, "maxAge": 0 });
            tokio::spawn(async move { scrape(&url, &body).await })
        });
        for r in all_replies(burst.collect()).await {
            r.assert_ok();
        }
        if spares {
            wait_until("the spare disposed of unused", || async {
                server
                    .metric("distill_browser_spare_pages_total{outcome=\"idle\"}")
                    .await
                    >= 1.0
            })
            .await;
        }
        wait_until("no page and no spare open", || async {
            server.metric("distill_browser_spare_pages").await == 0.0
                && server.metric("distill_browser_pages_open").await == 0.0
                && chromium_pages(&server).await.is_empty()
        })
        .await;
        if !spares {
            assert_eq!(
                server.metric("distill_browser_spare_pages_total").await,
                0.0,
                "idle {idle}"
            );
        }
    }
}

/// Every task's reply, in order.
async fn all_replies(tasks: Vec<tokio::task::JoinHandle<distill_e2e::Reply>>) -> Vec<distill_e2e::Reply> {
    let mut replies = Vec::new();
    for task in tasks {
        replies.push(task.await.unwrap());
    }
    replies
}
