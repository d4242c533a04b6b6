//! An in-process web site for the server to scrape, on `127.0.0.1:<ephemeral>`
//! (and a second copy on `127.0.0.2`, [`other_site`]).
//!
//! It serves the committed pages of `tests/fixtures/site/` plus dynamic routes:
//!
//! | route | what |
//! |---|---|
//! | `/redirect/{n}` | `n` redirects (302) ending at `/article.html` |
//! | `/redirect-loop/{a,b}` | redirects between `a` and `b` forever |
//! | `/redirect-to-localhost/{path}` | 302 to the same site under the name `localhost` |
//! | `/status/{code}` | an HTML page answered with that status |
//! | `/slow?ms=N` | an HTML page after N ms (at most 30 s) |
//! | `/charset/shift-jis` | Shift_JIS page, charset only in the `Content-Type` header |
//! | `/charset/windows-1252` | windows-1252 page, charset only in `<meta charset>` |
//! | `/echo-headers` | HTML listing the request headers: `<li id="h-NAME">VALUE</li>` |
//! | `/api/items` | [`JSON_BODY`] as `application/json` |
//! | `/hits/{token}?ms=N` | a page that counts its requests ([`FixtureSite::hits`]), answered after N ms (default 0, at most 30 s) |
//! | `/hits/{token}?page=shell` | the same, as an app shell whose content ([`SHELL_CONTENT`]) only `/browser/app-bundle.js` writes |
//! | `/hits/{token}?page=scripted` | the same, as an article that also runs a script |
//! | `/hits/{token}?page=gzip` | the same, a longer article sent with `Content-Encoding: gzip`, each paragraph marked `data-mark="gz-{token}"` |
//! | `/gate/{token}` | a page held until [`FixtureSite::open_gate`] (at most 30 s); counts its requests under `gate:{token}` |
//! | `/versioned/{token}` | a page whose content is version [`FixtureSite::set_version`] of [`versioned_page`]; counts hits under `v:{token}` |
//! | `/big?kb=N` | an HTML page of about N KB (at most 4096), ending in `BIGPAGEEND` |
//! | `/documents/{name}` | `tests/fixtures/documents/<name>`, typed by its extension |
//! | `/download?file=NAME&type=MIME` | the same file under a path without an extension, typed `MIME` |
//!
//! The site runs on its own thread and Tokio runtime, so sync and async tests
//! can use it alike; [`site`] starts it once per test binary.

use crate::background::serve_router;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The exact body of `/api/items`.
pub const JSON_BODY: &str = r#"{"items":[{"id":1,"name":"lichen"},{"id":2,"name":"moss"}],"count":2}"#;

/// "日本語のページ" in Shift_JIS (the title of `/charset/shift-jis`).
const SJIS_TITLE: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x79\x81\x5b\x83\x57";
/// "こんにちは、世界！" in Shift_JIS.
const SJIS_TEXT: &[u8] = b"\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd\x81\x41\x90\xa2\x8a\x45\x81\x49";
/// "Café “quoted” — price 5€ œuvre" in windows-1252 (0x80–0x9F differ from Latin-1).
const CP1252_TEXT: &[u8] = b"Caf\xe9 \x93quoted\x94 \x97 price 5\x80 \x9cuvre";

/// The running site.
pub struct FixtureSite {
    addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, u64>>>,
    versions: Arc<Mutex<HashMap<String, u32>>>,
}

