//! Page metadata and fetch behaviour: meta tag mapping and raw copies,
//! favicon, language, sourceURL vs url after redirects, statusCode for non-2xx
//! targets, contentType, scrapeId, charset decoding and request headers
//! (compat notes §1.4, §1.10).

use distill_e2e::{scrape, shared, site};
use serde_json::json;

#[tokio::test]
async fn article_metadata_maps_meta_tags_and_keeps_raw_copies() {
    let url = site().url("/article.html");
    let r = scrape(shared().url(), &json!({ "url": url })).await;
    r.assert_ok();
    let m = r.metadata();
    let expect = |key: &str, value: serde_json::Value| {
        assert_eq!(m[key], value, "metadata.{key} in {}", r.pretty());
    };
    expect("title", json!("Field Notes on Lichens"));
    expect(
        "description",
        json!("A short article about lichens on old stone walls."),
    );
    expect("keywords", json!("lichens, walls, moss"));
    expect("language", json!("en-GB"));
    expect("robots", json!("index, follow"));
    expect("author", json!("Ada Moss"));
    expect("ogTitle", json!("Lichens: Field Notes"));
    expect("ogDescription", json!("What grows on old walls."));
    expect("ogUrl", json!("https://journal.example/lichens"));
    expect("ogImage", json!("https://journal.example/img/og-lichen.png"));
    expect("ogSiteName", json!("Stone Wall Journal"));
    expect("ogLocale", json!("en_GB"));
    expect("ogLocaleAlternate", json!(["fr_FR", "de_DE"]));
    expect("publishedTime", json!("2024-03-01T10:00:00Z"));
    expect("dcSubject", json!("Botany"));
    expect("articleTag", json!("nature"));
    // Raw copies under the meta's own name/property; repeated keys become arrays.
    expect("og:title", json!("Lichens: Field Notes"));
    expect("og:locale:alternate", json!(["fr_FR", "de_DE"]));
    expect("twitter:card", json!("summary_large_image"));
    expect("twitter:title", json!("Lichens, briefly"));
    expect("dc.subject", json!("Botany"));
    expect("article:tag", json!(["nature", "walls"]));
    // rel="icon" wins over apple-touch-icon, made absolute.
    expect("favicon", json!(site().url("/favicon.ico")));
    // Engine fields.
    expect("sourceURL", json!(url));
    expect("url", json!(url));
    expect("statusCode", json!(200));
    expect("contentType", json!("text/html; charset=utf-8"));
    assert!(
        m.get("error").is_none(),
        "no error for a 200 page: {}",
        r.pretty()
    );
}

