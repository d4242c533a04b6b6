//! One `/v2/parse` upload: HTML goes through the web-page path with no
//! network; documents through their converter. Never cached. Bounded by
//! the request's deadline ([`backstop`]).

use super::backstop::{self, Stage, Step};
use super::document::convert;
use super::error::{Origin, PipelineError};
use super::produce::{Content, produce};
use super::scrape::check_formats;
use crate::api::ScrapeOptions;
use crate::api::parse_request::{UploadKind, mime_for_extension};
use crate::plugins::bindings::FileInput;
use crate::services::Services;
use distill_html::PageText;
use serde_json::{Map, Value};
use std::time::{Duration, Instant};
use url::Url;

/// An uploaded file.
pub struct Upload {
    pub name: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
    pub kind: UploadKind,
}

/// The URL an upload is reported under (`metadata.url`) and that relative
/// links in it resolve against. `.invalid` is reserved: it never resolves.
pub fn upload_url(name: &str) -> Url {
    let mut url = Url::parse("https://upload.distill.invalid/uploads/").expect("static URL");
    url.path_segments_mut()
        .expect("http URL")
        .pop_if_empty()
        .push(name);
    url
}

/// Parses `upload` and returns the response's `data` (plugin log lines
/// withheld under zero data retention).
pub async fn parse(
    services: &Services,
    upload: Upload,
    opts: &ScrapeOptions,
    scrape_id: &str,
) -> Result<Value, PipelineError> {
    let deadline = Instant::now() + Duration::from_millis(opts.timeout_ms);
    parse_until(services, upload, opts, scrape_id, deadline).await
}

/// [`parse`] by `deadline` (the route's), ended by the [`backstop`] if some
/// wait outlives it.
pub async fn parse_until(
    services: &Services,
    upload: Upload,
    opts: &ScrapeOptions,
    scrape_id: &str,
    deadline: Instant,
) -> Result<Value, PipelineError> {
    let private = !crate::cache::policy::may_log_url(opts);
    let stage = Stage::default();
    // Boxed, as a scrape's (a pointer moved, not the state machine).
    let work = Box::pin(parse_inner(services, upload, opts, scrape_id, (deadline, &stage)));
    let bounded = backstop::within("parse", deadline, opts.timeout_ms, &stage, work);
    crate::plugins::log_privacy::private(private, bounded).await
}

async fn parse_inner(
    services: &Services,
    upload: Upload,
    opts: &ScrapeOptions,
    scrape_id: &str,
    (deadline, stage): (Instant, &Stage),
) -> Result<Value, PipelineError> {
    let registry = services.plugins.registry();
    check_formats(&registry, opts)?;
    let mut content = Content {
        html: PageText::default(),
        markdown: None,
        requested_url: upload_url(&upload.name).to_string(),
        final_url: upload_url(&upload.name),
        source_url: upload.name.clone(),
        status: 200,
        content_type: upload.content_type.clone(),
        extra_metadata: Map::new(),
        is_document: false,
        engine_inputs: Map::new(),
    };
    if let UploadKind::Document { extension } = &upload.kind {
        // A generic or missing declared type says nothing: report the format's own.
        let generic = content
            .content_type
            .as_deref()
            .is_none_or(|t| t.starts_with("application/octet-stream"));
        if generic && let Some(mime) = mime_for_extension(extension) {
            content.content_type = Some(mime.to_string());
        }
    }
    let mut warnings = Vec::new();
    match &upload.kind {
        UploadKind::Html => {
            content.html = PageText::decode(&upload.bytes, upload.content_type.as_deref());
        }
        UploadKind::Document { extension } => {
            let plugin = registry
                .converter_for_extension(extension)
                .cloned()
                .ok_or_else(|| PipelineError::NoConverter {
                    extension: extension.clone(),
                })?;
            let file = FileInput {
                name: upload.name.clone(),
                content_type: upload.content_type.clone(),
                bytes: upload.bytes,
            };
            stage.at(Step::Converting);
            let converted =
                convert(services, &plugin, file, opts, scrape_id, deadline, Origin::Upload).await?;
            content.html = PageText::from(converted.html);
            content.markdown = converted.markdown;
            content.extra_metadata = converted.metadata;
            content.is_document = true;
            warnings.extend(converted.warnings);
        }
    }
    stage.at(Step::Producing);
    produce(services, &registry, content, opts, scrape_id, deadline, warnings).await
}

#[cfg(test)]
mod tests {
    use super::upload_url;

    #[test]
    fn upload_urls_encode_the_name() {
        assert_eq!(
            upload_url("report 1.pdf").as_str(),
            "https://upload.distill.invalid/uploads/report%201.pdf"
        );
        assert_eq!(
            upload_url("a/b.html").as_str(),
            "https://upload.distill.invalid/uploads/a%2Fb.html"
        );
    }
}
