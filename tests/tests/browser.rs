//! The browser engine against a real Chromium (`DISTILL_CHROMIUM`, default
//! Debian's /usr/bin/chromium) and the fixture site's pages under
//! `tests/fixtures/site/browser/`: script-rendered content, actions on a form,
//! screenshots measured by decoding the stored image, mobile emulation, the
//! target guard on the browser's own requests, the request timeout, and
//! `metadata.engineUsed`.

use distill_e2e::client::http;
use distill_e2e::{Reply, ServerOptions, TestServer, scrape, site};
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| TestServer::start(ServerOptions::default()))
}

fn guarded() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        TestServer::start(ServerOptions {
            allow_private_targets: Some(false),
            ..ServerOptions::default()
        })
    })
}

/// Downloads a media URL the server returned; checks it is served by the server.
async fn media(url: &str) -> (String, Vec<u8>) {
    assert!(
        url.starts_with(&format!("{}/v2/media/", server().url())),
        "media URL {url} is not served by the server at {}",
        server().url()
    );
    let resp = http().get(url).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200, "GET {url}");
    let ct = resp
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    (ct, resp.bytes().await.unwrap().to_vec())
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

/// What a JPEG's headers say: its size and the mean of its first
/// quantisation table (1 at the finest quality, larger as quality falls).
struct JpegInfo {
    width: u32,
    height: u32,
    mean_quantiser: f64,
}

fn jpeg_info(jpeg: &[u8]) -> JpegInfo {
    assert_eq!(&jpeg[..2], b"\xff\xd8", "not a JPEG");
    let (mut size, mut mean) = (None, None);
    let mut at = 2;
    while at + 4 <= jpeg.len() && (size.is_none() || mean.is_none()) {
        assert_eq!(jpeg[at], 0xff, "marker expected at {at}");
        let marker = jpeg[at + 1];
        let len = u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
        let body = &jpeg[at + 4..at + 2 + len];
        match marker {
            // DQT: precision/id byte, then 64 entries of 8 (or 16) bits.
            0xdb if mean.is_none() => {
                let entries: Vec<f64> = if body[0] >> 4 == 0 {
                    body[1..65].iter().map(|&b| f64::from(b)).collect()
                } else {
                    body[1..129]
                        .chunks(2)
                        .map(|c| f64::from(u16::from_be_bytes([c[0], c[1]])))
                        .collect()
                };
                mean = Some(entries.iter().sum::<f64>() / 64.0);
            }
            // SOF0..SOF2: precision, height, width.
            0xc0..=0xc2 => {
                let be = |b: &[u8]| u32::from(u16::from_be_bytes([b[0], b[1]]));
                size = Some((be(&body[3..5]), be(&body[1..3])));
            }
            _ => {}
        }
        at += 2 + len;
    }
    let (width, height) = size.expect("no frame header");
    JpegInfo {
        width,
        height,
        mean_quantiser: mean.expect("no quantisation table"),
    }
}

fn data_str<'a>(r: &'a Reply, field: &str) -> &'a str {
    r.data()[field]
        .as_str()
        .unwrap_or_else(|| panic!("data.{field} missing: {}", r.pretty()))
}

#[tokio::test]
async fn script_rendered_content_needs_the_browser() {
    let url = site().url("/browser/js-rendered.html");
    // Without a browser-only option: the HTTP engine's result looks
    // script-rendered, so the browser fetches it again (browser_fallback.rs
    // shows the HTTP engine alone does not see the content).
    let plain = scrape(server().url(), &json!({ "url": url, "formats": ["markdown"] })).await;
    plain.assert_ok();
    assert!(plain.markdown().contains("JSRENDERED-7731"), "{}", plain.pretty());
    assert_eq!(plain.metadata()["engineUsed"], json!("browser"));
    assert_eq!(plain.metadata()["engineFallback"], json!("emptyContent"));

    let waited = scrape(
        server().url(),
        &json!({ "url": url, "formats": ["markdown"], "waitFor": 1000 }),
    )
    .await;
    waited.assert_ok();
    assert!(
        waited.markdown().contains("JSRENDERED-7731"),
        "{}",
        waited.pretty()
    );
    assert!(waited.data()["warning"].is_null(), "{}", waited.pretty());
    assert_eq!(waited.metadata()["engineUsed"], json!("browser"));
    assert!(
        waited.metadata()["engineFallback"].is_null(),
        "{}",
        waited.pretty()
    );

    // A screenshot alone also takes the browser; the smart wait catches the timer.
    let shot = scrape(
        server().url(),
        &json!({ "url": url, "formats": ["markdown", "screenshot"] }),
    )
    .await;
    shot.assert_ok();
    assert!(shot.markdown().contains("JSRENDERED-7731"), "{}", shot.pretty());
    assert_eq!(shot.metadata()["statusCode"], json!(200));
}

