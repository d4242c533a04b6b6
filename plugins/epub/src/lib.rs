//! Distill converter plugin `epub`: EPUB 2/3 books → HTML.
//!
//! Reads META-INF/container.xml → the OPF package; concatenates the `<body>` of
//! every XHTML document in spine order (non-linear items skipped), one
//! `<section>` each. Scripts, styles, forms and embedded objects are dropped,
//! attributes are reduced to a safe set, links between chapters become
//! fragment links, images keep their alt text. Metadata: title and author from
//! the OPF, numChapters.

use distill_sdk::documents::{archive, html, xml};

use archive::{Archive, resolve};
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use html::{esc, safe_href};
use std::collections::HashMap;
use xml::{Element, Node};

/// The plugin.
pub struct Epub;

/// Most spine items converted.
const MAX_SPINE: usize = 5000;

impl ConverterPlugin for Epub {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("EPUB e-books to HTML, chapters in reading order.")
            .extension("epub")
            .content_type("application/epub+zip")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Epub);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// Converts EPUB bytes.
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "EPUB")?;
    let container = zip
        .read_string("META-INF/container.xml")?
        .ok_or_else(|| unsupported("not an EPUB: no META-INF/container.xml"))?;
    let container = xml::parse(&container, "META-INF/container.xml")?;
    let opf_path = container
        .find("rootfile")
        .and_then(|r| r.attr("full-path"))
        .map(|p| p.trim_start_matches('/').to_string())
        .ok_or_else(|| unsupported("EPUB container.xml names no rootfile"))?;
    let opf_text = zip
        .read_string(&opf_path)?
        .ok_or_else(|| unsupported(format!("EPUB package document {opf_path} is missing")))?;
    let opf = xml::parse(&opf_text, &opf_path)?;
    let package = opf
        .child("package")
        .ok_or_else(|| unsupported("the OPF has no <package>"))?;

    // Encrypted (DRM) content documents cannot be read.
    if let Some(enc) = zip.read_string("META-INF/encryption.xml")?
        && let Ok(enc) = xml::parse(&enc, "META-INF/encryption.xml")
    {
        let mut refs = Vec::new();
        enc.find_all("CipherReference", &mut refs);
        if refs.iter().any(|r| {
            r.attr("URI").is_some_and(|u| {
                let u = u.to_ascii_lowercase();
                u.ends_with(".xhtml") || u.ends_with(".html") || u.ends_with(".htm")
            })
        }) {
            return Err(unsupported(
                "the EPUB is DRM-protected (its chapters are encrypted)",
            ));
        }
    }

    let metadata = package.child("metadata");
    let meta_text = |name: &str| {
        metadata
            .and_then(|m| m.find(name))
            .map(|e| e.text().trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let title = meta_text("title");
    let author = meta_text("creator");

    let mut manifest: HashMap<&str, (&str, &str)> = HashMap::new();
    if let Some(m) = package.child("manifest") {
        for item in m.children_named("item") {
            if let (Some(id), Some(href)) = (item.attr("id"), item.attr("href")) {
                manifest.insert(id, (href, item.attr("media-type").unwrap_or("")));
            }
        }
    }
    let mut spine: Vec<String> = Vec::new();
    if let Some(s) = package.child("spine") {
        for r in s.children_named("itemref") {
            if r.attr("linear") == Some("no") {
                continue;
            }
            if let Some((href, media)) = r.attr("idref").and_then(|id| manifest.get(id))
                && (media.contains("html") || media.is_empty())
            {
                let href = href.split('#').next().unwrap_or(href);
                spine.push(resolve(&opf_path, &percent_decode(href)));
            }
        }
    }
    let mut warnings = Vec::new();
    if spine.is_empty() {
        return Err(unsupported("the EPUB spine lists no readable documents"));
    }
    if spine.len() > MAX_SPINE {
        warnings.push(format!(
            "only the first {MAX_SPINE} of {} spine items are included",
            spine.len()
        ));
        spine.truncate(MAX_SPINE);
    }
    // Chapter file → its section id, so links between chapters stay inside the page.
    let ids: HashMap<String, String> = spine
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), format!("chapter-{}", i + 1)))
        .collect();

    let mut out = String::new();
    for (i, part) in spine.iter().enumerate() {
        let Some(text) = zip.read_string(part)? else {
            warnings.push(format!("{part} (spine item {}) is missing", i + 1));
            continue;
        };
        let doc = match xml::parse(&text, part) {
            Ok(d) => d,
            Err(PluginError::UnsupportedInput(m)) if m.contains("deeper than") || m.contains("XML nodes") => {
                return Err(PluginError::UnsupportedInput(m));
            }
            Err(e) => {
                warnings.push(format!("{part} was skipped: {}", err_text(&e)));
                continue;
            }
        };
        let Some(body) = doc.find("body") else { continue };
        out.push_str(&format!("<section id=\"chapter-{}\">\n", i + 1));
        let ctx = Ctx { part, ids: &ids };
        serialize_children(body, &ctx, &mut out, 0);
        out.push_str("\n</section>\n");
    }

    let mut meta = serde_json::Map::new();
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    if let Some(a) = &author {
        meta.insert("author".into(), json!(a));
    }
    meta.insert("numChapters".into(), json!(spine.len()));
    let mut document = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings {
        document = document.with_warning(w);
    }
    Ok(document)
}

