//! Finding a page's primary media. Candidates, best first:
//!
//! 1. the scraped URL itself when it serves a media type (`video/*`; for
//!    `audio` also `audio/*`);
//! 2. what the page declares: OpenGraph `og:video` (`:secure_url`, `:url`)
//!    — and for `audio` first `og:audio` — when its declared type is a media
//!    type (or none is declared and the URL is not a web page); then
//!    schema.org `VideoObject` / `AudioObject` (JSON-LD or microdata):
//!    `contentUrl`, and `embedUrl` only when it names a media file;
//! 3. HTML5 elements: the first `<video>` (for `audio`, first the first
//!    `<audio>`) in the main content, then in the whole page; its `src`, or
//!    its `<source>` children in order — MP4 / WebM ones first in a `<video>`.
//!
//! `audio` falls back to video candidates (their audio track is
//! extracted). `blob:` and `data:` URLs (media streamed by script, inline
//! data) cannot be fetched and are skipped, and said so when nothing else is found.

use distill_sdk::{Page, Value};
use dom_query::{Document, NodeRef};
use url::Url;

/// The format asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    Audio,
    Video,
}

/// One media URL to try, and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub url: String,
    /// e.g. "og:video", "<video> in the main content".
    pub source: &'static str,
}

/// What the page offered.
#[derive(Debug, Default)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    /// Media URLs skipped because they cannot be fetched (`blob:`, `data:`).
    pub unfetchable: usize,
}

impl Found {
    /// The warning's reason when nothing could be tried.
    pub fn nothing_found_reason(&self, format: &str) -> String {
        let what = if format == "audio" {
            "audio or video"
        } else {
            "video"
        };
        if self.unfetchable > 0 {
            format!(
                "the page's {what} is streamed by script or inlined (blob:/data: URL) and cannot be fetched"
            )
        } else {
            format!("no {what} found on the page")
        }
    }
}

/// File extensions of media files (for URLs without a declared type).
const MEDIA_EXTENSIONS: &[&str] = &[
    "mp4", "m4v", "webm", "mov", "mkv", "ogv", "avi", "mp3", "m4a", "aac", "oga", "ogg", "opus", "wav",
    "flac", "weba",
];

/// Extensions of web pages, never taken for media without a declared type.
const PAGE_EXTENSIONS: &[&str] = &["html", "htm", "php", "asp", "aspx", "jsp", "shtml"];

/// Content types of the scraped URL that make it the media itself.
fn serves(content_type: Option<&str>, wanted: Wanted) -> bool {
    let Some(ct) = content_type else { return false };
    let ct = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    ct.starts_with("video/")
        || (wanted == Wanted::Audio && (ct.starts_with("audio/") || ct == "application/ogg"))
}

/// The candidates for `wanted` on `page`, best first, without duplicates.
pub fn candidates(page: &Page, wanted: Wanted) -> Found {
    let mut found = Found::default();
    let base = Url::parse(&page.final_url).ok();
    if serves(page.content_type.as_deref(), wanted) {
        push(&mut found, base.as_ref(), &page.final_url, "the scraped URL");
        return found;
    }
    let raw = Document::from(page.raw_html.as_str());
    let base = document_base(&raw, base);
    let main = Document::from(page.cleaned_html.as_str());
    let kinds: &[Wanted] = match wanted {
        Wanted::Audio => &[Wanted::Audio, Wanted::Video],
        Wanted::Video => &[Wanted::Video],
    };
    for kind in kinds {
        for (url, source) in open_graph(&raw, *kind) {
            push(&mut found, base.as_ref(), &url, source);
        }
        for (url, source) in schema_org(&raw, *kind) {
            push(&mut found, base.as_ref(), &url, source);
        }
        for (doc, source) in [(&main, "in the main content"), (&raw, "in the page")] {
            for url in element(doc, *kind) {
                let source = match (kind, source) {
                    (Wanted::Audio, "in the main content") => "<audio> in the main content",
                    (Wanted::Audio, _) => "<audio> in the page",
                    (Wanted::Video, "in the main content") => "<video> in the main content",
                    (Wanted::Video, _) => "<video> in the page",
                };
                push(&mut found, base.as_ref(), &url, source);
            }
        }
    }
    found
}

fn push(found: &mut Found, base: Option<&Url>, raw: &str, source: &'static str) {
    let raw = raw.trim();
    if raw.is_empty() {
        return;
    }
    let lower = raw.to_ascii_lowercase();
    if lower.starts_with("blob:") || lower.starts_with("data:") {
        found.unfetchable += 1;
        return;
    }
    let resolved = match base {
        Some(b) => b.join(raw).ok(),
        None => Url::parse(raw).ok(),
    };
    let Some(url) = resolved.filter(|u| matches!(u.scheme(), "http" | "https")) else {
        return;
    };
    let url = url.to_string();
    if !found.candidates.iter().any(|c| c.url == url) {
        found.candidates.push(Candidate { url, source });
    }
}

/// `<base href>` applies to relative URLs in the page.
fn document_base(doc: &Document, page: Option<Url>) -> Option<Url> {
    let href = doc
        .select("base[href]")
        .nodes()
        .first()
        .and_then(|n| n.attr("href"))
        .map(|h| h.trim().to_string());
    let Some(href) = href else { return page };
    let resolved = match &page {
        Some(p) => p.join(&href).ok(),
        None => Url::parse(&href).ok(),
    };
    resolved.or(page)
}

fn extension(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let last = path.rsplit('/').next().unwrap_or("");
    let (_, ext) = last.rsplit_once('.')?;
    Some(ext.to_ascii_lowercase())
}