#[tokio::test]
async fn form_actions_click_write_press_then_scrape() {
    let url = site().url("/browser/form.html");
    let r = scrape(
        server().url(),
        &json!({
            "url": url,
            "formats": ["markdown"],
            "actions": [
                {"type": "click", "selector": "#name"},
                {"type": "write", "text": "Ada"},
                {"type": "press", "key": "Enter"},
                {"type": "scrape"},
                {"type": "click", "selector": ".counter", "all": true},
                {"type": "executeJavascript", "script": "return document.getElementById('clicks').textContent"},
                {"type": "executeJavascript", "script": "6 * 7"},
                {"type": "wait", "selector": "#out"},
                {"type": "scroll", "direction": "down"},
                {"type": "screenshot"},
                {"type": "pdf"},
                {"type": "pdf", "format": "A4", "landscape": true}
            ]
        }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("GREETING: Hello, Ada!"), "{}", r.pretty());
    let actions = &r.data()["actions"];
    let scrapes = actions["scrapes"].as_array().unwrap();
    assert_eq!(scrapes.len(), 1, "{}", r.pretty());
    assert_eq!(scrapes[0]["url"], json!(url));
    assert!(
        scrapes[0]["html"]
            .as_str()
            .unwrap()
            .contains("GREETING: Hello, Ada!")
    );
    assert_eq!(
        actions["javascriptReturns"],
        json!([{"type": "string", "value": "clicks: 3"}, {"type": "number", "value": 42}])
    );
    let shots = actions["screenshots"].as_array().unwrap();
    assert_eq!(shots.len(), 1);
    let (ct, png) = media(shots[0].as_str().unwrap()).await;
    assert_eq!(ct, "image/png");
    assert_eq!(png_size(&png), (1280, 800));
    let pdfs = actions["pdfs"].as_array().unwrap();
    assert_eq!(pdfs.len(), 2);
    let mut sizes = Vec::new();
    for url in pdfs {
        let (ct, pdf) = media(url.as_str().unwrap()).await;
        assert_eq!(ct, "application/pdf");
        assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
        sizes.push(media_box(&pdf));
    }
    // Letter portrait by default (612 × 792 pt); A4 landscape is ~842 × 595 pt.
    assert_eq!(sizes[0], (612.0, 792.0));
    let (w, h) = sizes[1];
    assert!(
        (w - 842.0).abs() < 3.0 && (h - 595.0).abs() < 3.0,
        "A4 landscape: {w} × {h}"
    );
}

/// Width and height of a PDF's first page (`/MediaBox [0 0 W H]`, in points).
fn media_box(pdf: &[u8]) -> (f64, f64) {
    let text = String::from_utf8_lossy(pdf);
    let at = text.find("/MediaBox").expect("a MediaBox");
    let inside = &text[at..];
    let numbers: Vec<f64> = inside[inside.find('[').unwrap() + 1..inside.find(']').unwrap()]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (numbers[2] - numbers[0], numbers[3] - numbers[1])
}

#[tokio::test]
async fn a_failing_action_names_itself_and_why() {
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/form.html"),
            "actions": [
                {"type": "wait", "milliseconds": 10},
                {"type": "click", "selector": "#does-not-exist"}
            ]
        }),
    )
    .await;
    r.assert_error(500, "SCRAPE_ACTION_ERROR");
    assert!(
        r.error()
            .starts_with("Action(s) failed to complete. Error code: Error in action 1 (click)")
            && r.error().contains("element not found")
            && r.error().contains("#does-not-exist"),
        "{}",
        r.pretty()
    );
    // A script that throws: the exception's text.
    let threw = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/form.html"),
            "actions": [{"type": "executeJavascript", "script": "throw new Error('boom-4411')"}]
        }),
    )
    .await;
    threw.assert_error(500, "SCRAPE_ACTION_ERROR");
    assert!(
        threw
            .error()
            .contains("Error in action 0 (executeJavascript): the script threw")
            && threw.error().contains("boom-4411"),
        "{}",
        threw.pretty()
    );
    // A selector that never appears: the timeout names the action.
    let waited = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/form.html"),
            "timeout": 5000,
            "actions": [{"type": "wait", "milliseconds": 1}, {"type": "wait", "selector": "#never-there"}]
        }),
    )
    .await;
    waited.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(
        waited.error().contains("while performing action 1 (wait)"),
        "{}",
        waited.pretty()
    );
    // `all: true` on nothing is not an error.
    let ok = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/form.html"),
            "actions": [{"type": "click", "selector": "#does-not-exist", "all": true}]
        }),
    )
    .await;
    ok.assert_ok();
}

