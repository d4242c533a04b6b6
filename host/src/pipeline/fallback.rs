//! A live fetch with the engine chosen for the request, and the browser
//! fallback: an HTML page the HTTP engine fetched that looks script-rendered
//! ([`crate::fetch::script_rendered`]) is fetched again with the browser
//! engine, and that result is the page (stored, rendered, billed as one
//! scrape). Off with `DISTILL_BROWSER_FALLBACK=false`. When the browser cannot
//! render it (none installed, a failure, too little time left) the HTTP
//! result stands, with a warning saying so.
//!
//! Every fetched page records the engine that served it
//! ([`ENGINE_USED`]) and, after a fallback, why ([`ENGINE_FALLBACK`]).

use crate::api::ScrapeRequest;
use crate::fetch::engine::{Engine, FetchRequest};
use crate::fetch::script_rendered::{self, Signal};
use crate::fetch::{ENGINE_FALLBACK, ENGINE_USED, ENGINE_WARNING, FetchError, FetchedPage};
use crate::services::Services;
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Time kept back from the browser for rendering the page it returns.
const RENDER_RESERVE: Duration = Duration::from_secs(1);

/// Fetches `req.url` with `engine`, then with the browser when the result
/// looks script-rendered and the fallback applies.
pub async fn fetch(
    services: &Services,
    engine: &Arc<dyn Engine>,
    req: &ScrapeRequest,
    deadline: Instant,
) -> Result<FetchedPage, FetchError> {
    let page = fetch_with(engine.as_ref(), req, deadline).await?;
    let browser = services.browser_engine.as_ref();
    if !services.browser_fallback || engine.name() == browser.name() {
        return Ok(page);
    }
    let Some(signal) = looks_script_rendered(&page) else {
        return Ok(page);
    };
    if !services.browser.executable_exists() {
        return Ok(warned(
            page,
            signal,
            "no browser is installed on this server (DISTILL_CHROMIUM)",
        ));
    }
    // The browser gets the time left, less a reserve for rendering its page.
    let left = deadline.saturating_duration_since(Instant::now());
    let browser_deadline = deadline
        .checked_sub(RENDER_RESERVE.min(left / 4))
        .unwrap_or(deadline);
    match fetch_with(browser, req, browser_deadline).await {
        Ok(mut rendered) => {
            rendered
                .engine_data
                .insert(ENGINE_FALLBACK.into(), Value::from(signal.name()));
            Ok(rendered)
        }
        Err(e) => Ok(warned(page, signal, &e.to_string())),
    }
}

/// One engine's fetch, counted by telemetry, marked with the engine's name.
async fn fetch_with(
    engine: &dyn Engine,
    req: &ScrapeRequest,
    deadline: Instant,
) -> Result<FetchedPage, FetchError> {
    let fetched = engine
        .fetch(FetchRequest {
            url: &req.url,
            options: &req.options,
            deadline,
        })
        .await;
    crate::telemetry::fetch(engine.name(), if fetched.is_ok() { "ok" } else { "error" });
    fetched.map(|mut page| {
        page.engine_data
            .entry(ENGINE_USED)
            .or_insert_with(|| Value::from(engine.name()));
        page
    })
}

/// The signal when `page` is a successful HTML answer that looks script-rendered.
fn looks_script_rendered(page: &FetchedPage) -> Option<Signal> {
    let html = page
        .content_type
        .as_deref()
        .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
    if !html || !(200..300).contains(&page.status) {
        return None;
    }
    script_rendered::detect_bytes(&page.body)
}

/// The HTTP result, with a warning that the browser could not render it.
fn warned(mut page: FetchedPage, signal: Signal, why: &str) -> FetchedPage {
    let warning = format!(
        "The page looks script-rendered ({}), but the browser engine could not render it: {why}. \
         The content is what the HTTP engine fetched and may be incomplete.",
        signal.name()
    );
    page.engine_data
        .insert(ENGINE_WARNING.into(), Value::from(warning));
    page
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use serde_json::Map;
    use url::Url;

    fn page(status: u16, content_type: Option<&str>, body: &str) -> FetchedPage {
        FetchedPage {
            final_url: Url::parse("http://example.test/").unwrap(),
            status,
            content_type: content_type.map(str::to_string),
            body: Bytes::from(body.to_string()),
            wire_gzip: None,
            engine_data: Map::new(),
        }
    }

    const SHELL: &str = "<html><body><div id=root></div><script src=/app.js></script></body></html>";

    #[test]
    fn only_successful_html_answers_are_checked() {
        let html = Some("text/html; charset=utf-8");
        assert_eq!(
            looks_script_rendered(&page(200, html, SHELL)),
            Some(Signal::EmptyContent)
        );
        assert_eq!(
            looks_script_rendered(&page(200, Some("TEXT/HTML"), SHELL)),
            Some(Signal::EmptyContent)
        );
        assert_eq!(looks_script_rendered(&page(404, html, SHELL)), None);
        assert_eq!(looks_script_rendered(&page(200, Some("text/plain"), SHELL)), None);
        assert_eq!(looks_script_rendered(&page(200, None, SHELL)), None);
    }

    #[test]
    fn a_warning_names_the_signal_and_the_reason() {
        let p = warned(page(200, None, SHELL), Signal::AppShell, "it crashed");
        let w = p.engine_data[ENGINE_WARNING].as_str().unwrap();
        assert!(w.contains("(appShell)") && w.contains("it crashed"), "{w}");
    }
}
