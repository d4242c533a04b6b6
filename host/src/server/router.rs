//! Every route of the server in one place, the shared middleware, and JSON
//! answers for unknown routes and methods. Handlers live in their own modules.

use super::state::AppState;
use super::{
    access_log, admin, auth, extract_route, health, interact_route, job_watch, jobs_route, keys_admin,
    map_route, mcp, media_route, ops_routes, parse_route, scrape_route, team_route, unsupported,
};
use crate::api::ApiError;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};

/// Crawl, batch scrape, map (docs/CRAWL.md) and extract (docs/API.md); the
/// crawl and batch status routes are also the SDKs' watcher WebSocket (`job_watch`).
fn job_routes() -> Router<AppState> {
    Router::new()
        .route("/v2/crawl", post(jobs_route::start_crawl))
        .route("/v2/crawl/active", get(jobs_route::active))
        .route("/v2/crawl/ongoing", get(jobs_route::active))
        .route("/v2/crawl/params-preview", post(map_route::params_preview))
        .route(
            "/v2/crawl/{id}",
            get(job_watch::crawl_status).delete(jobs_route::crawl_cancel),
        )
        .route("/v2/crawl/{id}/errors", get(jobs_route::crawl_errors))
        .route("/v2/batch/scrape", post(jobs_route::start_batch))
        .route(
            "/v2/batch/scrape/{id}",
            get(job_watch::batch_status).delete(jobs_route::batch_cancel),
        )
        .route("/v2/batch/scrape/{id}/errors", get(jobs_route::batch_errors))
        .route("/v2/map", post(map_route::map))
        .route("/v2/extract", post(extract_route::start))
        .route("/v2/extract/{id}", get(extract_route::status))
}

/// The SDKs' account calls besides credit usage, and the parse formats.
fn team_routes() -> Router<AppState> {
    Router::new()
        .route("/v2/concurrency-check", get(team_route::concurrency_check))
        .route("/v2/team/queue-status", get(team_route::queue_status))
        .route("/v2/team/token-usage", get(team_route::token_usage))
        .route(
            "/v2/team/credit-usage/historical",
            get(team_route::credit_usage_historical),
        )
        .route(
            "/v2/team/token-usage/historical",
            get(team_route::token_usage_historical),
        )
        .route("/v2/parse/formats", get(team_route::parse_formats))
}

/// JSON bodies up to 10 MB, as upstream accepts.
pub const MAX_JSON_BODY: usize = 10 * 1024 * 1024;

/// The application's router.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(health::root))
        .route("/health", get(health::health))
        .route("/v2/scrape", post(scrape_route::scrape))
        .route(
            "/v2/parse",
            post(parse_route::parse).layer(DefaultBodyLimit::max(parse_route::MAX_FORM_BYTES)),
        )
        .route(
            "/v2/scrape/{id}/interact",
            post(interact_route::interact).delete(interact_route::stop),
        )
        .route("/v2/media/{id}", get(media_route::media))
        .route("/metrics", get(ops_routes::metrics))
        .route("/openapi.json", get(ops_routes::openapi_document))
        .nest_service("/mcp", mcp::service(state.clone()))
        .route("/v2/media/signed/{file}", get(media_route::signed_media))
        .merge(job_routes())
        .route("/admin/plugins", get(admin::list_plugins))
        .route("/admin/plugins/reload", post(admin::reload_plugins))
        .route("/admin/llm", get(admin::llm_usage))
        .route(
            "/admin/keys",
            get(keys_admin::list_keys).post(keys_admin::create_key),
        )
        .route("/admin/keys/{id}", delete(keys_admin::revoke_key))
        .route("/v2/team/credit-usage", get(keys_admin::credit_usage))
        .merge(team_routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_JSON_BODY))
        // Router-wide: every /v2 route (present and future) is behind it.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::authorize,
        ))
        .layer(axum::middleware::from_fn(access_log::log_request))
        .with_state(state)
}

async fn not_found(method: Method, uri: Uri) -> Response {
    if let Some(r) = unsupported::response(uri.path()) {
        return r;
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!("No route for {method} {}", uri.path()),
    )
    .into_response()
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        format!("{method} is not allowed on {}", uri.path()),
    )
    .into_response()
}