#[tokio::test]
async fn screenshots_match_the_viewport_and_the_full_page() {
    let url = site().url("/browser/tall.html");
    let shot = |format: Value| {
        let body = json!({ "url": url, "formats": [format] });
        async move {
            let r = scrape(server().url(), &body).await;
            r.assert_ok();
            media(data_str(&r, "screenshot")).await
        }
    };
    let (ct, png) = shot(json!({"type": "screenshot"})).await;
    assert_eq!(ct, "image/png");
    assert_eq!(png_size(&png), (1280, 800));

    let (_, full) = shot(json!({"type": "screenshot", "fullPage": true})).await;
    assert_eq!(png_size(&full), (1280, 3000));

    let (_, small) = shot(json!({"type": "screenshot", "viewport": {"width": 640, "height": 480}})).await;
    assert_eq!(png_size(&small), (640, 480));

    // `quality` gives a JPEG whose quantisation follows it: coarser tables
    // and a smaller file as it falls, the viewport's size at every setting.
    let mut coarseness = Vec::new();
    for quality in [100, 50, 5] {
        let format = json!({"type": "screenshot", "quality": quality,
                            "viewport": {"width": 640, "height": 480}});
        let (ct, jpeg) = shot(format).await;
        assert_eq!(ct, "image/jpeg", "quality {quality}");
        let info = jpeg_info(&jpeg);
        assert_eq!((info.width, info.height), (640, 480), "quality {quality}");
        coarseness.push((quality, info.mean_quantiser, jpeg.len()));
    }
    let [(_, q100, len100), (_, q50, _), (_, q5, len5)] = coarseness[..] else {
        unreachable!()
    };
    assert!(q100 <= 2.0, "quality 100 quantises finely: {coarseness:?}");
    assert!(
        q100 < q50 && q50 < q5,
        "tables coarsen as quality falls: {coarseness:?}"
    );
    assert!(len5 < len100, "quality 5 is smaller than 100: {coarseness:?}");

    // Ids are checked before any file is read; unknown ids are 404.
    for id in [
        "nope",
        "00000000000000000000000000000000.png",
        "..%2F..%2Fetc%2Fpasswd",
    ] {
        let resp = http()
            .get(format!("{}/v2/media/{id}", server().url()))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 404, "{id}");
    }
}

#[tokio::test]
async fn mobile_sends_a_mobile_user_agent_and_a_phone_viewport() {
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/echo-headers"),
            "formats": ["rawHtml", "screenshot"],
            "mobile": true,
            "location": {"country": "DE", "languages": ["de-DE", "de"]}
        }),
    )
    .await;
    r.assert_ok();
    let html = data_str(&r, "rawHtml");
    assert!(html.contains("Mobile Safari"), "{html}");
    assert!(html.contains("de-DE,de;q=0.9"), "Accept-Language: {html}");
    let (_, png) = media(data_str(&r, "screenshot")).await;
    // 390 x 844 CSS pixels at a device scale factor of 3.
    assert_eq!(png_size(&png), (1170, 2532));
}

#[tokio::test]
async fn the_pages_script_reads_the_emulated_language_timezone_and_locale() {
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/locale.html"),
            "formats": ["markdown"],
            "location": {"country": "JP", "languages": ["ja-JP", "en"]}
        }),
    )
    .await;
    r.assert_ok();
    assert!(
        r.markdown()
            .contains("LANGUAGE: ja-JP TIMEZONE: Asia/Tokyo LOCALE: ja-JP"),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn scrolling_an_endless_list_loads_more_of_it() {
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/infinite.html"),
            "formats": ["markdown"],
            "actions": [
                {"type": "scrape"},
                {"type": "scroll", "direction": "down"},
                {"type": "scroll", "direction": "down"},
                {"type": "wait", "selector": ".item:nth-child(6)"},
                {"type": "executeJavascript", "script": "return document.querySelectorAll('.item').length"}
            ]
        }),
    )
    .await;
    r.assert_ok();
    let actions = &r.data()["actions"];
    let before = actions["scrapes"][0]["html"].as_str().unwrap();
    assert!(
        before.contains("ITEM-5") && !before.contains("ITEM-6"),
        "{}",
        r.pretty()
    );
    let count = actions["javascriptReturns"][0]["value"].as_u64().unwrap();
    assert!(count >= 10 && count % 5 == 0, "{count} items");
    assert!(r.markdown().contains(&format!("ITEM-{count}")), "{}", r.pretty());
}

