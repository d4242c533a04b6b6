//! The soak's target site on `127.0.0.1:0`, inside the soak process: corpus
//! pages served as they were stored (gzip, `Content-Encoding: gzip`), plus
//! hostile routes: a redirect loop, a connection closed mid-body, a body past
//! the server's page limit, deep nesting and a huge attribute, error statuses.

use axum::Router;
use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use bytes::Bytes;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// Pages loaded from the corpus (gzip bytes as stored).
pub struct Pages(pub Vec<Bytes>);

/// Loads at most `per_corpus` `html/*.html.gz` files from each corpus
/// directory under `root` (sorted by name).
pub fn load_pages(root: &Path, per_corpus: usize) -> anyhow::Result<Pages> {
    let mut pages = Vec::new();
    let mut corpora: Vec<_> = std::fs::read_dir(root)
        .map_err(|e| anyhow::anyhow!("corpus root {}: {e}", root.display()))?
        .flatten()
        .map(|e| e.path().join("html"))
        .filter(|p| p.is_dir())
        .collect();
    corpora.sort();
    for dir in corpora {
        let mut files: Vec<_> = std::fs::read_dir(&dir)?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
            .collect();
        files.sort();
        for path in files.into_iter().take(per_corpus) {
            pages.push(Bytes::from(std::fs::read(&path)?));
        }
    }
    anyhow::ensure!(!pages.is_empty(), "no *.html.gz page under {}", root.display());
    Ok(Pages(pages))
}

/// The running site (it stops with the runtime).
pub struct Site {
    pub addr: SocketAddr,
    pub pages: usize,
}

impl Site {
    pub async fn start(pages: Pages) -> anyhow::Result<Site> {
        let count = pages.0.len();
        let app = Router::new()
            .route("/page/{n}", get(page))
            .route("/loop/{n}", get(redirect_loop))
            .route("/closed", get(closed_mid_body))
            .route("/huge", get(huge))
            .route("/nested", get(nested))
            .route("/status/{code}", get(status))
            .with_state(Arc::new(pages));
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("soak site stopped: {e}");
            }
        });
        Ok(Site { addr, pages: count })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

async fn page(State(pages): State<Arc<Pages>>, UrlPath(n): UrlPath<usize>) -> Response {
    let body = pages.0[n % pages.0.len()].clone();
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_ENCODING, "gzip"),
        ],
        body,
    )
        .into_response()
}

/// `/loop/n` redirects to `/loop/n+1` forever.
async fn redirect_loop(UrlPath(n): UrlPath<u64>) -> Response {
    (
        StatusCode::FOUND,
        [(header::LOCATION, format!("/loop/{}", n.wrapping_add(1)))],
    )
        .into_response()
}

/// Declares 64 KB, sends a little, then ends the stream with an error (the
/// connection is cut mid-body).
async fn closed_mid_body() -> Response {
    let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
        Ok(Bytes::from_static(b"<html><body><p>cut short")),
        Err(std::io::Error::other("connection cut by the soak site")),
    ];
    Response::builder()
        .header(header::CONTENT_TYPE, "text/html")
        .header(header::CONTENT_LENGTH, "65536")
        .body(Body::from_stream(futures_stream(chunks)))
        .unwrap()
}

/// About 60 MB (past the server's 50 MiB default page limit), streamed.
async fn huge() -> Response {
    let chunk = Bytes::from(vec![b'a'; 1 << 20]);
    let chunks: Vec<Result<Bytes, std::io::Error>> = (0..60).map(|_| Ok(chunk.clone())).collect();
    Response::builder()
        .header(header::CONTENT_TYPE, "text/html")
        .body(Body::from_stream(futures_stream(chunks)))
        .unwrap()
}

/// 20,000 nested `<div>`s and a 1 MB attribute.
async fn nested() -> Response {
    let mut html = String::from("<html><body>");
    html.push_str(&"<div>".repeat(20_000));
    html.push_str(&format!("<p title=\"{}\">deep</p>", "x".repeat(1 << 20)));
    ([(header::CONTENT_TYPE, "text/html")], html).into_response()
}

async fn status(UrlPath(code): UrlPath<u16>) -> Response {
    let code = StatusCode::from_u16(code).unwrap_or(StatusCode::IM_A_TEAPOT);
    (
        code,
        [(header::CONTENT_TYPE, "text/html")],
        "<html><body><p>status page</p></body></html>",
    )
        .into_response()
}

/// A stream over ready items (for [`Body::from_stream`]).
fn futures_stream<T: Send + Unpin + 'static>(items: Vec<T>) -> Iter<std::vec::IntoIter<T>> {
    Iter(items.into_iter())
}

/// The smallest `Stream` over an iterator.
struct Iter<I>(I);

impl<I: Iterator + Unpin> futures_core::Stream for Iter<I> {
    type Item = I::Item;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<I::Item>> {
        std::task::Poll::Ready(self.0.next())
    }
}
