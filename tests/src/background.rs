//! The loopback sites tests serve run on a thread of their own with their own
//! Tokio runtime, so a site keeps answering whatever the test's runtime does
//! (each `#[tokio::test]` has one that ends with the test).

use axum::Router;
use std::future::Future;

/// Runs `task()` to its end on a new thread named `name` with a runtime of its own.
pub fn spawn_on_own_runtime<F, Fut>(name: &str, task: F)
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = ()>,
{
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime for a test site");
            rt.block_on(task());
        })
        .expect("a thread for a test site");
}

/// Serves `app` on the bound `listener` from a thread named `name`.
pub fn serve_router(name: &str, listener: std::net::TcpListener, app: Router) {
    listener.set_nonblocking(true).expect("a non-blocking listener");
    spawn_on_own_runtime(name, move || async move {
        let listener = tokio::net::TcpListener::from_std(listener).expect("a Tokio listener");
        axum::serve(listener, app).await.expect("serving a test site");
    });
}