impl FixtureSite {
    /// Makes `/versioned/{token}` serve version `v` from now on (default 1).
    pub fn set_version(&self, token: &str, v: u32) {
        self.versions.lock().unwrap().insert(token.to_string(), v);
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `base()` + `path` (`path` starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// `host:port` without a scheme.
    pub fn host_port(&self) -> String {
        self.addr.to_string()
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The most requests of `/inflight/{token}` answered at once.
    pub fn max_in_flight(&self, token: &str) -> u64 {
        self.hits(&format!("inflight-max:{token}"))
    }

    /// Answers every request of `/gate/{token}`, held or still to come.
    pub fn open_gate(&self, token: &str) {
        self.hits.lock().unwrap().insert(format!("gate-open:{token}"), 1);
    }

    /// How many requests `/gate/{token}` received (answered or held).
    pub fn gate_arrivals(&self, token: &str) -> u64 {
        self.hits(&format!("gate:{token}"))
    }

    /// How many requests `/hits/{token}` received.
    pub fn hits(&self, token: &str) -> u64 {
        self.hits.lock().unwrap().get(token).copied().unwrap_or(0)
    }
}

/// A token no other test (or test process) uses, starting with `prefix`: for
/// the fixture's counted paths (`/hits/{token}`, `/gate/{token}`) and
/// anything else that must not collide between runs.
pub fn unique_token(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}-{}-{nanos:x}", std::process::id())
}

/// The fixture site of this test binary (started on first use).
pub fn site() -> &'static FixtureSite {
    static SITE: OnceLock<FixtureSite> = OnceLock::new();
    SITE.get_or_init(|| start_on("127.0.0.1"))
}

/// A second copy of the site on `127.0.0.2` (Linux routes all of 127/8 to
/// the loopback interface), with hit counts of its own: a target that the
/// guard can refuse while allowing [`site`].
pub fn other_site() -> &'static FixtureSite {
    static SITE: OnceLock<FixtureSite> = OnceLock::new();
    SITE.get_or_init(|| start_on("127.0.0.2"))
}

/// `tests/fixtures/site/`.
pub fn site_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/site")
}

/// `tests/fixtures/documents/` (the converter fixtures).
pub fn documents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/documents")
}

/// The committed file `tests/fixtures/documents/<name>`.
pub fn read_document(name: &str) -> Vec<u8> {
    std::fs::read(documents_dir().join(name)).unwrap_or_else(|e| panic!("document fixture {name}: {e}"))
}

/// The committed file `tests/fixtures/site/<rel>`, as text.
pub fn read_fixture(rel: &str) -> String {
    std::fs::read_to_string(site_dir().join(rel)).unwrap_or_else(|e| panic!("fixture {rel}: {e}"))
}

#[derive(Clone)]
struct Ctx {
    port: u16,
    hits: Arc<Mutex<HashMap<String, u64>>>,
    versions: Arc<Mutex<HashMap<String, u32>>>,
}

/// The body of `/versioned/{token}` at version `v`: version 1 lists three
/// items; version 2 changes the second and adds a fourth; version 3 removes
/// the first. Any other version is version 3.
pub fn versioned_page(token: &str, v: u32) -> String {
    let items: &[&str] = match v {
        1 => &["Alder", "Birch", "Cedar"],
        2 => &["Alder", "Beech", "Cedar", "Damson"],
        _ => &["Beech", "Cedar", "Damson"],
    };
    let list: String = items.iter().map(|i| format!("<li>{i}</li>")).collect();
    format!(
        "<html><head><title>Trees {t}</title></head><body><article><h1>Trees {t}</h1>\
         <p>The grove's inventory.</p><ul>{list}</ul></article></body></html>",
        t = escape(token)
    )
}

fn start_on(ip: &str) -> FixtureSite {
    let listener = std::net::TcpListener::bind((ip, 0)).expect("binding the fixture site");
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(Mutex::new(HashMap::new()));
    let versions = Arc::new(Mutex::new(HashMap::new()));
    let ctx = Ctx {
        port: addr.port(),
        hits: hits.clone(),
        versions: versions.clone(),
    };
    serve_router("fixture-site", listener, router(ctx));
    FixtureSite { addr, hits, versions }
}