#[tokio::test]
async fn block_ads_hides_cookie_banners_without_changing_the_html() {
    let display = "return getComputedStyle(document.getElementById('site-cookie-consent')).display";
    let visit = |block_ads: bool| {
        let body = json!({
            "url": site().url("/browser/cookie-banner.html"),
            "formats": ["rawHtml"],
            "blockAds": block_ads,
            "actions": [{"type": "executeJavascript", "script": display}]
        });
        async move { scrape(server().url(), &body).await }
    };
    let blocked = visit(true).await;
    blocked.assert_ok();
    assert_eq!(
        blocked.data()["actions"]["javascriptReturns"][0]["value"],
        json!("none"),
        "{}",
        blocked.pretty()
    );
    // The page's markup is its own: the banner is there, no style was added.
    let raw = data_str(&blocked, "rawHtml");
    assert!(
        raw.contains("We use cookies") && !raw.contains("!important"),
        "{raw}"
    );

    let shown = visit(false).await;
    shown.assert_ok();
    assert_eq!(
        shown.data()["actions"]["javascriptReturns"][0]["value"],
        json!("block"),
        "{}",
        shown.pretty()
    );
}

#[tokio::test]
async fn the_guard_refuses_the_browsers_requests_before_they_leave() {
    let token = "browser-guard";
    let r = scrape(
        guarded().url(),
        &json!({ "url": site().url(&format!("/hits/{token}")), "formats": ["screenshot"] }),
    )
    .await;
    r.assert_error(403, "SCRAPE_TARGET_BLOCKED");
    assert!(r.error().contains("loopback"), "{}", r.pretty());
    assert_eq!(site().hits(token), 0, "Chromium contacted a refused target");

    // By name: resolved by the interceptor, refused likewise.
    let token = "browser-guard-name";
    let url = format!("http://localhost:{}/hits/{token}", site().port());
    let r = scrape(guarded().url(), &json!({ "url": url, "waitFor": 100 })).await;
    r.assert_error(403, "SCRAPE_TARGET_BLOCKED");
    assert_eq!(site().hits(token), 0, "Chromium contacted a refused target");
}

#[tokio::test]
async fn a_page_that_never_loads_times_out_and_others_keep_working() {
    let started = Instant::now();
    let r = scrape(
        server().url(),
        &json!({
            "url": site().url("/browser/never-loads.html"),
            "formats": ["screenshot"],
            "timeout": 3000
        }),
    )
    .await;
    r.assert_error(408, "SCRAPE_TIMEOUT");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let next = scrape(
        server().url(),
        &json!({ "url": site().url("/browser/js-rendered.html"), "waitFor": 500 }),
    )
    .await;
    next.assert_ok();
    assert!(next.markdown().contains("JSRENDERED-7731"), "{}", next.pretty());
}

#[tokio::test]
async fn without_chromium_http_scrapes_work_and_browser_ones_name_the_setting() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_CHROMIUM", "/nonexistent/chromium"));
    let url = site().url("/browser/form.html");
    let plain = scrape(server.url(), &json!({ "url": url })).await;
    plain.assert_ok();
    assert_eq!(plain.metadata()["engineUsed"], json!("http"));
    // A script-rendered page: the HTTP result, and a warning saying why.
    let shell = site().url("/hits/browser-none-shell?page=shell");
    let r = scrape(server.url(), &json!({ "url": shell })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["engineUsed"], json!("http"));
    let warning = r.data()["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("script-rendered (appShell)") && warning.contains("DISTILL_CHROMIUM"),
        "{}",
        r.pretty()
    );
    let r = scrape(server.url(), &json!({ "url": url, "formats": ["screenshot"] })).await;
    r.assert_error(500, "SCRAPE_SITE_ERROR");
    assert!(
        r.error().contains("DISTILL_CHROMIUM") && r.error().contains("/nonexistent/chromium"),
        "{}",
        r.pretty()
    );
}

/// `/metrics` counts the browser pages open: at least one while a browser
/// scrape is held on a page that does not answer yet (other tests share the
/// server, so only the lower bound is certain).
#[tokio::test]
async fn metrics_count_the_browser_pages_open() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let token = format!("browser-pages-{}-{nanos:x}", std::process::id());
    let body = json!({"url": site().url(&format!("/gate/{token}")), "waitFor": 1, "maxAge": 0});
    let held = tokio::spawn(async move { scrape(server().url(), &body).await });
    let until = Instant::now() + Duration::from_secs(30);
    while site().gate_arrivals(&token) == 0 {
        assert!(Instant::now() < until, "the browser never reached the page");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let metrics = distill_e2e::get(&server().endpoint("/metrics")).await;
    let open: f64 = metrics
        .body
        .lines()
        .find_map(|l| l.strip_prefix("distill_browser_pages_open "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    assert!(open >= 1.0, "{}", metrics.body);
    site().open_gate(&token);
    let r = held.await.unwrap();
    r.assert_ok();
    assert_eq!(r.metadata()["engineUsed"], json!("browser"), "{}", r.pretty());
}
