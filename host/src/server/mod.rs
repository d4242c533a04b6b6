//! The HTTP server: state, the router and its middleware, handlers, and the
//! mapping of pipeline failures to HTTP.
//!
//! - [`router`]: every route in one place, middleware, unknown routes/methods.
//! - [`unsupported`]: the 501 for upstream routes Distill does not offer (search, agent, v1, …).
//! - [`state`]: [`AppState`] (configuration + the pipeline's services).
//! - [`scrape_route`]: `POST /v2/scrape`.
//! - [`interact_route`]: `POST`/`DELETE /v2/scrape/{scrapeId}/interact`.
//! - [`parse_route`]: `POST /v2/parse` (multipart upload).
//! - [`jobs_route`]: crawl and batch scrape (start, status, cancel, errors, active).
//! - [`extract_route`]: `POST /v2/extract`, `GET /v2/extract/{id}`.
//! - [`job_watch`], [`ws_upgrade`], [`ws_frame`]: the SDKs' job watcher, a WebSocket on the status routes.
//! - [`map_route`]: `POST /v2/map`, `POST /v2/crawl/params-preview`.
//! - [`health`]: `GET /` and `GET /health`.
//! - [`media_route`]: `GET /v2/media/{id}` (screenshots and PDFs of the browser engine).
//! - [`ops_routes`]: `GET /metrics` (Prometheus) and `GET /openapi.json`.
//! - [`mcp`]: the MCP server at `/mcp` (tools `scrape` and `parse`).
//! - [`admin`]: the operator API (`/admin/plugins`), behind the admin key.
//! - [`respond`]: JSON bodies and isolated request work.
//! - [`error_map`]: pipeline errors → status, code, message.
//! - [`access_log`]: one log line per request with its outcome and time.
//! - [`auth`]: the `/v2` gate (API key, per-minute limits, credits left).
//! - [`billing`]: concurrency slot, credits and their metadata around a scrape or parse.
//! - [`metered`]: one scrape or parse metered, billed and audited (routes and MCP tools).
//! - [`audit_trail`]: the audit record of a scrape or parse.
//! - [`keys_admin`]: `/admin/keys` and `GET /v2/team/credit-usage`.
//! - [`team_route`]: the SDKs' other account calls (concurrency, queue status,
//!   token usage, historical usage) and `GET /v2/parse/formats`.

pub mod access_log;
pub mod admin;
pub mod audit_trail;
pub mod auth;
pub mod billing;
pub mod error_map;
pub mod extract_route;
pub mod health;
pub mod interact_route;
pub mod job_watch;
pub mod jobs_route;
pub mod keys_admin;
pub mod map_route;
pub mod mcp;
pub mod media_route;
pub mod metered;
pub mod ops_routes;
pub mod parse_route;
pub mod respond;
pub mod router;
pub mod scrape_route;
pub mod state;
pub mod team_route;
pub mod unsupported;
pub mod watch_slots;
pub mod ws_frame;
pub mod ws_upgrade;

pub use router::router;
pub use state::AppState;
