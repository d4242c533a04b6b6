//! The static site the scrapes fetch: one HTML page served by a tiny axum
//! server on `127.0.0.1:0`, inside the bench process (so its CPU is not
//! counted against the Distill server).

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use bytes::Bytes;
use std::net::SocketAddr;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The path the page is served at.
pub const PAGE_PATH: &str = "/article.html";

/// A running static site; stops when dropped.
pub struct Site {
    pub addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl Site {
    /// Serves `body` as `text/html; charset=utf-8` at [`PAGE_PATH`].
    pub async fn start(body: Bytes) -> anyhow::Result<Site> {
        let app = Router::new().route(
            PAGE_PATH,
            get(move || {
                let body = body.clone();
                async move { ([(CONTENT_TYPE, "text/html; charset=utf-8")], body) }
            }),
        );
        Site::serve(app).await
    }

    /// Serves each `(path, body)` as `text/html; charset=utf-8` (paths start
    /// with `/`); anything else is a 404 (so `robots.txt` allows everything).
    pub async fn start_pages(pages: Vec<(String, Bytes)>) -> anyhow::Result<Site> {
        let mut app = Router::new();
        for (path, body) in pages {
            app = app.route(
                &path,
                get(move || {
                    let body = body.clone();
                    async move { ([(CONTENT_TYPE, "text/html; charset=utf-8")], body) }
                }),
            );
        }
        Site::serve(app).await
    }

    async fn serve(app: Router) -> anyhow::Result<Site> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async {
                let _ = rx.await;
            });
            if let Err(e) = serve.await {
                eprintln!("static site stopped: {e}");
            }
        });
        Ok(Site {
            addr,
            shutdown: Some(tx),
            task: Some(task),
        })
    }

    pub fn page_url(&self) -> String {
        format!("http://{}{PAGE_PATH}", self.addr)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}
