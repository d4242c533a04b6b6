//! The HTML work of a scrape, done in one place on one parse: page metadata
//! from the full document, then the cleaned HTML (main content, include and
//! exclude tags), and the links and images of the cleaned document.

use super::error::PipelineError;
use crate::api::ScrapeOptions;
use distill_html::{CleanOptions, ParsedPage};
use serde_json::{Map, Value};
use std::sync::LazyLock;
use tokio::sync::Semaphore;
use url::Url;

/// Pages larger than this are prepared on a blocking thread so they do not
/// hold up the async workers.
const INLINE_LIMIT: usize = 256 * 1024;

/// Large pages prepared at once: one per CPU. The work is all CPU, so more
/// at once only interleaves it, while each holds its page's parse trees
/// (several MiB for a 500 KB page) until it ends; the rest wait their turn
/// holding only their HTML.
static LARGE_PAGE_SLOTS: LazyLock<Semaphore> =
    LazyLock::new(|| Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())));

/// What the pipeline needs from the HTML.
pub struct PreparedPage {
    pub metadata: Map<String, Value>,
    pub cleaned_html: String,
    pub links: Option<Vec<String>>,
    pub images: Option<Vec<String>>,
}

/// What to prepare besides metadata and the cleaned HTML.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wanted {
    pub links: bool,
    pub images: bool,
}

/// Prepares `html` (off the async workers when it is large: the page moves
/// to the blocking thread and back rather than being copied).
pub async fn prepare(
    html: &mut String,
    url: &Url,
    opts: &ScrapeOptions,
    wanted: Wanted,
) -> Result<PreparedPage, PipelineError> {
    if html.len() <= INLINE_LIMIT {
        return prepare_sync(html, url, opts, wanted);
    }
    let _slot = LARGE_PAGE_SLOTS
        .acquire()
        .await
        .map_err(|_| PipelineError::internal("the page preparation slots are closed"))?;
    let (page, url, opts) = (std::mem::take(html), url.clone(), opts.clone());
    let (prepared, page) =
        tokio::task::spawn_blocking(move || (prepare_sync(&page, &url, &opts, wanted), page))
            .await
            .map_err(|e| PipelineError::internal(format!("HTML preparation panicked: {e}")))?;
    *html = page;
    prepared
}

/// The same, on the current thread.
pub fn prepare_sync(
    html: &str,
    url: &Url,
    opts: &ScrapeOptions,
    wanted: Wanted,
) -> Result<PreparedPage, PipelineError> {
    let page = ParsedPage::parse(html, url);
    let metadata = page.metadata();
    let mut clean = CleanOptions {
        only_main_content: opts.only_main_content,
        include_tags: &opts.include_tags,
        exclude_tags: &opts.exclude_tags,
    };
    // The parsed tree itself is cleaned, not a copy of it: it is needed
    // again only when main-content filtering removed everything, and is then
    // parsed again (rare; a copy on every scrape cost more).
    let mut cleaned = page
        .into_clean(&clean)
        .map_err(|e| PipelineError::InvalidSelector(e.to_string()))?;
    if clean.only_main_content && !cleaned.has_content() {
        // Main-content filtering removed everything: fall back to the whole page.
        clean.only_main_content = false;
        cleaned = ParsedPage::parse(html, url)
            .into_clean(&clean)
            .map_err(|e| PipelineError::InvalidSelector(e.to_string()))?;
    }
    Ok(PreparedPage {
        metadata,
        cleaned_html: cleaned.html(),
        links: wanted.links.then(|| cleaned.links()),
        images: wanted.images.then(|| cleaned.images()),
    })
}
