//! `GET /` (what this server is) and `GET /health` (status and loaded plugins).

use super::state::AppState;
use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

pub async fn root() -> Json<Value> {
    Json(json!({ "name": "distill", "version": env!("CARGO_PKG_VERSION"), "api": "/v2" }))
}

pub async fn health(State(state): State<AppState>) -> Json<Value> {
    let registry = state.services.plugins.registry();
    let plugins: Vec<Value> = registry
        .plugins()
        .iter()
        .map(|p| json!({ "name": p.manifest.name, "version": p.manifest.version, "kind": p.kind }))
        .collect();
    Json(json!({ "status": "ok", "plugins": plugins }))
}
