//! The OpenAPI 3.1 document served at `/openapi.json`. Request schemas are not
//! written by hand: they are recorded by walking the validators in describe
//! mode ([`super::validate::Checker::describing`]), so the document states the
//! names, types, bounds, allowed values and defaults the server enforces —
//! including the formats and parser types of the plugins loaded right now.

use super::parse_request::{DEFAULT_PARSE_TIMEOUT_MS, MAX_UPLOAD_BYTES};
use super::scrape_request::{Catalog, ScrapeRequest, options_schema};
use serde_json::{Value, json};

/// Status codes every `/v2` operation may answer with an error body.
const ERROR_STATUSES: &[(&str, &str)] = &[
    ("400", "Invalid request (details lists every problem, zod-style)"),
    ("401", "Missing or invalid API key (when keys are configured)"),
    ("402", "Credits exhausted"),
    ("404", "No cached data (minAge, lockdown)"),
    ("408", "Timed out"),
    ("429", "Rate or concurrency limit reached"),
    ("500", "Failure while fetching or rendering"),
];

/// The whole document for the loaded plugins (`catalog`).
pub fn document(catalog: &dyn Catalog) -> Value {
    let mut parse_options = options_schema(catalog);
    parse_options["properties"]["timeout"]["default"] = json!(DEFAULT_PARSE_TIMEOUT_MS);
    parse_options["description"] = json!(
        "Scrape options as JSON. Uploads refuse actions, the screenshot, branding and changeTracking \
         formats, waitFor, location, mobile and proxies other than auto/basic \
         (400 PARSE_UNSUPPORTED_OPTIONS)."
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Distill",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Web content extraction speaking the Firecrawl v2 API.",
        },
        "paths": {
            "/v2/scrape": {"post": operation(
                "scrape",
                "Scrape one URL into the requested formats",
                json!({"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ScrapeRequest"}}}}),
            )},
            "/v2/parse": {"post": operation(
                "parse",
                "Convert an uploaded file (HTML or a document a converter handles)",
                json!({"required": true, "content": {"multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {
                            "file": {"type": "string", "contentMediaType": "application/octet-stream",
                                     "description": format!("At most {MAX_UPLOAD_BYTES} bytes")},
                            "options": {"$ref": "#/components/schemas/ParseOptions"},
                        },
                    },
                    "encoding": {"options": {"contentType": "application/json"}},
                }}}),
            )},
            "/v2/media/{id}": {"get": {
                "operationId": "media",
                "summary": "A stored screenshot or PDF (ids are unguessable; files expire)",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "The file", "content": {"image/png": {}, "image/jpeg": {}, "application/pdf": {}}},
                    "404": error_response("Unknown or expired id"),
                },
            }},
            "/health": {"get": plain_get("health", "Liveness and loaded plugins", "application/json")},
            "/metrics": {"get": plain_get("metrics", "Prometheus metrics", "text/plain")},
            "/openapi.json": {"get": plain_get("openapi", "This document", "application/json")},
        },
        "components": {"schemas": {
            "ScrapeRequest": ScrapeRequest::schema(catalog),
            "ParseOptions": parse_options,
            "ScrapeResponse": {
                "type": "object",
                "required": ["success", "data"],
                "properties": {
                    "success": {"const": true},
                    "data": {"type": "object", "description": "The requested formats, metadata, warning, actions"},
                },
            },
            "Error": {
                "type": "object",
                "required": ["success", "code", "error"],
                "properties": {
                    "success": {"const": false},
                    "code": {"type": "string"},
                    "error": {"type": "string"},
                    "details": {},
                },
            },
        }},
    })
}

/// A `/v2` operation answering a [`ScrapeResponse`] or an error body.
fn operation(id: &str, summary: &str, request_body: Value) -> Value {
    let mut responses = serde_json::Map::new();
    responses.insert(
        "200".into(),
        json!({"description": "Success", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ScrapeResponse"}}}}),
    );
    for (status, why) in ERROR_STATUSES {
        responses.insert((*status).into(), error_response(why));
    }
    json!({"operationId": id, "summary": summary, "requestBody": request_body, "responses": responses})
}

fn error_response(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
}

fn plain_get(id: &str, summary: &str, media_type: &str) -> Value {
    json!({"operationId": id, "summary": summary, "responses": {"200": {"description": "OK", "content": {media_type: {}}}}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_plugins(_: &str) -> bool {
        false
    }

    #[test]
    fn scrape_schema_states_what_the_validator_enforces() {
        let schema = ScrapeRequest::schema(&no_plugins);
        let props = &schema["properties"];
        assert_eq!(schema["required"], json!(["url"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(
            props["timeout"],
            json!({"type": "integer", "minimum": 1000, "maximum": 300000, "default": 60000})
        );
        assert_eq!(props["onlyMainContent"]["default"], json!(true));
        assert_eq!(
            props["proxy"]["enum"],
            json!(["basic", "enhanced", "auto", "stealth"])
        );
        assert_eq!(
            props["location"]["properties"]["country"]["type"],
            json!("string")
        );
        assert_eq!(props["profile"]["required"], json!(["name"]));
        assert_eq!(
            props["auditMetadata"]["properties"]["username"]["maxLength"],
            json!(1024)
        );
        assert_eq!(props["actions"]["maxItems"], json!(50));
        let click = props["actions"]["items"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["properties"]["type"]["const"] == "click")
            .expect("a click variant");
        assert_eq!(click["required"], json!(["type", "selector"]));
        let screenshot = props["formats"]["items"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["properties"]["type"]["const"] == "screenshot")
            .expect("a screenshot variant");
        assert_eq!(screenshot["properties"]["quality"]["maximum"], json!(100));
        assert_eq!(screenshot["additionalProperties"], json!(false));
    }

    #[test]
    fn every_described_default_is_accepted_by_the_validator() {
        let schema = ScrapeRequest::schema(&no_plugins);
        for (key, prop) in schema["properties"].as_object().unwrap() {
            let Some(default) = prop.get("default") else {
                continue;
            };
            let body = json!({"url": "https://example.com", key: default});
            assert!(
                ScrapeRequest::from_json(&body, &no_plugins).is_ok(),
                "default of {key} ({default}) is refused"
            );
        }
    }

    #[test]
    fn document_lists_the_routes() {
        let doc = document(&no_plugins);
        assert_eq!(doc["openapi"], "3.1.0");
        for path in ["/v2/scrape", "/v2/parse", "/v2/media/{id}", "/health", "/metrics"] {
            assert!(doc["paths"].get(path).is_some(), "{path} missing");
        }
        assert_eq!(
            doc["components"]["schemas"]["ParseOptions"]["properties"]["timeout"]["default"],
            json!(30000)
        );
    }
}
