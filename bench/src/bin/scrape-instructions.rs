//! The in-process scrape pipeline on one page, N times, for `valgrind
//! --tool=callgrind` (benchmark 10, [`callgrind`](../callgrind.rs)): the same
//! library calls as the server's pipeline (the browser fallback's
//! script-rendered check, decode, parse, metadata, clean,
//! serialise, the markdown plugin in wasm with a fresh instance, response
//! JSON; the cache's copy of the response with `SCRAPE_CACHE_DOCUMENT=1`),
//! each stage in its own never-inlined `stage_*` function under
//! `scrape_once`, so callgrind's inclusive counts give instructions per stage.
//! The server itself cannot run under valgrind: its pooling allocator reserves
//! far more address space than valgrind manages; here the plugin runtime has
//! one call slot and a 64 MiB memory cap. Where even that pool cannot be
//! mapped (the reservation per memory is not configurable in this tree), the
//! harness says so on stderr and runs the host stages alone (the plugin stage
//! then counts nothing).
//!
//! Usage: `scrape-instructions PAGE.html[.gz] URL MARKDOWN.wasm WORK_DIR ITERATIONS`.
//! The plugin gets the cleaned page as it asks for it: a token stream
//! (`stage_tokens`, ABI 0.4 `page:cleaned-tokens`) or serialised HTML
//! (`stage_serialise`); `SCRAPE_INPUT=html` forces the HTML (the path before
//! ABI 0.4, which the markdown plugin still takes when it gets no tokens).

use distill::cache::escaped::Escaped;
use distill::plugins::bindings::{Page, PageTokens};
use distill::plugins::{LoadedPlugin, PluginRuntime, RuntimeLimits};
use distill_html::{CleanOptions, CleanedHtml, PageHtml, PageText, ParsedPage};
use serde_json::{Map, Value};
use std::hint::black_box;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use url::Url;

/// The server's global allocator (`host/src/main.rs`), so the instruction
/// counts are the server's, allocator included.
#[global_allocator]
static GLOBAL: distill::large_alloc::Global = distill::large_alloc::Global;

fn main() -> anyhow::Result<()> {
    // The server's per-thread cap on cached small blocks, as it reads it.
    if let Some(kib) = std::env::var("DISTILL_THREAD_CACHE_KIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        distill::small_alloc::set_cap(kib << 10);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        args.len() == 5,
        "usage: scrape-instructions PAGE.html[.gz] URL MARKDOWN.wasm WORK_DIR ITERATIONS"
    );
    let body = read_page(Path::new(&args[0]))?;
    let url = Url::parse(&args[1])?;
    let iterations: usize = args[4].parse()?;
    // wasmtime's code cache wants an absolute path.
    let work_dir = &std::path::absolute(&args[3])?;
    let plugins_dir = work_dir.join("plugins");
    std::fs::create_dir_all(&plugins_dir)?;
    std::fs::copy(&args[2], plugins_dir.join("markdown.wasm"))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // A 64 MiB reservation (not the server's 4 GiB): valgrind cannot map the
    // default pool's address space, and one call needs no more.
    let limits = RuntimeLimits {
        default_memory_mib: 64,
        max_memory_mib: 64,
        max_concurrent_calls: 1,
        memory_reservation_mib: 64,
        ..RuntimeLimits::default()
    };
    let plugin = match PluginRuntime::new(&plugins_dir, Some(&work_dir.join("wasm-cache")), limits) {
        Ok(runtime) => {
            let markdown = rt
                .block_on(runtime.load_all())
                .format("markdown")
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("the markdown plugin did not load"))?;
            Some((runtime, markdown))
        }
        Err(e) => {
            eprintln!("no plugin runtime, host stages only: {e:#}");
            None
        }
    };
    let tokens = std::env::var("SCRAPE_INPUT").as_deref() != Ok("html")
        && plugin
            .as_ref()
            .is_some_and(|(_, p)| p.manifest.reads.gets_tokens(true));
    eprintln!("the plugin gets {}", if tokens { "tokens" } else { "HTML" });
    let ctx = Ctx {
        rt,
        plugin,
        url,
        tokens,
        cache_document: std::env::var("SCRAPE_CACHE_DOCUMENT").as_deref() == Ok("1"),
    };
    // One unmeasured run (first-call costs), then the measured ones.
    let warm = run_stages(&ctx, &body);
    anyhow::ensure!(warm > 0, "the pipeline returned no response");
    for _ in 0..iterations {
        black_box(scrape_once(&ctx, &body));
    }
    println!("{iterations} scrapes, {warm} bytes of response");
    Ok(())
}

struct Ctx {
    rt: tokio::runtime::Runtime,
    /// `None` when the plugin runtime could not be created (under valgrind).
    plugin: Option<(PluginRuntime, Arc<LoadedPlugin>)>,
    url: Url,
    /// Hand the plugin the token stream instead of the HTML.
    tokens: bool,
    /// Run [`stage_cache_document`] too.
    cache_document: bool,
}