#[tokio::test]
async fn metadata_edge_cases_description_join_meta_title_and_relative_favicon() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/meta/edge.html") })).await;
    r.assert_ok();
    let m = r.metadata();
    assert_eq!(
        m["title"],
        "Real Title",
        "a meta named title never overwrites <title>: {}",
        r.pretty()
    );
    assert_eq!(m["description"], "First part., Second part.", "{}", r.pretty());
    assert_eq!(
        m["name"],
        "Itemprop Name",
        "itemprop metas are copied too: {}",
        r.pretty()
    );
    assert_eq!(m["favicon"], site().url("/meta/img/fav.png"), "{}", r.pretty());
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| {
            if [8, 13, 18, 23].contains(&i) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

#[tokio::test]
async fn scrape_id_is_a_fresh_uuid_per_request() {
    let body = json!({ "url": site().url("/meta/edge.html") });
    let a = scrape(shared().url(), &body).await;
    let b = scrape(shared().url(), &body).await;
    a.assert_ok();
    b.assert_ok();
    let (ia, ib) = (
        a.metadata()["scrapeId"].as_str().unwrap(),
        b.metadata()["scrapeId"].as_str().unwrap(),
    );
    assert!(is_uuid(ia) && is_uuid(ib), "{ia} / {ib}");
    assert_ne!(ia, ib);
}

#[tokio::test]
async fn redirects_are_followed_and_source_url_keeps_the_requested_url() {
    let requested = site().url("/redirect/3");
    let r = scrape(shared().url(), &json!({ "url": requested })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["sourceURL"], requested.as_str(), "{}", r.pretty());
    assert_eq!(r.metadata()["url"], site().url("/article.html"), "{}", r.pretty());
    assert_eq!(r.metadata()["statusCode"], 200);
    assert_eq!(r.metadata()["title"], "Field Notes on Lichens");
    // Relative links resolve against the final URL.
    assert!(
        r.markdown()
            .contains(&format!("({}/notes/appendix.html)", site().base())),
        "{}",
        r.markdown()
    );
}

#[tokio::test]
async fn url_without_scheme_gets_http() {
    let sent = format!("{}/article.html", site().host_port());
    let r = scrape(shared().url(), &json!({ "url": sent })).await;
    r.assert_ok();
    assert_eq!(
        r.metadata()["sourceURL"],
        sent.as_str(),
        "sourceURL is the URL as sent: {}",
        r.pretty()
    );
    assert_eq!(r.metadata()["url"], site().url("/article.html"), "{}", r.pretty());
}

#[tokio::test]
async fn a_404_target_is_a_successful_scrape_with_status_and_error() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/status/404"), "formats": ["markdown", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["statusCode"], 404, "{}", r.pretty());
    assert_eq!(r.metadata()["error"], "Not Found", "{}", r.pretty());
    assert!(r.markdown().contains("Nothing lives here"), "{}", r.markdown());
    assert!(r.data_str("rawHtml").contains("<h1>Error 404</h1>"));
}

#[tokio::test]
async fn a_500_target_is_a_successful_scrape_with_status_and_error() {
    let r = scrape(shared().url(), &json!({ "url": site().url("/status/500") })).await;
    r.assert_ok();
    assert_eq!(r.metadata()["statusCode"], 500, "{}", r.pretty());
    assert_eq!(r.metadata()["error"], "Internal Server Error", "{}", r.pretty());
    assert!(r.markdown().contains("Error 500"), "{}", r.markdown());
}

#[tokio::test]
async fn shift_jis_from_the_content_type_header_is_decoded() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/charset/shift-jis"), "formats": ["markdown", "rawHtml"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["title"], "日本語のページ", "{}", r.pretty());
    assert_eq!(r.metadata()["language"], "ja");
    assert!(r.markdown().contains("こんにちは、世界！"), "{}", r.markdown());
    assert!(
        !r.markdown().contains('\u{FFFD}'),
        "replacement characters: {}",
        r.markdown()
    );
    assert!(
        r.data_str("rawHtml").contains("<title>日本語のページ</title>"),
        "rawHtml is decoded text"
    );
    assert_eq!(r.metadata()["contentType"], "text/html; charset=Shift_JIS");
}

#[tokio::test]
async fn windows_1252_from_a_meta_charset_is_decoded() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/charset/windows-1252") }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.metadata()["title"], "Café menu", "{}", r.pretty());
    let md = r.markdown();
    assert!(md.contains("Café “quoted” — price 5€ œuvre"), "{md}");
    assert!(!md.contains('\u{FFFD}'), "{md}");
}

fn header_line(raw_html: &str, name: &str) -> Option<String> {
    let start = format!("<li id=\"h-{name}\">");
    let from = raw_html.find(&start)? + start.len();
    let to = raw_html[from..].find("</li>")? + from;
    Some(raw_html[from..to].to_string())
}

