//! Serving connections on per-thread runtimes: one accept loop on the main
//! runtime hands each accepted connection, in turn, to one of N threads that
//! each run a single-threaded tokio runtime. A connection's requests, their
//! handlers, pipelines and whatever they spawn stay on that thread, so a
//! request wakes no other worker (on the shared multi-thread runtime a task
//! woken while the other worker is busy wakes a parked one). Start-up and
//! background work (job queues and the jobs they drive, flushers, signals)
//! stay on the main runtime; a browser a scrape launches runs its tasks on
//! that scrape's thread. Graceful shutdown as `axum::serve` does it: the
//! listener closes, open connections finish their request in flight and
//! close; the threads keep driving their tasks until [`Lanes`] is dropped,
//! after the rest of the shutdown (interact sessions, the browser).

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinSet;

/// The serving threads after their connections ended. Each keeps running
/// its runtime, so the tasks its handlers spawned (a browser's DevTools
/// connection, an interact session) still make progress while the server
/// shuts down around them; dropping this lets the threads end and drops
/// those tasks.
pub struct Lanes {
    _exit: watch::Sender<bool>,
}

/// Serves `router` on `listener` with `threads` (at least 1) serving threads
/// until `shutdown` completes, then waits for open connections to finish.
/// Hold the returned [`Lanes`] until the rest of the shutdown is done.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    threads: usize,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<Lanes> {
    crate::lane::register(tokio::runtime::Handle::current());
    let (stop, stopping) = watch::channel(false);
    let (exit, exiting) = watch::channel(false);
    let mut lanes = Vec::with_capacity(threads.max(1));
    let mut finished = Vec::with_capacity(threads.max(1));
    for index in 0..threads.max(1) {
        let (tx, rx) = mpsc::unbounded_channel();
        let (done, done_rx) = oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        crate::lane::register(runtime.handle().clone());
        let (router, stopping) = (router.clone(), stopping.clone());
        let mut exiting = exiting.clone();
        std::thread::Builder::new()
            .name(format!("distill-serve-{index}"))
            .spawn(move || {
                crate::lane::enter(index);
                runtime.block_on(async {
                    lane(rx, router, stopping).await;
                    let _ = done.send(());
                    // A current-thread runtime runs its tasks only inside
                    // `block_on`: keep driving them until `Lanes` is dropped.
                    let _ = exiting.wait_for(|e| *e).await;
                });
                // Tasks the handlers spawned end with the runtime; what a
                // request left to free after its response goes now.
                drop(runtime);
                crate::later::drop_now();
            })?;
        lanes.push(tx);
        finished.push(done_rx);
    }
    let mut shutdown = std::pin::pin!(shutdown);
    let mut next = 0;
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Taken off the main runtime's driver: the lane registers it with its
        // own, or every read would wake a main worker to wake the lane.
        let stream = match stream.into_std() {
            Ok(stream) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "handing a connection over failed");
                continue;
            }
        };
        // A lane only closes after the senders are dropped below.
        let _ = lanes[next].send(stream);
        next = (next + 1) % lanes.len();
    }
    drop(listener);
    stop.send_replace(true);
    drop(lanes);
    for done in finished {
        let _ = done.await;
    }
    Ok(Lanes { _exit: exit })
}

/// One serving thread: serves each connection it is handed until the accept
/// loop stops, then waits for its connections to finish.
async fn lane(
    mut streams: mpsc::UnboundedReceiver<std::net::TcpStream>,
    router: Router,
    stopping: watch::Receiver<bool>,
) {
    let mut connections = JoinSet::new();
    while let Some(stream) = streams.recv().await {
        let stream = match TcpStream::from_std(stream) {
            Ok(stream) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "registering a connection failed");
                continue;
            }
        };
        connections.spawn(connection(stream, router.clone(), stopping.clone()));
        while connections.try_join_next().is_some() {}
    }
    while connections.join_next().await.is_some() {}
}

/// One connection (HTTP/1.1, or HTTP/2 when the client speaks it), shut down
/// gracefully once `stopping` turns true.
async fn connection(stream: TcpStream, router: Router, mut stopping: watch::Receiver<bool>) {
    let service = TowerToHyperService::new(router);
    let builder = Builder::new(TokioExecutor::new());
    let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    let mut told = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::trace!(error = %e, "connection ended with an error");
                }
                return;
            }
            _ = stopping.wait_for(|s| *s), if !told => {
                told = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// An accept error: the peer's own (reset, aborted) is skipped; anything else
/// (out of file descriptors) is logged and the loop pauses a second.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(e.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        return;
    }
    tracing::error!(error = %e, "accepting a connection failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

#[cfg(test)]
#[path = "serving_tests.rs"]
mod tests;
