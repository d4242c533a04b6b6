//! Distill: a self-hostable web content extraction server that speaks the
//! Firecrawl v2 HTTP API. See `ARCHITECTURE.md` at the repository root for the
//! map of the code.
//!
//! - [`config`]: flags, environment and TOML configuration.
//! - [`api`]: request validation, typed requests, error bodies.
//! - [`fetch`]: fetch engines and target safety; [`proxy`]: the operator's proxy pools;
//!   [`gunzip`]: inflating a gzip body under a limit (fetch and cache share it).
//! - [`llm`]: the OpenAI-compatible client behind the plugins' `llm` capability.
//! - [`media_capability`]: the plugins' `media` capability (fetch, ffmpeg, signed links).
//! - [`ocr`]: local OCR (pdftoppm + tesseract) for PDF pages without text.
//! - [`services`]: what the pipeline works with (plugins, engines, OCR), built from config.
//! - [`pipeline`]: fetch → clean → plugins → response, with its own error type.
//! - [`plugins`]: the WebAssembly plugin runtime.
//! - [`telemetry`]: Prometheus metrics (names, recording, the process-wide recorder).
//! - [`timestamp`]: UTC timestamps as text.
//! - [`redis_conn`]: the Redis connection every Redis backend opens.
//! - [`reopen_db`]: a redb file reopened after an I/O error (cache and job queue).
//! - [`limits`]: API keys, rate limits, credits, concurrency slots; [`audit`]: the audit log;
//!   [`keys_cli`]: `distill keys`.
//! - [`server`]: the axum router, handlers, error mapping and request logging.
//! - [`serving`]: connections served on per-thread runtimes; [`lane`]: which one a thread is.

pub mod api;
pub mod audit;
pub mod cache;
pub mod config;
pub mod crawl;
pub mod extract;
pub mod fetch;
pub mod gunzip;
pub mod heap_trim;
pub mod jobs;
pub mod keys_cli;
pub mod lane;
pub mod large_alloc;
pub mod later;
pub mod limits;
pub mod llm;
pub mod media;
pub mod media_capability;
pub mod ocr;
pub mod parent_death;
pub mod pipeline;
pub mod plugins;
pub mod proxy;
pub mod redis_conn;
pub mod reopen_db;
pub mod scratch;
pub mod server;
pub mod services;
pub mod serving;
pub mod small_alloc;
pub mod telemetry;
#[cfg(test)]
pub mod test_corpus;
#[cfg(test)]
pub mod test_dir;
#[cfg(test)]
pub mod test_redis;
pub mod timestamp;

use std::net::SocketAddr;

/// Starts the server on `config`'s address and runs until Ctrl-C or SIGTERM.
/// Prints `distill listening on http://ADDR` on stdout once the port is bound
/// (tests and scripts wait for that line).
pub async fn serve(config: config::Config) -> anyhow::Result<()> {
    let addr = SocketAddr::new(config.host, config.port);
    refuse_open_anonymous(&config)?;
    let state = server::AppState::new(config).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    state.services.media.bound_to(local);
    tracing::info!(address = %local, plugins = state.services.plugins.registry().plugins().len(), "distill listening");
    println!("distill listening on http://{local}");
    let state_for_shutdown = state.services.clone();
    let interact = state.interact.clone();
    let threads = state.config.serving_threads;
    // Held until the shutdown below is done: tasks the serving threads'
    // handlers spawned (a browser launched by a scrape) keep running.
    let _lanes = if threads == 0 {
        axum::serve(listener, server::router(state))
            .with_graceful_shutdown(shutdown_signal())
            .await?;
        None
    } else {
        Some(serving::serve(listener, server::router(state), threads, shutdown_signal()).await?)
    };
    // Sessions first: their profiles are saved before Chromium goes.
    interact.shutdown().await;
    state_for_shutdown.browser.shutdown().await;
    if let Some(cache) = &state_for_shutdown.cache
        && let Err(e) = cache.store().close().await
    {
        tracing::warn!(error = %e, "cache: closing the store failed");
    }
    tracing::info!("distill stopped");
    Ok(())
}

/// A server reachable beyond this machine must have keys, unless the
/// operator says otherwise (`--allow-anonymous`).
fn refuse_open_anonymous(config: &config::Config) -> anyhow::Result<()> {
    if config.host.is_loopback() || config.allow_anonymous {
        return Ok(());
    }
    let keys = limits::keys::KeyStore::open(&config.limits.keys_file)?;
    let active = keys.current().keys.iter().any(|k| !k.revoked);
    anyhow::ensure!(
        active,
        "refusing to listen on {} without API keys: create one with `distill keys create --name NAME` \
         (same --data-dir), or pass --allow-anonymous to serve without authentication",
        config.host
    );
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("installing the SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
