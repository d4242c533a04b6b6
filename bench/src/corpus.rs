//! The page corpus (`wcxb-dev`): gunzips each page, decodes it as the server
//! does, and cleans it as the server does for `onlyMainContent: true`, so the
//! markdown benchmarks feed both paths exactly the `cleaned_html` a scrape
//! would hand the plugin.

use distill_html::{CleanOptions, ParsedPage};
use flate2::read::GzDecoder;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};
use url::Url;

/// One corpus page.
pub struct CorpusPage {
    pub id: String,
    pub url: Url,
    pub page_type: String,
    /// The page decoded to UTF-8 (as `decode_html` does for a fetched body).
    pub raw: String,
    /// The server's cleaned HTML for `onlyMainContent: true`.
    pub cleaned: String,
    /// The same cleaned page as the token stream (`ops`, `text`) a plugin
    /// that reads `page:cleaned-tokens` gets (ABI 0.4).
    pub tokens: (Vec<u8>, String),
}

/// The loaded corpus and what preparing it cost.
pub struct Corpus {
    pub pages: Vec<CorpusPage>,
    /// Host-side parse + clean + serialise, summed over pages (native, one pass).
    pub clean_time: Duration,
}

impl Corpus {
    pub fn raw_bytes(&self) -> usize {
        self.pages.iter().map(|p| p.raw.len()).sum()
    }
    pub fn cleaned_bytes(&self) -> usize {
        self.pages.iter().map(|p| p.cleaned.len()).sum()
    }
}

/// Loads every `html/*.html.gz` under `dir` (sorted by name), at most
/// `max_pages`, giving up with an error past `budget`.
pub fn load(dir: &Path, max_pages: usize, budget: Duration) -> anyhow::Result<Corpus> {
    let started = Instant::now();
    let manifest = read_manifest(&dir.join("manifest.jsonl"));
    let mut files: Vec<_> = std::fs::read_dir(dir.join("html"))
        .map_err(|e| anyhow::anyhow!("corpus {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    files.sort();
    files.truncate(max_pages);
    let mut pages = Vec::with_capacity(files.len());
    let mut clean_time = Duration::ZERO;
    for path in files {
        anyhow::ensure!(
            started.elapsed() < budget,
            "loading the corpus took longer than {budget:?}"
        );
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let id = name.trim_end_matches(".html.gz").to_string();
        let mut bytes = Vec::new();
        GzDecoder::new(std::fs::File::open(&path)?).read_to_end(&mut bytes)?;
        let raw = distill_html::decode_html(&bytes, Some("text/html"));
        let (url, page_type) = manifest
            .get(&id)
            .cloned()
            .unwrap_or_else(|| (format!("https://example.com/{id}"), "unknown".into()));
        let url = Url::parse(&url).unwrap_or_else(|_| Url::parse("https://example.com/").unwrap());
        let t = Instant::now();
        let (cleaned, tokens) = clean_like_server_both(&raw, &url);
        clean_time += t.elapsed();
        pages.push(CorpusPage {
            id,
            url,
            page_type,
            raw,
            cleaned,
            tokens,
        });
    }
    anyhow::ensure!(
        !pages.is_empty(),
        "no *.html.gz pages under {}",
        dir.join("html").display()
    );
    Ok(Corpus { pages, clean_time })
}

/// The server's cleaning for `onlyMainContent: true` (see the host's
/// `pipeline::prepare`): main content, falling back to the whole page when
/// main-content filtering leaves nothing; as HTML and as the token stream.
fn clean_like_server_both(raw: &str, url: &Url) -> (String, (Vec<u8>, String)) {
    let page = ParsedPage::parse(raw, url);
    let mut opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    let Ok(mut cleaned) = page.clean(&opts) else {
        return (String::new(), (Vec::new(), String::new()));
    };
    if !cleaned.has_content() {
        opts.only_main_content = false;
        match page.clean(&opts) {
            Ok(c) => cleaned = c,
            Err(_) => return (String::new(), (Vec::new(), String::new())),
        }
    }
    (cleaned.html(), cleaned.tokens())
}

/// id → (url, page_type) from `manifest.jsonl`; empty if missing.
fn read_manifest(path: &Path) -> HashMap<String, (String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let v: Value = serde_json::from_str(line).ok()?;
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            Some((
                s("id")?,
                (s("url")?, s("page_type").unwrap_or_else(|| "unknown".into())),
            ))
        })
        .collect()
}