fn router(ctx: Ctx) -> Router {
    Router::new()
        .route("/redirect/{n}", get(redirect))
        .route("/redirect-loop/{side}", get(redirect_loop))
        .route("/redirect-to-localhost/{*path}", get(redirect_to_localhost))
        .route("/status/{code}", get(status_page))
        .route("/slow", get(slow))
        .route("/charset/shift-jis", get(shift_jis))
        .route("/charset/windows-1252", get(windows_1252))
        .route("/echo-headers", get(echo_headers))
        .route("/api/items", get(json_items))
        .route("/hits/{token}", get(hit))
        .route("/inflight/{token}", get(in_flight))
        .route("/gate/{token}", get(gate))
        .route("/versioned/{token}", get(versioned))
        .route("/big", get(big))
        .route("/documents/{name}", get(document))
        .route("/download", get(download))
        .fallback(static_file)
        .with_state(ctx)
}

fn html(status: StatusCode, content_type: &'static str, body: impl Into<Body>) -> Response {
    (status, [(header::CONTENT_TYPE, content_type)], body.into()).into_response()
}

fn found(location: String) -> Response {
    (
        StatusCode::FOUND,
        [(header::LOCATION, location.clone())],
        format!("<a href=\"{location}\">moved</a>"),
    )
        .into_response()
}

async fn redirect(UrlPath(n): UrlPath<u32>) -> Response {
    if n <= 1 {
        found("/article.html".into())
    } else {
        found(format!("/redirect/{}", n - 1))
    }
}

async fn redirect_loop(UrlPath(side): UrlPath<String>) -> Response {
    let other = if side == "a" { "b" } else { "a" };
    found(format!("/redirect-loop/{other}"))
}

async fn redirect_to_localhost(State(ctx): State<Ctx>, UrlPath(path): UrlPath<String>) -> Response {
    found(format!("http://localhost:{}/{path}", ctx.port))
}

async fn status_page(UrlPath(code): UrlPath<u16>) -> Response {
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST);
    let reason = status.canonical_reason().unwrap_or("Unknown");
    let body = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><title>{code} {reason}</title></head><body><main>\
         <h1>Error {code}</h1><p>Nothing lives here: the fixture answered {code} on purpose.</p>\
         </main></body></html>"
    );
    html(status, "text/html; charset=utf-8", body)
}

/// The numeric query parameter `name`, else `default`.
fn query_number(uri: &Uri, name: &str, default: u64) -> u64 {
    query_param(uri, name)
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(default)
}

fn query_param<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix(name).and_then(|rest| rest.strip_prefix('=')))
}

async fn slow(uri: Uri) -> Response {
    let ms = query_number(&uri, "ms", 1000).min(30_000);
    tokio::time::sleep(Duration::from_millis(ms)).await;
    html(
        StatusCode::OK,
        "text/html; charset=utf-8",
        format!("<html><head><title>Slow</title></head><body><p>Answered after {ms} ms.</p></body></html>"),
    )
}

async fn shift_jis() -> Response {
    let mut body = b"<!DOCTYPE html><html lang=\"ja\"><head><title>".to_vec();
    body.extend_from_slice(SJIS_TITLE);
    body.extend_from_slice(b"</title></head><body><main><h1>");
    body.extend_from_slice(SJIS_TITLE);
    body.extend_from_slice(b"</h1><p>");
    body.extend_from_slice(SJIS_TEXT);
    body.extend_from_slice(b"</p></main></body></html>");
    html(StatusCode::OK, "text/html; charset=Shift_JIS", body)
}

async fn windows_1252() -> Response {
    let mut body =
        b"<!DOCTYPE html><html><head><meta charset=\"windows-1252\"><title>Caf\xe9 menu</title></head><body><main><p>"
            .to_vec();
    body.extend_from_slice(CP1252_TEXT);
    body.extend_from_slice(b"</p></main></body></html>");
    // No charset parameter: only the <meta> says how to decode.
    html(StatusCode::OK, "text/html", body)
}

