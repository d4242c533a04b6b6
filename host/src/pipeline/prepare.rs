//! The HTML work of a scrape, done in one place on one parse: page metadata
//! from the full document, then the cleaned document (main content, include
//! and exclude tags) — serialised as HTML and/or written as a token stream
//! for the format plugins that read one (ABI 0.4), whichever is needed —
//! and the links and images of the cleaned document.

use super::error::PipelineError;
use crate::api::ScrapeOptions;
use distill_html::{CleanOptions, PageHtml, PageText, ParsedPage};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;
use tokio::sync::Semaphore;
use url::Url;

/// Pages larger than this are prepared on a blocking thread so they do not
/// hold up the async workers — unless the serving thread has no other
/// request to hold up ([`crate::lane::alone`]): then the page is prepared
/// where it is, sparing the two thread wake-ups of the hop there and back
/// (~30 µs each at c=1 on a 2-core machine; BENCHMARKS.md).
const INLINE_LIMIT: usize = 256 * 1024;

/// Pages larger than this go to a blocking thread even from a serving thread
/// alone: a request arriving on that thread meanwhile would wait for the
/// whole preparation (~6 ms at this size), and the hop's wake-ups weigh less
/// the longer the work.
const ALONE_LIMIT: usize = 1024 * 1024;

/// Large pages prepared at once: one per CPU. The work is all CPU, so more
/// at once only interleaves it, while each holds its page's parse trees
/// (several MiB for a 500 KB page) until it ends; the rest wait their turn
/// holding only their HTML. A slot is held by the blocking work itself, not
/// by the request: a cancelled request's preparation runs on to its end and
/// keeps its slot until then.
static LARGE_PAGE_SLOTS: LazyLock<Arc<Semaphore>> = LazyLock::new(|| {
    Arc::new(Semaphore::new(
        std::thread::available_parallelism().map_or(2, |n| n.get()),
    ))
});

/// Most elements and comments a page's tree may hold (`DISTILL_MAX_PAGE_NODES`, set once
/// at start by [`set_max_page_nodes`]): the parse of a page over it stops there and the
/// page is refused as too large, so markup that multiplies (a few hundred formatting
/// elements left open, made again in every paragraph after them: a 20 KB page making a
/// million elements) cannot hold the server's memory.
static MAX_PAGE_NODES: AtomicUsize = AtomicUsize::new(crate::config::DEFAULT_MAX_PAGE_NODES);

/// Sets the most elements and comments a page's tree may hold (from the configuration).
pub fn set_max_page_nodes(most: usize) {
    MAX_PAGE_NODES.store(most, Ordering::Relaxed);
}

/// The most elements and comments a page's tree may hold.
pub fn max_page_nodes() -> usize {
    MAX_PAGE_NODES.load(Ordering::Relaxed)
}

/// Parses `html` within the node budget.
fn parse_within(html: &PageHtml, url: &Url) -> Result<ParsedPage, PipelineError> {
    ParsedPage::parse_html_within(html, url, max_page_nodes()).map_err(|e| {
        // No URL: the host logs no target URL (docs/API.md); the access log has the request.
        tracing::warn!("page refused: {e}");
        PipelineError::TooManyNodes { most: e.most }
    })
}

/// What the pipeline needs from the HTML.
pub struct PreparedPage {
    pub metadata: Map<String, Value>,
    /// Empty unless [`Wanted::html`].
    pub cleaned_html: String,
    /// The cleaned document's token stream (`ops`, `text`), if [`Wanted::tokens`].
    pub cleaned_tokens: Option<(Vec<u8>, String)>,
    pub links: Option<Vec<String>>,
    pub images: Option<Vec<String>>,
    /// The page's HTML as a `String`, if [`Wanted::raw`].
    pub raw_html: Option<String>,
}

/// What to prepare besides metadata.
#[derive(Clone, Copy, Debug)]
pub struct Wanted {
    pub links: bool,
    pub images: bool,
    /// The cleaned HTML (the `html` format, a plugin that reads it).
    pub html: bool,
    /// The cleaned document as tokens (a plugin that reads `page:cleaned-tokens`).
    pub tokens: bool,
    /// The raw HTML as a `String` (`rawHtml`, a plugin that reads it).
    pub raw: bool,
}

impl Default for Wanted {
    /// Links and images not wanted; the cleaned HTML wanted, no tokens, no raw HTML.
    fn default() -> Self {
        Wanted {
            links: false,
            images: false,
            html: true,
            tokens: false,
            raw: false,
        }
    }
}