#[tokio::test]
async fn request_headers_are_passed_to_the_target() {
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/echo-headers"),
            "formats": ["rawHtml"],
            "headers": {
                "X-E2E-Token": "abc123",
                "User-Agent": "DistillE2E/1.0",
                "Cookie": "session=xyz",
                "Accept-Language": "de-CH"
            }
        }),
    )
    .await;
    r.assert_ok();
    let raw = r.data_str("rawHtml");
    assert_eq!(
        header_line(raw, "x-e2e-token").as_deref(),
        Some("abc123"),
        "{raw}"
    );
    assert_eq!(
        header_line(raw, "user-agent").as_deref(),
        Some("DistillE2E/1.0"),
        "{raw}"
    );
    assert_eq!(
        header_line(raw, "cookie").as_deref(),
        Some("session=xyz"),
        "{raw}"
    );
    assert_eq!(
        header_line(raw, "accept-language").as_deref(),
        Some("de-CH"),
        "{raw}"
    );
}

#[tokio::test]
async fn a_browser_like_user_agent_is_sent_by_default() {
    let r = scrape(
        shared().url(),
        &json!({ "url": site().url("/echo-headers"), "formats": ["rawHtml"] }),
    )
    .await;
    r.assert_ok();
    let raw = r.data_str("rawHtml");
    let ua = header_line(raw, "user-agent").unwrap_or_default();
    assert!(ua.starts_with("Mozilla/5.0"), "default User-Agent: {ua:?}");
    let accept = header_line(raw, "accept").unwrap_or_default();
    assert!(accept.contains("text/html"), "default Accept: {accept:?}");
}

#[tokio::test]
async fn credential_headers_are_dropped_when_a_redirect_changes_host() {
    // 127.0.0.1 → localhost: same machine, different host name.
    let r = scrape(
        shared().url(),
        &json!({
            "url": site().url("/redirect-to-localhost/echo-headers"),
            "formats": ["rawHtml"],
            "headers": { "Authorization": "Bearer secret", "Cookie": "session=xyz", "X-Other": "kept" }
        }),
    )
    .await;
    r.assert_ok();
    assert_eq!(
        r.metadata()["url"],
        format!("http://localhost:{}/echo-headers", site().port()),
        "{}",
        r.pretty()
    );
    let raw = r.data_str("rawHtml");
    assert_eq!(header_line(raw, "x-other").as_deref(), Some("kept"), "{raw}");
    assert_eq!(
        header_line(raw, "authorization"),
        None,
        "Authorization leaked across hosts: {raw}"
    );
    assert_eq!(
        header_line(raw, "cookie"),
        None,
        "Cookie leaked across hosts: {raw}"
    );
}

#[tokio::test]
async fn credential_headers_survive_a_same_host_redirect() {
    // localhost → localhost: the host does not change, so the Cookie stays.
    let r = scrape(
        shared().url(),
        &json!({
            "url": format!("http://localhost:{}/redirect-to-localhost/echo-headers", site().port()),
            "formats": ["rawHtml"],
            "headers": { "Cookie": "session=xyz" }
        }),
    )
    .await;
    r.assert_ok();
    assert_eq!(
        r.metadata()["url"],
        format!("http://localhost:{}/echo-headers", site().port())
    );
    assert_eq!(
        header_line(r.data_str("rawHtml"), "cookie").as_deref(),
        Some("session=xyz"),
        "{}",
        r.pretty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_scrapes_all_succeed_with_their_own_metadata() {
    let server = shared();
    let pages = [
        "/article.html",
        "/layout.html",
        "/links/page.html",
        "/meta/edge.html",
        "/media/images.html",
    ];
    let handles: Vec<_> = (0..20)
        .map(|i| {
            let url = site().url(pages[i % pages.len()]);
            tokio::spawn(async move { (url.clone(), scrape(server.url(), &json!({ "url": url })).await) })
        })
        .collect();
    let mut ids = std::collections::HashSet::new();
    for h in handles {
        let (url, r) = h.await.unwrap();
        r.assert_ok();
        assert_eq!(r.metadata()["sourceURL"], url.as_str(), "{}", r.pretty());
        assert!(
            ids.insert(r.metadata()["scrapeId"].as_str().unwrap().to_string()),
            "duplicate scrapeId"
        );
    }
    assert_eq!(ids.len(), 20);
}