fn err_text(e: &PluginError) -> String {
    match e {
        PluginError::UnsupportedInput(m) | PluginError::Failed(m) | PluginError::InvalidOptions(m) => {
            m.clone()
        }
        #[allow(unreachable_patterns)]
        _ => format!("{e:?}"),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && s.is_char_boundary(i + 1)
            && s.is_char_boundary(i + 3)
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

struct Ctx<'a> {
    part: &'a str,
    ids: &'a HashMap<String, String>,
}

const DROP: &[&str] = &[
    "script", "style", "head", "iframe", "object", "embed", "form", "input", "button", "select", "textarea",
    "noscript", "svg", "math", "link", "meta", "template", "canvas", "audio", "video",
];
const VOID: &[&str] = &["br", "hr", "img", "wbr", "col"];
const KEEP_ATTRS: &[&str] = &["id", "alt", "title", "colspan", "rowspan", "start", "lang", "dir"];

fn serialize_children(e: &Element, ctx: &Ctx, out: &mut String, depth: usize) {
    for n in &e.children {
        match n {
            Node::Text(t) => out.push_str(&esc(t)),
            Node::Elem(c) => serialize(c, ctx, out, depth + 1),
        }
    }
}

fn serialize(e: &Element, ctx: &Ctx, out: &mut String, depth: usize) {
    let name = e.name.to_ascii_lowercase();
    if DROP.contains(&name.as_str()) || depth > 200 {
        return;
    }
    // Structural wrappers from EPUB 3 are kept as plain containers.
    let tag = match name.as_str() {
        "body" | "html" => "div",
        n if n.chars().all(|c| c.is_ascii_alphanumeric()) => n,
        _ => "span",
    };
    out.push('<');
    out.push_str(tag);
    for (k, v) in &e.attrs {
        let k = k.rsplit(':').next().unwrap_or(k);
        if KEEP_ATTRS.contains(&k) {
            out.push_str(&format!(" {k}=\"{}\"", esc(v)));
        }
    }
    if tag == "a"
        && let Some(h) = e.attr("href").and_then(|h| link(h, ctx))
    {
        out.push_str(&format!(" href=\"{h}\""));
    }
    out.push('>');
    if VOID.contains(&tag) {
        return;
    }
    serialize_children(e, ctx, out, depth);
    out.push_str(&format!("</{tag}>"));
}

/// External links as they are; links to another chapter become `#chapter-N` or
/// `#fragment`; other relative links (images, missing files) are dropped.
fn link(href: &str, ctx: &Ctx) -> Option<String> {
    let href = href.trim();
    if href.starts_with('#') {
        return safe_href(href);
    }
    if href.contains(':') {
        return safe_href(href);
    }
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (href, None),
    };
    let target = resolve(ctx.part, &percent_decode(path));
    let chapter = ctx.ids.get(&target)?;
    Some(esc(&match frag {
        Some(f) if !f.is_empty() => format!("#{f}"),
        _ => format!("#{chapter}"),
    }))
}

#[cfg(test)]
mod tests;
