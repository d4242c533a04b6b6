//! The MCP route's tool calls are metered and billed like the routes they stand for.

use super::*;

/// One JSON-RPC message to `/mcp` as `key` (streamable HTTP, JSON answers).
async fn mcp_post(server: &str, key: &str, session: Option<&str>, message: Value) -> (Option<String>, Value) {
    let mut req = distill_e2e::client::http()
        .post(format!("{server}/mcp"))
        .header("authorization", format!("Bearer {key}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(message.to_string());
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    let resp = req.send().await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let session = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let text = resp.text().await.unwrap();
    (session, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn mcp_tool_calls_are_metered_and_billed_like_their_routes() {
    let keys = keys_file();
    let server = server_with_keys(&keys, &[]);
    let key = create_key(&keys, "mcp", &["--credits", "6"]);
    let s = server.url();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "distill-e2e", "version": "0"}}});
    let (session, hello) = mcp_post(s, &key, None, init).await;
    assert!(hello["result"]["serverInfo"].is_object(), "{hello}");
    // Stateless servers answer without a session id.
    mcp_post(
        s,
        &key,
        session.as_deref(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let mut next_id = 1;
    let mut call = |name: &str, args: Value| {
        next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": next_id, "method": "tools/call",
                             "params": {"name": name, "arguments": args}});
        let (s, key, session) = (s.to_string(), key.clone(), session.clone());
        async move { mcp_post(&s, &key, session.as_deref(), message).await.1["result"].clone() }
    };
    let credits = |result: &Value| result["structuredContent"]["data"]["metadata"]["creditsUsed"].clone();
    let scraped = call("scrape", page()).await;
    assert_eq!(
        (&scraped["isError"], credits(&scraped)),
        (&json!(false), json!(1)),
        "{scraped}"
    );
    let pdf = call(
        "scrape",
        json!({"url": site().url("/documents/report.pdf"), "maxAge": 0}),
    )
    .await;
    assert_eq!(credits(&pdf), json!(3), "1 per PDF page, as the route: {pdf}");
    let csv = base64_of(&distill_e2e::read_document("sample.csv"));
    let parsed = call("parse", json!({"filename": "sample.csv", "content": csv})).await;
    assert_eq!(credits(&parsed), json!(1), "{parsed}");
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 5);
    assert_eq!(credits(&call("scrape", page()).await), json!(1));
    // No credit left: the tool answers the route's 402 body as a tool error.
    let broke = call("scrape", page()).await;
    assert_eq!(broke["isError"], true, "{broke}");
    assert_eq!(
        broke["structuredContent"]["code"], "INSUFFICIENT_CREDITS",
        "{broke}"
    );
    assert_eq!(usage_of(s, &key).await["creditsUsed"], 6);
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