fn is_media_file(url: &str) -> bool {
    extension(url).is_some_and(|e| MEDIA_EXTENSIONS.contains(&e.as_str()))
}

fn is_media_type(t: &str) -> bool {
    let t = t.trim().to_ascii_lowercase();
    t.starts_with("video/") || t.starts_with("audio/") || t == "application/ogg"
}

fn meta_values(doc: &Document, property: &str) -> Vec<String> {
    let sel = format!(r#"meta[property="{property}" i], meta[name="{property}" i]"#);
    doc.select(&sel)
        .nodes()
        .iter()
        .filter_map(|n| n.attr("content").map(|c| c.trim().to_string()))
        .filter(|c| !c.is_empty())
        .collect()
}

/// `og:video` / `og:audio` URLs, when their declared type is a media type
/// (without one: when the URL does not name a web page).
fn open_graph(doc: &Document, kind: Wanted) -> Vec<(String, &'static str)> {
    let (prefix, source) = match kind {
        Wanted::Audio => ("og:audio", "og:audio"),
        Wanted::Video => ("og:video", "og:video"),
    };
    let declared = meta_values(doc, &format!("{prefix}:type"));
    if let Some(t) = declared.first()
        && !is_media_type(t)
    {
        return Vec::new();
    }
    let mut urls = Vec::new();
    for key in [
        format!("{prefix}:secure_url"),
        format!("{prefix}:url"),
        prefix.to_string(),
    ] {
        for url in meta_values(doc, &key) {
            let page_like = extension(&url).is_some_and(|e| PAGE_EXTENSIONS.contains(&e.as_str()));
            if declared.is_empty() && page_like {
                continue;
            }
            urls.push((url, source));
        }
    }
    urls
}

/// `contentUrl` (and `embedUrl` naming a media file) of schema.org
/// `VideoObject` / `AudioObject` items, JSON-LD first, then microdata.
fn schema_org(doc: &Document, kind: Wanted) -> Vec<(String, &'static str)> {
    let (type_name, source) = match kind {
        Wanted::Audio => ("AudioObject", "schema.org AudioObject"),
        Wanted::Video => ("VideoObject", "schema.org VideoObject"),
    };
    let mut urls = Vec::new();
    for script in doc.select(r#"script[type="application/ld+json" i]"#).nodes() {
        if let Ok(value) = serde_json::from_str::<Value>(script.text().trim()) {
            collect_objects(&value, type_name, 0, &mut |node| {
                if let Some(u) = node.get("contentUrl").and_then(Value::as_str) {
                    urls.push((u.to_string(), source));
                }
                if let Some(u) = node.get("embedUrl").and_then(Value::as_str)
                    && is_media_file(u)
                {
                    urls.push((u.to_string(), source));
                }
            });
        }
    }
    let scope = format!(r#"[itemscope][itemtype$="schema.org/{type_name}" i]"#);
    for item in doc.select(&scope).nodes() {
        for prop in ["contentUrl", "embedUrl"] {
            let sel = format!(r#"[itemprop="{prop}"]"#);
            for node in dom_query::Selection::from(*item).select(&sel).nodes() {
                if let Some(u) = prop_url(node)
                    && (prop == "contentUrl" || is_media_file(&u))
                {
                    urls.push((u, source));
                }
            }
        }
    }
    urls
}

/// A microdata URL property's value.
fn prop_url(node: &NodeRef) -> Option<String> {
    ["content", "href", "src"]
        .iter()
        .find_map(|a| node.attr(a))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Calls `f` on every object typed `type_name` in a JSON-LD value (arrays,
/// `@graph`, nested properties; bounded depth).
fn collect_objects(value: &Value, type_name: &str, depth: usize, f: &mut dyn FnMut(&Value)) {
    if depth > 8 {
        return;
    }
    match value {
        Value::Array(items) => items
            .iter()
            .for_each(|v| collect_objects(v, type_name, depth + 1, f)),
        Value::Object(map) => {
            let typed = match map.get("@type") {
                Some(Value::String(t)) => t == type_name,
                Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some(type_name)),
                _ => false,
            };
            if typed {
                f(value);
            }
            for v in map.values() {
                if v.is_object() || v.is_array() {
                    collect_objects(v, type_name, depth + 1, f);
                }
            }
        }
        _ => {}
    }
}

/// The first `<video>` / `<audio>` element's URLs: its `src`, else its
/// `<source>` children in order (in a `<video>`, MP4 / WebM ones first).
fn element(doc: &Document, kind: Wanted) -> Vec<String> {
    let tag = match kind {
        Wanted::Audio => "audio",
        Wanted::Video => "video",
    };
    for el in doc.select(tag).nodes() {
        if let Some(src) = el
            .attr("src")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
        {
            return vec![src];
        }
        let mut sources: Vec<(String, bool)> = dom_query::Selection::from(*el)
            .select("source[src]")
            .nodes()
            .iter()
            .filter_map(|s| {
                let src = s.attr("src")?.trim().to_string();
                let ty = s.attr("type").map(|t| t.to_ascii_lowercase()).unwrap_or_default();
                let direct = ty.starts_with("video/mp4")
                    || ty.starts_with("video/webm")
                    || matches!(extension(&src).as_deref(), Some("mp4" | "webm"));
                (!src.is_empty()).then_some((src, direct))
            })
            .collect();
        if kind == Wanted::Video {
            // Stable: document order within each group.
            sources.sort_by_key(|(_, direct)| !direct);
        }
        if !sources.is_empty() {
            return sources.into_iter().map(|(src, _)| src).collect();
        }
    }
    Vec::new()
}