/// Prepares `html` (off the async workers when it is large and the thread
/// has other requests: the page moves to the blocking thread rather than
/// being copied). The page itself is parsed, not a copy of it; the raw HTML
/// comes back as a `String` only if [`Wanted::raw`]. Waiting for a
/// large-page slot ends at `deadline`.
pub async fn prepare(
    html: PageText,
    url: &Url,
    opts: &ScrapeOptions,
    wanted: Wanted,
    deadline: Instant,
) -> Result<PreparedPage, PipelineError> {
    if html.len() <= INLINE_LIMIT {
        return prepare_sync(html, url, opts, wanted);
    }
    if let Some(_slot) = here_if_alone(&LARGE_PAGE_SLOTS, html.len()) {
        return prepare_sync(html, url, opts, wanted);
    }
    let (url, opts) = (url.clone(), opts.clone());
    let timeout_ms = opts.timeout_ms;
    in_slot(&LARGE_PAGE_SLOTS, deadline, timeout_ms, move || {
        prepare_sync(html, &url, &opts, wanted)
    })
    .await?
}

/// A free slot of `slots` when the large work on a page of `len` bytes may
/// run on the current thread: a page up to [`ALONE_LIMIT`] on a serving
/// thread with no request in flight but the caller's. The slot still bounds
/// the large pages prepared at once (and the memory they hold); none free,
/// the work waits its turn on a blocking thread as any other.
fn here_if_alone(slots: &Arc<Semaphore>, len: usize) -> Option<tokio::sync::OwnedSemaphorePermit> {
    if len > ALONE_LIMIT || !crate::lane::alone() {
        return None;
    }
    Arc::clone(slots).try_acquire_owned().ok()
}

/// Runs `work` on a blocking thread once one of `slots` is free, or fails
/// with the request's timeout (`timeout_ms`) if none is free by `deadline`,
/// or if the work has not ended by then. The slot moves into the blocking
/// task and is given back when `work` ends, whether or not the caller still
/// waits for it (a dropped future does not stop a blocking task).
async fn in_slot<R: Send + 'static>(
    slots: &Arc<Semaphore>,
    deadline: Instant,
    timeout_ms: u64,
    work: impl FnOnce() -> R + Send + 'static,
) -> Result<R, PipelineError> {
    let slot = tokio::time::timeout_at(deadline.into(), Arc::clone(slots).acquire_owned())
        .await
        .map_err(|_| {
            tracing::warn!("no large-page slot became free before the request's deadline");
            PipelineError::Timeout {
                stage: "waiting for a slot to prepare a large page",
                timeout_ms,
            }
        })?
        .map_err(|_| PipelineError::internal("the page preparation slots are closed"))?;
    let running = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        work()
    });
    match tokio::time::timeout_at(deadline.into(), running).await {
        Ok(done) => done.map_err(|e| PipelineError::internal(format!("HTML preparation panicked: {e}"))),
        Err(_) => {
            tracing::warn!("a large page's preparation did not end before the request's deadline");
            Err(PipelineError::Timeout {
                stage: "preparing a large page",
                timeout_ms,
            })
        }
    }
}