async fn big(uri: Uri) -> Response {
    let kb = query_number(&uri, "kb", 300).min(4096) as usize;
    let mut body = String::from(
        "<!DOCTYPE html><html><head><title>Big page</title></head><body><main><h1>Big page</h1>\n",
    );
    let mut i = 0;
    while body.len() < kb * 1024 {
        body.push_str(&format!(
            "<p>Paragraph {i} of filler text, with a <a href=\"/big/{i}\">link number {i}</a>.</p>\n"
        ));
        i += 1;
    }
    body.push_str("<p>BIGPAGEEND</p></main></body></html>");
    html(StatusCode::OK, "text/html; charset=utf-8", body)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

async fn echo_headers(headers: HeaderMap) -> Response {
    let mut items = String::new();
    for (name, value) in &headers {
        items.push_str(&format!(
            "<li id=\"h-{}\">{}</li>\n",
            escape(name.as_str()),
            escape(&String::from_utf8_lossy(value.as_bytes()))
        ));
    }
    html(
        StatusCode::OK,
        "text/html; charset=utf-8",
        format!(
            "<!DOCTYPE html><html><head><title>Echo headers</title></head><body><main>\
             <h1>Request headers</h1><ul>\n{items}</ul></main></body></html>"
        ),
    )
}

async fn json_items() -> Response {
    html(StatusCode::OK, "application/json", JSON_BODY)
}

async fn gate(State(ctx): State<Ctx>, UrlPath(token): UrlPath<String>) -> Response {
    *ctx.hits
        .lock()
        .unwrap()
        .entry(format!("gate:{token}"))
        .or_default() += 1;
    let open = format!("gate-open:{token}");
    let held_until = tokio::time::Instant::now() + Duration::from_secs(30);
    while !ctx.hits.lock().unwrap().contains_key(&open) && tokio::time::Instant::now() < held_until {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let token = escape(&token);
    let page =
        format!("<html><head><title>Gate</title></head><body><p>Gate {token} opened.</p></body></html>");
    html(StatusCode::OK, "text/html; charset=utf-8", page)
}

async fn hit(State(ctx): State<Ctx>, UrlPath(token): UrlPath<String>, uri: Uri) -> Response {
    *ctx.hits.lock().unwrap().entry(token.clone()).or_default() += 1;
    let ms = query_number(&uri, "ms", 0).min(30_000);
    if ms > 0 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let token = escape(&token);
    let page = match query_param(&uri, "page") {
        Some("shell") => format!(
            "<!DOCTYPE html><html><head><title>Shell {token}</title>\
             <script src=\"/browser/app-bundle.js\" defer></script></head><body>\
             <noscript>You need to enable JavaScript to run this app.</noscript>\
             <div id=\"root\"></div></body></html>"
        ),
        Some("scripted") => format!(
            "<!DOCTYPE html><html><head><title>Scripted {token}</title></head><body><article>\
             <h1>A page that runs a script</h1><p>This article is in the markup itself: a \
             script on the page only counts visits, so fetching it again with a browser would \
             add nothing. Hit {token}.</p></article>\
             <script>window.visits = (window.visits || 0) + 1;</script></body></html>"
        ),
        Some("gzip") => {
            let paragraphs: String = (0..200)
                .map(|i| format!("<p data-mark=\"gz-{token}\">Paragraph {i} of a gzipped page.</p>"))
                .collect();
            let page = format!(
                "<html><head><title>Gzipped {token}</title></head><body><article>\
                 <h1>Hit {token}</h1>{paragraphs}</article></body></html>"
            );
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            std::io::Write::write_all(&mut e, page.as_bytes()).expect("gzip to memory");
            let headers = [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CONTENT_ENCODING, "gzip"),
            ];
            return (StatusCode::OK, headers, e.finish().expect("gzip to memory")).into_response();
        }
        _ => format!("<html><head><title>Hit</title></head><body><p>Hit {token}</p></body></html>"),
    };
    html(StatusCode::OK, "text/html; charset=utf-8", page)
}

/// The text `/browser/app-bundle.js` writes into `/hits/{token}?page=shell`.
pub const SHELL_CONTENT: &str = "SHELLRENDERED-4410";

/// Counts requests of `token` being answered at once (`?ms=` each takes) and
/// records the most seen, for [`FixtureSite::max_in_flight`].
async fn in_flight(State(ctx): State<Ctx>, UrlPath(token): UrlPath<String>, uri: Uri) -> Response {
    /// Leaves the count when the answer is done (or the client went away).
    struct Leave(Arc<Mutex<HashMap<String, u64>>>, String);
    impl Drop for Leave {
        fn drop(&mut self) {
            *self.0.lock().unwrap().entry(self.1.clone()).or_default() -= 1;
        }
    }
    let now_key = format!("inflight-now:{token}");
    {
        let mut hits = ctx.hits.lock().unwrap();
        let now = hits.entry(now_key.clone()).or_default();
        *now += 1;
        let now = *now;
        let max = hits.entry(format!("inflight-max:{token}")).or_default();
        *max = (*max).max(now);
        *hits.entry(token.clone()).or_default() += 1;
    }
    let _leave = Leave(ctx.hits.clone(), now_key);
    let ms = query_number(&uri, "ms", 100).min(30_000);
    tokio::time::sleep(Duration::from_millis(ms)).await;
    html(
        StatusCode::OK,
        "text/html; charset=utf-8",
        format!(
            "<html><head><title>In flight</title></head><body><p>{}</p></body></html>",
            escape(&token)
        ),
    )
}

async fn versioned(State(ctx): State<Ctx>, UrlPath(token): UrlPath<String>) -> Response {
    *ctx.hits.lock().unwrap().entry(format!("v:{token}")).or_default() += 1;
    let v = ctx.versions.lock().unwrap().get(&token).copied().unwrap_or(1);
    html(
        StatusCode::OK,
        "text/html; charset=utf-8",
        versioned_page(&token, v),
    )
}

/// A document fixture, typed by its extension.
async fn document(UrlPath(name): UrlPath<String>) -> Response {
    let ctype = content_type_for(Path::new(&name));
    serve_document(&name, ctype).await
}

/// A document fixture under an extension-less path, typed by `?type=`.
async fn download(uri: Uri) -> Response {
    let query = uri.query().unwrap_or("");
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    let ctype = param("type")
        .unwrap_or("application/octet-stream")
        .replace("%2F", "/");
    serve_document(param("file").unwrap_or(""), &ctype).await
}

async fn serve_document(name: &str, content_type: &str) -> Response {
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        return html(StatusCode::BAD_REQUEST, "text/plain", "bad path");
    }
    match tokio::fs::read(documents_dir().join(name)).await {
        Ok(bytes) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, content_type.to_string())],
            bytes,
        )
            .into_response(),
        Err(_) => html(StatusCode::NOT_FOUND, "text/plain", "no such document"),
    }
}

fn content_type_for(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "json" => "application/json",
        "js" => "text/javascript; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "pdf" => "application/pdf",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}

async fn static_file(uri: Uri) -> Response {
    let rel = uri.path().trim_start_matches('/');
    let rel = if rel.is_empty() || rel.ends_with('/') {
        format!("{rel}index.html")
    } else {
        rel.to_string()
    };
    let rel_path = Path::new(&rel);
    if rel_path.components().any(|c| !matches!(c, Component::Normal(_))) {
        return html(StatusCode::BAD_REQUEST, "text/plain", "bad path");
    }
    let path = site_dir().join(rel_path);
    match tokio::fs::read(&path).await {
        Ok(bytes) => html(StatusCode::OK, content_type_for(&path), bytes),
        Err(_) => html(
            StatusCode::NOT_FOUND,
            "text/html; charset=utf-8",
            "<html><head><title>Missing</title></head><body><p>No such fixture file.</p></body></html>",
        ),
    }
}