fn read_page(path: &Path) -> anyhow::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// One measured scrape (callgrind collects only inside this function).
#[inline(never)]
fn scrape_once(ctx: &Ctx, body: &[u8]) -> usize {
    run_stages(ctx, body)
}

fn run_stages(ctx: &Ctx, body: &[u8]) -> usize {
    black_box(stage_script_check(body));
    let raw = stage_decode(body);
    let (page, raw) = stage_parse(raw, &ctx.url);
    let metadata = stage_metadata(&page);
    let cleaned = stage_clean(page);
    let (cleaned_html, tokens) = if ctx.tokens {
        (String::new(), stage_tokens(&cleaned))
    } else {
        (stage_serialise(&cleaned), (Vec::new(), String::new()))
    };
    let markdown = stage_markdown_plugin(ctx, &raw, cleaned_html, tokens, &metadata);
    if markdown.is_null() {
        return 0;
    }
    // As `pipeline::response::build_data` makes it: the values moved in.
    let mut data = Map::new();
    data.insert("markdown".into(), markdown);
    data.insert("metadata".into(), Value::Object(metadata));
    let data = Value::Object(data);
    if ctx.cache_document {
        let escaped = stage_cache_document(&data);
        return stage_response_json(data, &escaped);
    }
    stage_response_json(data, &Escaped::default())
}

/// The browser fallback's check of every HTML page the HTTP engine fetched
/// (`pipeline::fallback`), on the body as received.
#[inline(never)]
fn stage_script_check(body: &[u8]) -> bool {
    distill::fetch::script_rendered::detect_bytes(black_box(body)).is_some()
}

/// The body decoded into the parse's buffer (`pipeline::scrape`: the body's one copy).
#[inline(never)]
fn stage_decode(body: &[u8]) -> PageText {
    PageText::decode(black_box(body), Some("text/html; charset=utf-8"))
}

/// The page parsed from that buffer (`pipeline::prepare`), which stays readable.
#[inline(never)]
fn stage_parse(raw: PageText, url: &Url) -> (ParsedPage, PageHtml) {
    let raw = raw.open();
    (ParsedPage::parse_html(&raw, url), raw)
}

#[inline(never)]
fn stage_metadata(page: &ParsedPage) -> Map<String, Value> {
    page.metadata()
}

/// Cleans the parsed tree itself, as the server does (`pipeline::prepare`).
#[inline(never)]
fn stage_clean(page: ParsedPage) -> CleanedHtml {
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    let cleaned = page.into_clean(&opts).expect("no selectors");
    black_box(cleaned.has_content());
    cleaned
}

#[inline(never)]
fn stage_serialise(cleaned: &CleanedHtml) -> String {
    cleaned.html()
}

/// The cleaned page as the token stream (ABI 0.4), instead of serialising it.
#[inline(never)]
fn stage_tokens(cleaned: &CleanedHtml) -> (Vec<u8>, String) {
    cleaned.tokens()
}

#[inline(never)]
fn stage_markdown_plugin(
    ctx: &Ctx,
    raw: &PageHtml,
    cleaned_html: String,
    (ops, text): (Vec<u8>, String),
    metadata: &Map<String, Value>,
) -> Value {
    let Some((runtime, markdown)) = &ctx.plugin else {
        return Value::String(String::new());
    };
    // As the pipeline does: the raw HTML only for a plugin that reads it.
    let raw_html = if markdown.manifest.reads.gets_raw_html(true) {
        raw.raw()
    } else {
        String::new()
    };
    let page = Page {
        requested_url: ctx.url.to_string(),
        final_url: ctx.url.to_string(),
        status_code: 200,
        content_type: Some("text/html; charset=utf-8".into()),
        raw_html,
        cleaned_html,
        cleaned_tokens: PageTokens { ops, text },
        metadata: serde_json::to_string(metadata).unwrap_or_default(),
        inputs: Vec::new(),
    };
    let deadline = Instant::now() + Duration::from_secs(600);
    let out = ctx
        .rt
        .block_on(runtime.render(markdown, "markdown", &page, "{}", "bench", deadline));
    out.ok()
        .and_then(|o| o.value.into_value().ok())
        .unwrap_or(Value::Null)
}

/// The response document as the page cache stores it (`PageCache::save_result`, on the
/// request's thread before the response; the compression and the commit are the cache
/// writer's): its long strings escaped once, for this copy and the response. Only with
/// `SCRAPE_CACHE_DOCUMENT=1`: the default totals stay comparable with earlier runs.
#[inline(never)]
fn stage_cache_document(data: &Value) -> Escaped {
    let escaped = Escaped::of(data);
    black_box(distill::cache::entry::result_to_bytes_escaped(data, &escaped).len());
    escaped
}

/// The response as `server::respond` writes it: `{"success":true,"data":…}` with the
/// document written from the value itself (no copy of it into an envelope value), its
/// strings escaped for the cache's copy copied as they are.
#[inline(never)]
fn stage_response_json(data: Value, escaped: &Escaped) -> usize {
    let mut out = b"{\"success\":true,\"data\":".to_vec();
    escaped.write(&mut out, &data, None);
    out.push(b'}');
    out.len()
}
