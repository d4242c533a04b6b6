//! End-to-end test harness for Distill: every test starts (or shares) the real
//! `distill` binary and talks HTTP to it, scraping a local fixture site.
//!
//! - [`background`]: a thread with its own runtime for each loopback site.
//! - [`server`]: spawn `$DISTILL_BIN` on an ephemeral port, capture its logs.
//! - [`cold_start`]: one server at a time compiles a plugin set into the shared wasm cache.
//! - [`fixture`]: the in-process fixture web site on `127.0.0.1`.
//! - [`client`]: POST to `/v2/scrape`, get `(status, json)`.
//! - [`upload`]: multipart uploads to `/v2/parse`.
//! - [`crawl_site`]: a generated site for crawl / map / batch tests.
//! - [`webhook_receiver`]: records webhook deliveries.
//! - [`forward_proxy`]: an HTTP/SOCKS5 forward proxy that counts and can refuse.
//! - [`redis`]: a throwaway redis-server on a free loopback port.
//! - [`local_llm`]: the real local language model (`make local-llm`) on a free loopback port.
//! - [`fake_llm`]: a scripted chat-completions endpoint on loopback.
//! - [`fault_site`]: targets that break HTTP (cut bodies, endless bodies, gzip bomb,
//!   slowloris, a redirect loop across three loopback addresses) and an endpoint that hangs.
//! - [`keys`]: `distill keys` as the operator runs it; requests with a bearer key.
//!
//! Environment (set by `make test`): `DISTILL_BIN`, `DISTILL_SHIPPED_PLUGINS_DIR`,
//! `DISTILL_TEST_PLUGINS_DIR`, `DISTILL_EXAMPLE_PLUGINS_DIR`; without them the
//! harness looks under `target/`.
//! All traffic stays on 127.0.0.1.

pub mod background;
pub mod client;
pub mod cold_start;
pub mod crawl_site;
pub mod fake_llm;
pub mod fault_site;
pub mod fixture;
pub mod forward_proxy;
pub mod keys;
pub mod local_llm;
pub mod redis;
pub mod sdks;
pub mod server;
pub mod upload;
pub mod webhook_receiver;

pub use client::{Reply, get, post_raw, scrape, scrape_with_headers};
pub use fake_llm::{FakeLlm, Turn};
pub use fixture::{FixtureSite, other_site, read_document, read_fixture, site, unique_token};
pub use local_llm::{LOCAL_LLM_CONTEXT, local_llm, local_llm_installed, local_llm_turn};
pub use server::{
    Plugins, ServerOptions, TestServer, copy_wasm_files, example_plugins_dir, fresh_tmp_dir,
    plugins_dir_with, plugins_dir_without, shared, shipped_plugins_dir, test_plugins_dir,
};
pub use upload::{assert_in_order, parse_fixture, parse_upload};
