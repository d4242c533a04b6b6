//! The generated site the crawl benchmark walks: `pages` HTML pages served
//! by axum inside the bench process (its CPU is not the server's), each
//! about 6 KB of article text with navigation and links to the next pages,
//! all listed in `/sitemap.xml`. `/robots.txt` answers 404 (everything
//! allowed).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header::CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::fmt::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::task::JoinHandle;

/// A running site; stops when dropped.
pub struct CrawlSite {
    pub addr: SocketAddr,
    task: JoinHandle<()>,
}

struct Shape {
    pages: usize,
    base: String,
}

impl CrawlSite {
    pub async fn start(pages: usize) -> anyhow::Result<CrawlSite> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let shape = Arc::new(Shape {
            pages,
            base: format!("http://{addr}"),
        });
        let app = Router::new()
            .route(
                "/",
                get(|State(s): State<Arc<Shape>>| async move { html(page_body(0, s.pages)) }),
            )
            .route("/p/{n}", get(page))
            .route("/sitemap.xml", get(sitemap))
            .with_state(shape);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(CrawlSite { addr, task })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for CrawlSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn html(body: String) -> Response {
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

async fn page(State(shape): State<Arc<Shape>>, Path(n): Path<usize>) -> Response {
    if n >= shape.pages {
        return StatusCode::NOT_FOUND.into_response();
    }
    html(page_body(n, shape.pages))
}

async fn sitemap(State(shape): State<Arc<Shape>>) -> Response {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for n in 0..shape.pages {
        let _ = writeln!(xml, "<url><loc>{}/p/{n}</loc></url>", shape.base);
    }
    xml.push_str("</urlset>\n");
    ([(CONTENT_TYPE, "application/xml")], xml).into_response()
}

/// Page `n`: header navigation, an article of ten paragraphs and a list,
/// links to the next five pages (so a crawl from `/` reaches every page by
/// links alone) and a footer.
fn page_body(n: usize, pages: usize) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Page {n}</title>\
         <meta name=\"description\" content=\"Generated page {n} of the crawl benchmark\"></head><body>\
         <header><nav><a href=\"/\">Home</a> <a href=\"/p/0\">First</a> <a href=\"/about\">About</a></nav></header>\
         <main><article><h1>Page {n}</h1>"
    );
    for p in 0..10 {
        let _ = write!(
            out,
            "<p>Paragraph {p} of page {n}. The quick brown fox jumps over the lazy dog while the \
             crawler measures how many pages per second it can turn into markdown; <b>bold</b>, \
             <i>italic</i> and <a href=\"/p/{}\">inline links</a> keep the converter honest. \
             Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \
             incididunt ut labore et dolore magna aliqua.</p>",
            (n * 7 + p) % pages.max(1)
        );
    }
    out.push_str("<h2>Next pages</h2><ul>");
    for k in 1..=5 {
        let m = n + k;
        if m < pages {
            let _ = write!(out, "<li><a href=\"/p/{m}\">Page {m}</a></li>");
        }
    }
    out.push_str(
        "</ul></article></main><footer><p>Footer text, copyright nobody.</p></footer></body></html>",
    );
    out
}