/// The same, on the current thread.
pub fn prepare_sync(
    html: PageText,
    url: &Url,
    opts: &ScrapeOptions,
    wanted: Wanted,
) -> Result<PreparedPage, PipelineError> {
    let html = html.open();
    let page = parse_within(&html, url)?;
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
        cleaned = parse_within(&html, url)?
            .into_clean(&clean)
            .map_err(|e| PipelineError::InvalidSelector(e.to_string()))?;
    }
    let prepared = PreparedPage {
        metadata,
        cleaned_html: if wanted.html {
            cleaned.html()
        } else {
            String::new()
        },
        cleaned_tokens: wanted.tokens.then(|| cleaned.tokens()),
        links: wanted.links.then(|| cleaned.links()),
        images: wanted.images.then(|| cleaned.images()),
        raw_html: wanted.raw.then(|| html.raw()),
    };
    // Freeing the tree waits until the response is written (on a serving thread).
    crate::later::drop_later(cleaned);
    Ok(prepared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_request_keeps_its_slot_until_the_work_ends() {
        let slots = Arc::new(Semaphore::new(1));
        let (started_tx, started_rx) = mpsc::channel::<()>();
        let (finish_tx, finish_rx) = mpsc::channel::<()>();
        let request = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move {
                in_slot(&slots, far(), 30_000, move || {
                    started_tx.send(()).unwrap();
                    finish_rx.recv().unwrap();
                })
                .await
            }
        });
        tokio::task::spawn_blocking(move || started_rx.recv_timeout(Duration::from_secs(10)))
            .await
            .unwrap()
            .expect("the work started");
        // The request goes away (client gone, deadline) while its work runs.
        request.abort();
        assert!(request.await.unwrap_err().is_cancelled());
        assert_eq!(
            slots.available_permits(),
            0,
            "the running work still holds the slot"
        );
        finish_tx.send(()).unwrap();
        // Given back once the work ends.
        let back = tokio::time::timeout(Duration::from_secs(10), Arc::clone(&slots).acquire_owned()).await;
        assert!(back.is_ok(), "the slot came back when the work ended");
    }

    /// A deadline no test reaches.
    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// Work still running at the deadline (a huge page on a slow machine) is
    /// no longer waited for: the request answers its timeout, and the work
    /// runs on to its end holding its slot.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn waiting_for_the_work_ends_at_the_deadline() {
        let slots = Arc::new(Semaphore::new(1));
        let (finish_tx, finish_rx) = mpsc::channel::<()>();
        let deadline = Instant::now() + Duration::from_millis(200);
        let waited = tokio::time::timeout(
            Duration::from_secs(10),
            in_slot(&slots, deadline, 200, move || {
                let _ = finish_rx.recv_timeout(Duration::from_secs(20));
            }),
        )
        .await
        .expect("the wait ended by itself");
        match waited {
            Err(PipelineError::Timeout { stage, timeout_ms }) => {
                assert_eq!((stage, timeout_ms), ("preparing a large page", 200));
            }
            other => panic!("expected the request's timeout, got {other:?}"),
        }
        assert!(Instant::now() >= deadline);
        assert_eq!(slots.available_permits(), 0, "the work still holds its slot");
        finish_tx.send(()).unwrap();
        let back = tokio::time::timeout(Duration::from_secs(10), Arc::clone(&slots).acquire_owned()).await;
        assert!(back.is_ok(), "the slot came back when the work ended");
    }

    #[tokio::test]
    async fn waiting_for_a_slot_ends_at_the_deadline() {
        let slots = Arc::new(Semaphore::new(0));
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let deadline = Instant::now() + Duration::from_millis(100);
        let waited = in_slot(&slots, deadline, 100, {
            let ran = Arc::clone(&ran);
            move || ran.store(true, std::sync::atomic::Ordering::SeqCst)
        })
        .await;
        match waited {
            Err(PipelineError::Timeout { timeout_ms, .. }) => assert_eq!(timeout_ms, 100),
            other => panic!("expected the request's timeout, got {other:?}"),
        }
        assert!(Instant::now() >= deadline);
        assert!(
            !ran.load(std::sync::atomic::Ordering::SeqCst),
            "the work never ran"
        );
    }

    const PAGE: &str = "<html><head><title>T</title></head><body><article><h1>Head</h1>\
                        <p>One paragraph of the article&amp;more.</p></article></body></html>";

    fn options() -> ScrapeOptions {
        crate::api::ScrapeRequest::from_json(&serde_json::json!({"url": "https://a.example/"}), &|_: &str| {
            false
        })
        .unwrap()
        .options
    }

    fn prepared(wanted: Wanted) -> PreparedPage {
        let url = Url::parse("https://a.example/").unwrap();
        prepare_sync(PageText::new(PAGE), &url, &options(), wanted).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_large_page_moves_to_a_blocking_thread_and_prepares_the_same() {
        let paragraphs = "<p>Another paragraph of the article.</p>".repeat(INLINE_LIMIT / 30);
        let big = PAGE.replace("</h1>", &format!("</h1>{paragraphs}"));
        assert!(big.len() > INLINE_LIMIT);
        let url = Url::parse("https://a.example/").unwrap();
        let wanted = Wanted {
            raw: true,
            tokens: true,
            ..Wanted::default()
        };
        let moved = prepare(PageText::new(&big), &url, &options(), wanted, far())
            .await
            .unwrap();
        let here = prepare_sync(PageText::new(&big), &url, &options(), wanted).unwrap();
        assert_eq!(moved.raw_html.as_deref(), Some(big.as_str()));
        assert_eq!(moved.cleaned_html, here.cleaned_html);
        assert_eq!(moved.cleaned_tokens, here.cleaned_tokens);
        assert_eq!(moved.metadata, here.metadata);
        assert!(moved.cleaned_html.contains("Another paragraph"));
    }

    #[test]
    fn only_the_wanted_forms_of_the_cleaned_page_are_made() {
        let html_only = prepared(Wanted::default());
        assert!(
            html_only
                .cleaned_html
                .contains("One paragraph of the article&amp;more.")
        );
        assert!(html_only.cleaned_tokens.is_none());

        // A markdown-only scrape: tokens for the plugin, no HTML serialised.
        let tokens_only = prepared(Wanted {
            html: false,
            tokens: true,
            ..Wanted::default()
        });
        assert_eq!(tokens_only.cleaned_html, "");
        let (ops, text) = tokens_only.cleaned_tokens.expect("tokens were wanted");
        assert!(ops.len() > 4, "a token per tag and text run");
        // Text runs are entity-decoded in the stream.
        assert!(text.contains("One paragraph of the article&more."), "{text}");

        let both = prepared(Wanted {
            tokens: true,
            ..Wanted::default()
        });
        assert_eq!(both.cleaned_html, html_only.cleaned_html);
        assert_eq!(both.cleaned_tokens.map(|t| t.1), Some(text));

        // The raw HTML comes back as a String only when wanted.
        assert_eq!(html_only.raw_html, None);
        let raw = prepared(Wanted {
            raw: true,
            ..Wanted::default()
        });
        assert_eq!(raw.raw_html.as_deref(), Some(PAGE));
        assert_eq!(raw.cleaned_html, html_only.cleaned_html);
    }

    #[test]
    fn a_large_page_on_a_serving_thread_alone_prepares_the_same() {
        std::thread::spawn(|| {
            let paragraphs = "<p>Another paragraph of the article.</p>".repeat(INLINE_LIMIT / 30);
            let big = PAGE.replace("</h1>", &format!("</h1>{paragraphs}"));
            let url = Url::parse("https://a.example/").unwrap();
            let wanted = Wanted {
                tokens: true,
                ..Wanted::default()
            };
            // Lane 42 is used by no other test.
            crate::lane::enter(42);
            let _own = crate::lane::request();
            let free = LARGE_PAGE_SLOTS.available_permits();
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let here = runtime
                .block_on(prepare(PageText::new(&big), &url, &options(), wanted, far()))
                .unwrap();
            let sync = prepare_sync(PageText::new(&big), &url, &options(), wanted).unwrap();
            assert_eq!(here.cleaned_html, sync.cleaned_html);
            assert_eq!(here.cleaned_tokens, sync.cleaned_tokens);
            assert_eq!(here.metadata, sync.metadata);
            assert!(LARGE_PAGE_SLOTS.available_permits() >= free, "the slot came back");
        })
        .join()
        .unwrap();
    }

    #[test]
    fn large_work_stays_on_a_serving_thread_alone_with_a_slot_free() {
        std::thread::spawn(|| {
            let slots = Arc::new(Semaphore::new(1));
            let len = INLINE_LIMIT + 1;
            assert!(here_if_alone(&slots, len).is_none(), "not a serving thread");
            // Lane 41 is used by no other test.
            crate::lane::enter(41);
            let own = crate::lane::request();
            let slot = here_if_alone(&slots, len).expect("alone, a slot free");
            assert_eq!(slots.available_permits(), 0, "the work holds the slot");
            assert!(here_if_alone(&slots, len).is_none(), "no slot free");
            drop(slot);
            assert!(here_if_alone(&slots, ALONE_LIMIT).is_some());
            assert!(
                here_if_alone(&slots, ALONE_LIMIT + 1).is_none(),
                "too large to hold the thread up"
            );
            let other = crate::lane::request();
            assert!(
                here_if_alone(&slots, len).is_none(),
                "another request in flight here"
            );
            drop((own, other));
            assert!(here_if_alone(&slots, len).is_some());
        })
        .join()
        .unwrap();
    }

    #[tokio::test]
    async fn the_work_runs_in_a_slot_and_gives_it_back() {
        let slots = Arc::new(Semaphore::new(1));
        let seen = in_slot(&slots, far(), 30_000, || 41 + 1).await.unwrap();
        assert_eq!(seen, 42);
        assert_eq!(slots.available_permits(), 1);
    }
}
