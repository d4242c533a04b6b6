//! Distill: a self-hostable web content extraction server that speaks the
//! Firecrawl v2 HTTP API. See `ARCHITECTURE.md` at the repository root for the
//! map of the code.
//!
//! - [`config`]: flags, environment and TOML configuration.
//! - [`api`]: request validation, typed requests, error bodies.
//! - [`fetch`]: fetch engines and target safety.
//! - [`llm`]: the OpenAI-compatible client behind the plugins' `llm` capability.
//! - [`ocr`]: local OCR (pdftoppm + tesseract) for PDF pages without text.
//! - [`services`]: what the pipeline works with (plugins, engines, OCR), built from config.
//! - [`pipeline`]: fetch → clean → plugins → response, with its own error type.
//! - [`plugins`]: the WebAssembly plugin runtime.
//! - [`timestamp`]: UTC timestamps as text.
//! - [`server`]: the axum router, handlers, error mapping and request logging.

pub mod api;
pub mod cache;
pub mod config;
pub mod crawl;
pub mod fetch;
pub mod jobs;
pub mod llm;
pub mod media;
pub mod ocr;
pub mod pipeline;
pub mod plugins;
pub mod server;
pub mod services;
pub mod timestamp;

use std::net::SocketAddr;

/// Starts the server on `config`'s address and runs until Ctrl-C or SIGTERM.
/// Prints `distill listening on http://ADDR` on stdout once the port is bound
/// (tests and scripts wait for that line).
pub async fn serve(config: config::Config) -> anyhow::Result<()> {
    let addr = SocketAddr::new(config.host, config.port);
    let state = server::AppState::new(config).await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    state.services.media.bound_to(local);
    tracing::info!(address = %local, plugins = state.services.plugins.registry().plugins().len(), "distill listening");
    println!("distill listening on http://{local}");
    let state_for_shutdown = state.services.clone();
    axum::serve(listener, server::router(state))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    state_for_shutdown.browser.shutdown().await;
    tracing::info!("distill stopped");
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
