//! `/mcp`: a Model Context Protocol server over streamable HTTP, so agents
//! can call Distill as tools. Each tool runs the same code as its HTTP route
//! (validation, pipeline, error mapping; `map`, `crawl` and `crawl_status` call
//! the route handlers themselves); `scrape` and `parse` take the schema
//! recorded from their route's validators. A failure comes back as a tool
//! error carrying the route's JSON error body.

use super::access_log::RequestId;
use super::auth::Caller;
use super::parse_route::parse_upload;
use super::state::AppState;
use super::{jobs_route, map_route, scrape_route};
use crate::api::ApiError;
use crate::api::openapi;
use crate::api::parse_request::UploadKind;
use crate::jobs::JobKind;
use crate::pipeline::parse::Upload;
use axum::body::Bytes;
use axum::extract::{Extension, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Value, json};
use std::sync::Arc;

/// The MCP service mounted at `/mcp`.
pub fn service(state: AppState) -> StreamableHttpService<DistillTools, LocalSessionManager> {
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    if !state.config.host.is_loopback() {
        // Host checks guard a loopback server against DNS rebinding; a server
        // bound to a public address is reached by names we cannot know.
        config = match state.config.public_url.as_deref().and_then(public_host) {
            Some(host) => config.with_allowed_hosts([host]),
            None => config.disable_allowed_hosts(),
        };
    }
    StreamableHttpService::new(
        move || Ok(DistillTools { state: state.clone() }),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

fn public_host(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_string)
}

/// The tools: `scrape` and `parse`.
#[derive(Clone)]
pub struct DistillTools {
    state: AppState,
}

impl DistillTools {
    fn tools(&self) -> Vec<Tool> {
        let registry = self.state.services.plugins.registry();
        let doc = openapi::document(registry.as_ref());
        let schemas = &doc["components"]["schemas"];
        let parse_input = json!({
            "type": "object",
            "required": ["filename", "content"],
            "additionalProperties": false,
            "properties": {
                "filename": {"type": "string", "description": "The file's name; its extension picks the converter"},
                "content": {"type": "string", "contentEncoding": "base64", "description": "The file's bytes, base64"},
                "contentType": {"type": "string"},
                "options": schemas["ParseOptions"],
            },
        });
        vec![
            tool(
                "scrape",
                "Scrape one URL into clean markdown (and html, links, images, metadata or any other \
                 format); the arguments are the body of POST /v2/scrape.",
                schemas["ScrapeRequest"].clone(),
            ),
            tool(
                "map",
                "List the URLs of a site (sitemaps and links); the arguments are the body of POST /v2/map.",
                url_body("The site to map"),
            ),
            tool(
                "crawl",
                "Start crawling a site (every page scraped with scrapeOptions); the arguments are the body \
                 of POST /v2/crawl. Answers the crawl id; poll it with crawl_status.",
                url_body("Where the crawl starts"),
            ),
            tool(
                "crawl_status",
                "Status and scraped pages of a crawl started with the crawl tool (GET /v2/crawl/{id}).",
                json!({"type": "object", "required": ["id"], "additionalProperties": false,
                       "properties": {"id": {"type": "string"}}}),
            ),
            tool(
                "parse",
                "Convert a file (PDF, Office, OpenDocument, EPUB, RTF, CSV, HTML) to markdown; the \
                 options are those of POST /v2/parse.",
                parse_input,
            ),
        ]
    }

    /// Runs a tool as `caller` (the key the `/mcp` request was made with):
    /// `Ok` is the data (or the route's whole success body), `Err` the
    /// route's error body. `scrape` and `parse` are metered, billed and
    /// audited as their routes.
    async fn call(&self, name: &str, args: Value, caller: Option<Caller>) -> Result<Value, Value> {
        let id = uuid::Uuid::now_v7().to_string();
        tracing::info!(request = %id, tool = name, "mcp tool call");
        let state = self.state.clone();
        let body = || Ok(Bytes::from(args.to_string()));
        match name {
            "scrape" => {
                let response = scrape_route::scrape(
                    State(state),
                    Extension(RequestId(id)),
                    caller.map(Extension),
                    HeaderMap::new(),
                    body(),
                )
                .await;
                data(route_body(response).await)
            }
            "parse" => match parse_args(&args) {
                Ok((upload, options)) => {
                    data(route_body(parse_upload(&state, caller, id, upload, options.as_deref()).await).await)
                }
                Err(e) => Err(e.body()),
            },
            "map" => route_body(map_route::map(State(state), body()).await).await,
            "crawl" => {
                let started =
                    jobs_route::start_crawl(State(state), caller.map(Extension), HeaderMap::new(), body());
                route_body(started.await).await
            }
            "crawl_status" => {
                let crawl_id = args
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let response = jobs_route::status_page(
                    state,
                    HeaderMap::new(),
                    crawl_id,
                    Ok(Query(jobs_route::Paging::default())),
                    JobKind::Crawl,
                    caller.as_ref(),
                )
                .await;
                route_body(response).await
            }
            other => Err(ApiError::bad_request(format!("Unknown tool '{other}'")).body()),
        }
    }
}

/// A scrape route's success body's `data`.
fn data(result: Result<Value, Value>) -> Result<Value, Value> {
    result.map(|mut body| body["data"].take())
}

/// A route's response as JSON: its body, `Err` for a failure status.
async fn route_body(response: Response) -> Result<Value, Value> {
    let ok = response.status().is_success();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap_or_default();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if ok { Ok(body) } else { Err(body) }
}

/// The input schema of a tool taking a route's JSON body with a `url`.
fn url_body(url: &str) -> Value {
    json!({"type": "object", "required": ["url"],
           "properties": {"url": {"type": "string", "format": "uri", "description": url}}})
}

fn tool(name: &'static str, description: &'static str, schema: Value) -> Tool {
    let schema: JsonObject = match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    Tool::new(name, description, schema)
}

/// The `parse` tool's arguments as an upload and its options (JSON text).
fn parse_args(args: &Value) -> Result<(Upload, Option<String>), ApiError> {
    let allowed = ["filename", "content", "contentType", "options"];
    if let Some(unknown) = args
        .as_object()
        .and_then(|m| m.keys().find(|k| !allowed.contains(&k.as_str())))
    {
        return Err(ApiError::bad_request(format!(
            "Unrecognized argument '{unknown}'"
        )));
    }
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let name = text("filename").ok_or_else(|| ApiError::bad_request("'filename' (a string) is required"))?;
    let content = text("content").ok_or_else(|| ApiError::bad_request("'content' (base64) is required"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(content.trim())
        .map_err(|e| ApiError::bad_request(format!("'content' is not valid base64: {e}")))?;
    if bytes.len() > crate::api::parse_request::MAX_UPLOAD_BYTES {
        return Err(crate::api::parse_request::too_large());
    }
    let options = match args.get("options") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.to_string()),
    };
    let upload = Upload {
        name: name.to_string(),
        content_type: text("contentType").map(str::to_string),
        bytes,
        kind: UploadKind::Html,
    };
    Ok((upload, options))
}

impl ServerHandler for DistillTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("distill", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Distill turns web pages and documents into clean markdown and structured data \
                 (a Firecrawl v2 compatible server). Use `scrape` for URLs and `parse` for files.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.get_tool(&request.name).is_none() {
            return Err(ErrorData::invalid_params(
                format!("unknown tool '{}'", request.name),
                None,
            ));
        }
        let args = Value::Object(request.arguments.unwrap_or_default());
        // The `/v2` gate admitted the `/mcp` request and left its key there.
        let caller = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>().cloned());
        let result = match self.call(&request.name, args, caller).await {
            Ok(data) => {
                let structured = if data.get("success").is_some() {
                    data.clone()
                } else {
                    json!({"success": true, "data": data})
                };
                let mut result = CallToolResult::success(vec![ContentBlock::text(summary_text(&data))]);
                result.structured_content = Some(structured);
                result
            }
            Err(body) => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(body.to_string())]);
                result.structured_content = Some(body);
                result
            }
        };
        Ok(result.into())
    }
}

/// What a model reads: the markdown alone when that is the only output asked
/// for, else the data as JSON (`structuredContent` always has all of it).
fn summary_text(data: &Value) -> String {
    let outputs: Vec<&String> = data
        .as_object()
        .map(|m| {
            m.keys()
                .filter(|k| !matches!(k.as_str(), "metadata" | "warning"))
                .collect()
        })
        .unwrap_or_default();
    match (outputs.as_slice(), data.get("markdown").and_then(Value::as_str)) {
        ([only], Some(markdown)) if only.as_str() == "markdown" => markdown.to_string(),
        _ => data.to_string(),
    }
}
