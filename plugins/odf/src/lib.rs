//! Distill converter plugin `odf`: OpenDocument text (.odt) and presentations
//! (.odp) → HTML. (Spreadsheets, .ods, are served by the `spreadsheet` plugin.)
//!
//! ODT: page header, body (text:h headings, text:p, nested text:list ordered or
//! bulleted by list style, table:table, sections, frames/text boxes, links,
//! bold/italic from automatic styles), footnotes/endnotes, page footer.
//! ODP: one section per draw:page, `<h2>Slide N: title</h2>`, frames in document
//! order, tables, speaker notes under `<h3>Notes</h3>`.
//! Metadata: title from meta.xml (else the first heading / slide title),
//! numPages for presentations (slides) and when meta.xml has a page count.

use distill_sdk::documents::{archive, html, xml};

#[allow(dead_code)]
#[allow(dead_code)]
#[allow(dead_code)]
use archive::Archive;
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use html::{esc, safe_href};
use std::collections::HashMap;
use xml::{Element, Node};

/// The plugin.
pub struct Odf;

impl ConverterPlugin for Odf {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("OpenDocument text and presentations (.odt, .odp) to HTML.")
            .extension("odt")
            .extension("odp")
            .content_type("application/vnd.oasis.opendocument.text")
            .content_type("application/vnd.oasis.opendocument.presentation")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Odf);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

#[derive(Default, Clone)]
struct Style {
    parent: Option<String>,
    display: Option<String>,
    bold: Option<bool>,
    italic: Option<bool>,
}

struct Ctx {
    styles: HashMap<String, Style>,
    /// list style name → per level (1-based) ordered?
    list_styles: HashMap<String, HashMap<u32, bool>>,
    notes: Vec<(bool, String)>, // (endnote?, html)
    first_heading: Option<String>,
}

fn collect_styles(root: &Element, ctx: &mut Ctx) {
    for container in ["styles", "automatic-styles"] {
        let mut found = Vec::new();
        root.find_all(container, &mut found);
        for c in found {
            for s in c.elements() {
                match s.name.as_str() {
                    "style" => {
                        let Some(name) = s.attr("style:name") else {
                            continue;
                        };
                        let tp = s.child("text-properties");
                        let style = Style {
                            parent: s.attr("style:parent-style-name").map(str::to_string),
                            display: s.attr("style:display-name").map(str::to_string),
                            bold: tp
                                .and_then(|t| t.attr("fo:font-weight"))
                                .map(|w| w == "bold" || w.parse::<u32>().is_ok_and(|n| n >= 600)),
                            italic: tp
                                .and_then(|t| t.attr("fo:font-style"))
                                .map(|w| w == "italic" || w == "oblique"),
                        };
                        ctx.styles.insert(name.to_string(), style);
                    }
                    "list-style" => {
                        let Some(name) = s.attr("style:name") else {
                            continue;
                        };
                        let mut levels = HashMap::new();
                        for l in s.elements() {
                            if let Some(lvl) = l.attr("text:level").and_then(|v| v.parse().ok()) {
                                let ordered = l.name == "list-level-style-number"
                                    && l.attr("style:num-format").is_none_or(|f| !f.is_empty());
                                levels.insert(lvl, ordered);
                            }
                        }
                        ctx.list_styles.insert(name.to_string(), levels);
                    }
                    _ => {}
                }
            }
        }
    }
}

impl Ctx {
    fn fmt(&self, style: Option<&str>) -> (bool, bool) {
        let (mut bold, mut italic) = (None, None);
        let mut cur = style;
        for _ in 0..10 {
            let Some(s) = cur.and_then(|n| self.styles.get(n)) else {
                break;
            };
            bold = bold.or(s.bold);
            italic = italic.or(s.italic);
            cur = s.parent.as_deref();
        }
        (bold.unwrap_or(false), italic.unwrap_or(false))
    }

    /// Heading level of a paragraph style ("Title" → 1, "Heading 2" → 2).
    fn heading_of(&self, style: Option<&str>) -> Option<u8> {
        let mut cur = style;
        for _ in 0..10 {
            let name = cur?;
            let s = self.styles.get(name);
            let display = s
                .and_then(|s| s.display.as_deref())
                .unwrap_or(name)
                .to_ascii_lowercase()
                .replace("_20_", " ");
            if display == "title" {
                return Some(1);
            }
            if let Some(n) = display
                .strip_prefix("heading ")
                .and_then(|n| n.trim().parse::<u8>().ok())
            {
                return Some(n.clamp(1, 6));
            }
            cur = s?.parent.as_deref();
        }
        None
    }
}

/// Converts ODT/ODP bytes.
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "OpenDocument")?;
    let mimetype = zip.read_string("mimetype")?.unwrap_or_default();
    let Some(content) = zip.read_string("content.xml")? else {
        let names = zip.names();
        let hint = if names.iter().any(|n| n.starts_with("word/")) {
            " (it looks like a Word document)"
        } else if names.iter().any(|n| n.starts_with("ppt/")) {
            " (it looks like a PowerPoint presentation)"
        } else if names.iter().any(|n| n.starts_with("xl/")) {
            " (it looks like an Excel workbook)"
        } else if names.iter().any(|n| n == "META-INF/encryption.xml") {
            " (it is encrypted)"
        } else {
            ""
        };
        return Err(unsupported(format!(
            "not an OpenDocument file: no content.xml{hint}"
        )));
    };
    if zip
        .read_string("META-INF/manifest.xml")?
        .is_some_and(|m| m.contains("encryption-data"))
    {
        return Err(unsupported("the OpenDocument file is password-protected"));
    }
    let content = xml::parse(&content, "content.xml")?;
    let styles_root = match zip.read_string("styles.xml")? {
        Some(s) => Some(xml::parse(&s, "styles.xml")?),
        None => None,
    };
    let mut ctx = Ctx {
        styles: HashMap::new(),
        list_styles: HashMap::new(),
        notes: Vec::new(),
        first_heading: None,
    };
    if let Some(s) = &styles_root {
        collect_styles(s, &mut ctx);
    }
    collect_styles(&content, &mut ctx);

    let body = content
        .find("body")
        .ok_or_else(|| unsupported("content.xml has no office:body"))?;
    let mut out = String::new();
    let mut meta = serde_json::Map::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut first_title = None;

    if let Some(text) = body.child("text") {
        // Page header/footer from the master pages.
        let (headers, footers) = styles_root
            .as_ref()
            .map(|s| master_parts(s, &mut ctx))
            .unwrap_or_default();
        for h in &headers {
            out.push_str(&format!("<div data-part=\"header\">\n{h}</div>\n"));
        }
        out.push_str("<div data-part=\"body\">\n");
        render_blocks(text, &mut ctx, &mut out, 0);
        out.push_str("</div>\n");
        render_notes(&mut ctx, &mut out);
        for f in &footers {
            out.push_str(&format!("<div data-part=\"footer\">\n{f}</div>\n"));
        }
        first_title = ctx.first_heading.clone();
    } else if let Some(pres) = body.child("presentation") {
        let pages: Vec<&Element> = pres.children_named("page").collect();
        meta.insert("numPages".into(), json!(pages.len()));
        for (i, page) in pages.iter().enumerate() {
            let n = i + 1;
            let frames: Vec<&Element> = page.elements().filter(|e| is_drawing(&e.name)).collect();
            let is_title = |f: &Element| matches!(f.attr("presentation:class"), Some("title"));
            let title = frames
                .iter()
                .find(|f| is_title(f))
                .map(|f| f.text().trim().to_string())
                .filter(|t| !t.is_empty());
            if first_title.is_none() {
                first_title = title.clone();
            }
            out.push_str("<section>\n");
            match &title {
                Some(t) => out.push_str(&format!("<h2>Slide {n}: {}</h2>\n", esc(t))),
                None => out.push_str(&format!("<h2>Slide {n}</h2>\n")),
            }
            for f in frames.iter().filter(|f| !is_title(f)) {
                if matches!(
                    f.attr("presentation:class"),
                    Some("page-number" | "date-time" | "footer" | "header")
                ) {
                    continue;
                }
                render_frame(f, &mut ctx, &mut out, 1);
            }
            if let Some(notes) = page.child("notes") {
                let mut nb = String::new();
                for f in notes
                    .elements()
                    .filter(|f| f.attr("presentation:class") == Some("notes"))
                {
                    render_frame(f, &mut ctx, &mut nb, 1);
                }
                if !nb.trim().is_empty() {
                    out.push_str("<h3>Notes</h3>\n");
                    out.push_str(&nb);
                }
            }
            render_notes(&mut ctx, &mut out);
            out.push_str("</section>\n");
        }
    } else if body.child("spreadsheet").is_some() {
        return Err(unsupported(
            "this is an OpenDocument spreadsheet (.ods); the spreadsheet converter handles it",
        ));
    } else {
        return Err(unsupported(format!("unsupported OpenDocument type {mimetype:?}")));
    }

    let mut title = None;
    if let Some(m) = zip.read_string("meta.xml")? {
        if let Ok(m) = xml::parse(&m, "meta.xml") {
            title = m
                .find("title")
                .map(|t| t.text().trim().to_string())
                .filter(|t| !t.is_empty());
            if let Some(pages) = m
                .find("document-statistic")
                .and_then(|s| s.attr("meta:page-count"))
            {
                if let Ok(p) = pages.parse::<u32>() {
                    meta.entry("numPages").or_insert(json!(p));
                }
            }
        }
    }
    let title = title.or(first_title);
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    let mut doc = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings.drain(..) {
        doc = doc.with_warning(w);
    }
    Ok(doc)
}

fn master_parts(styles: &Element, ctx: &mut Ctx) -> (Vec<String>, Vec<String>) {
    let mut headers = Vec::new();
    let mut footers = Vec::new();
    let mut masters = Vec::new();
    styles.find_all("master-page", &mut masters);
    for m in masters {
        for (name, list) in [("header", &mut headers), ("footer", &mut footers)] {
            if let Some(h) = m.child(name) {
                let mut s = String::new();
                render_blocks(h, ctx, &mut s, 0);
                if !s.trim().is_empty() && !list.contains(&s) {
                    list.push(s);
                }
            }
        }
    }
    (headers, footers)
}

fn render_notes(ctx: &mut Ctx, out: &mut String) {
    let notes = std::mem::take(&mut ctx.notes);
    for (endnote, title) in [(false, "Footnotes"), (true, "Endnotes")] {
        let items: Vec<&String> = notes.iter().filter(|n| n.0 == endnote).map(|n| &n.1).collect();
        if items.is_empty() {
            continue;
        }
        let kind = if endnote { "endnotes" } else { "footnotes" };
        out.push_str(&format!(
            "<div data-part=\"{kind}\">\n<hr>\n<p><strong>{title}</strong></p>\n"
        ));
        for (n, i) in items.iter().enumerate() {
            let label = if endnote {
                roman(n + 1)
            } else {
                (n + 1).to_string()
            };
            out.push_str(&format!("<p>[{label}] {}</p>\n", i.trim()));
        }
        out.push_str("</div>\n");
    }
}

fn render_blocks(parent: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    let children: Vec<&Element> = parent.elements().collect();
    let mut k = 0;
    while k < children.len() {
        let e = children[k];
        k += 1;
        match e.name.as_str() {
            "list" => {
                let style = e.attr("text:style-name").map(str::to_string);
                let mut items: Vec<&Element> = list_items(e).collect();
                while k < children.len()
                    && (children[k].name == "soft-page-break"
                        || (children[k].name == "list"
                            && list_kind(ctx, children[k].attr("text:style-name"))
                                == list_kind(ctx, style.as_deref())))
                {
                    items.extend(list_items(children[k]));
                    k += 1;
                }
                render_list(&items, ctx, out, style, 1, depth + 1);
            }
            "h" => {
                let lvl: u8 = e
                    .attr("text:outline-level")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1)
                    .clamp(1, 6);
                let content = render_inline(e, ctx, depth);
                if !content.trim().is_empty() {
                    if ctx.first_heading.is_none() {
                        ctx.first_heading = Some(e.text().trim().to_string());
                    }
                    out.push_str(&format!("<h{lvl}>{}</h{lvl}>\n", content.trim()));
                }
            }
            "p" => {
                let content = render_inline(e, ctx, depth);
                let frames = paragraph_frames(e, ctx, depth);
                if !content.trim().is_empty() {
                    if let Some(h) = ctx.heading_of(e.attr("text:style-name")) {
                        if ctx.first_heading.is_none() {
                            ctx.first_heading = Some(e.text().trim().to_string());
                        }
                        out.push_str(&format!("<h{h}>{}</h{h}>\n", content.trim()));
                    } else {
                        out.push_str(&format!("<p>{}</p>\n", content.trim()));
                    }
                }
                out.push_str(&frames);
            }
            "table" => render_table(e, ctx, out, depth + 1),
            "section"
            | "index-body"
            | "table-of-content"
            | "alphabetical-index"
            | "illustration-index"
            | "table-index"
            | "bibliography"
            | "user-index"
            | "object-index"
            | "text-box"
            | "deletion-placeholder" => render_blocks(e, ctx, out, depth + 1),
            "index-title" => render_blocks(e, ctx, out, depth + 1),
            "frame" => render_frame(e, ctx, out, depth + 1),
            "tracked-changes" => {}
            _ => {}
        }
    }
}

/// Elements of a drawing that can carry text: frames, groups, and shapes
/// (LibreOffice and PowerPoint imports write text boxes as `draw:custom-shape`).
fn is_drawing(name: &str) -> bool {
    matches!(
        name,
        "frame"
            | "g"
            | "custom-shape"
            | "rect"
            | "ellipse"
            | "circle"
            | "polygon"
            | "regular-polygon"
            | "path"
            | "caption"
    )
}

/// Frames and shapes anchored in a paragraph (text boxes, images) rendered after it.
fn paragraph_frames(p: &Element, ctx: &mut Ctx, depth: usize) -> String {
    let mut frames = Vec::new();
    p.find_all("frame", &mut frames);
    p.find_all("custom-shape", &mut frames);
    let mut s = String::new();
    for f in frames {
        render_frame(f, ctx, &mut s, depth + 1);
    }
    s
}

fn render_frame(f: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    if f.name == "g" {
        for c in f.elements().filter(|c| is_drawing(&c.name)) {
            render_frame(c, ctx, out, depth + 1);
        }
        return;
    }
    if f.name != "frame" {
        // A shape (text box drawn as a rectangle, callout, ...) holds its paragraphs directly.
        render_blocks(f, ctx, out, depth + 1);
        return;
    }
    for c in f.elements() {
        match c.name.as_str() {
            "text-box" => render_blocks(c, ctx, out, depth + 1),
            "table" => render_table(c, ctx, out, depth + 1),
            "image" => {
                if f.child("text-box").is_none() {
                    let alt = f
                        .child("desc")
                        .or(f.child("title"))
                        .map(|d| d.text())
                        .unwrap_or_default();
                    if !alt.trim().is_empty() {
                        out.push_str(&format!("<p><img alt=\"{}\"></p>\n", esc(alt.trim())));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether level 1 of list style `style` is numbered.
fn list_kind(ctx: &Ctx, style: Option<&str>) -> bool {
    style
        .and_then(|s| ctx.list_styles.get(s))
        .and_then(|l| l.get(&1))
        .copied()
        .unwrap_or(false)
}

fn list_items(list: &Element) -> impl Iterator<Item = &Element> {
    list.elements()
        .filter(|e| e.name == "list-item" || e.name == "list-header")
}

fn has_text(item: &Element) -> bool {
    item.elements()
        .any(|c| (c.name == "p" || c.name == "h") && !c.text().trim().is_empty())
}

/// Renders one list made of `items` (consecutive sibling lists are merged: LibreOffice
/// writes one `text:list` per paragraph in presentations).
fn render_list(
    items: &[&Element],
    ctx: &mut Ctx,
    out: &mut String,
    style: Option<String>,
    level: u32,
    depth: usize,
) {
    if depth > 64 || items.is_empty() {
        return;
    }
    let ordered = style
        .as_deref()
        .and_then(|s| ctx.list_styles.get(s))
        .and_then(|l| l.get(&level.min(10)))
        .copied()
        .unwrap_or(false);
    let tag = if ordered { "ol" } else { "ul" };
    out.push_str(&format!("<{tag}>\n"));
    let mut i = 0;
    while i < items.len() {
        let item = items[i];
        out.push_str("<li>");
        let mut first = true;
        let mut nested: Vec<&Element> = Vec::new();
        let mut nested_style = None;
        for c in item.elements() {
            match c.name.as_str() {
                "p" | "h" => {
                    let content = render_inline(c, ctx, depth);
                    if !content.trim().is_empty() {
                        if !first {
                            out.push_str("<br>");
                        }
                        out.push_str(content.trim());
                        first = false;
                    }
                }
                "list" => {
                    nested_style = nested_style.or(c.attr("text:style-name").map(str::to_string));
                    nested.extend(list_items(c));
                }
                "table" => render_table(c, ctx, out, depth + 1),
                _ => {}
            }
        }
        // Following items that only hold a deeper list belong to this item.
        let mut j = i + 1;
        while j < items.len() && !has_text(items[j]) {
            for c in items[j].children_named("list") {
                nested_style = nested_style.or(c.attr("text:style-name").map(str::to_string));
                nested.extend(list_items(c));
            }
            j += 1;
        }
        if !nested.is_empty() {
            render_list(
                &nested,
                ctx,
                out,
                nested_style.or(style.clone()),
                level + 1,
                depth + 1,
            );
        }
        out.push_str("</li>\n");
        i = j;
    }
    out.push_str(&format!("</{tag}>\n"));
}

fn render_table(t: &Element, ctx: &mut Ctx, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    let mut rows = Vec::new();
    collect_rows(t, &mut rows, 0);
    out.push_str("<table>\n");
    let mut rendered = 0usize;
    for (i, row) in rows.iter().enumerate() {
        // Repeated empty rows (common at the end of sheets/tables) are not expanded.
        let repeat: usize = row
            .attr("table:number-rows-repeated")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let mut cells = String::new();
        let tag = if i == 0 { "th" } else { "td" };
        let mut any = false;
        for c in row.elements() {
            if c.name == "covered-table-cell" {
                continue;
            }
            if c.name != "table-cell" {
                continue;
            }
            let rep: usize = c
                .attr("table:number-columns-repeated")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1);
            let mut inner = String::new();
            for (j, p) in c.elements().enumerate() {
                match p.name.as_str() {
                    "p" | "h" => {
                        let s = render_inline(p, ctx, depth);
                        if !s.trim().is_empty() {
                            if j > 0 && !inner.is_empty() {
                                inner.push_str("<br>");
                            }
                            inner.push_str(s.trim());
                        }
                    }
                    "list" => {
                        let items: Vec<&Element> = list_items(p).collect();
                        render_list(
                            &items,
                            ctx,
                            &mut inner,
                            p.attr("text:style-name").map(str::to_string),
                            1,
                            depth + 1,
                        )
                    }
                    "table" => render_table(p, ctx, &mut inner, depth + 1),
                    _ => {}
                }
            }
            if !inner.is_empty() {
                any = true;
            }
            let mut attrs = String::new();
            for (a, h) in [
                ("table:number-columns-spanned", "colspan"),
                ("table:number-rows-spanned", "rowspan"),
            ] {
                if let Some(n) = c.attr(a).and_then(|v| v.parse::<u32>().ok()).filter(|n| *n > 1) {
                    attrs.push_str(&format!(" {h}=\"{}\"", n.min(1000)));
                }
            }
            for _ in 0..if inner.is_empty() { rep.min(1) } else { rep.min(64) } {
                cells.push_str(&format!("<{tag}{attrs}>{inner}</{tag}>"));
            }
        }
        if !any && repeat > 1 {
            continue;
        }
        for _ in 0..repeat.min(if any { 64 } else { 1 }) {
            out.push_str(&format!("<tr>{cells}</tr>\n"));
            rendered += 1;
        }
        if rendered > 100_000 {
            break;
        }
    }
    out.push_str("</table>\n");
}

fn collect_rows<'a>(t: &'a Element, out: &mut Vec<&'a Element>, depth: usize) {
    if depth > 8 {
        return;
    }
    for e in t.elements() {
        match e.name.as_str() {
            "table-row" => out.push(e),
            "table-header-rows" | "table-rows" | "table-row-group" => collect_rows(e, out, depth + 1),
            _ => {}
        }
    }
}

fn render_inline(p: &Element, ctx: &mut Ctx, depth: usize) -> String {
    let mut s = String::new();
    inline(p, ctx, &mut s, (false, false), depth);
    s.replace("</strong><strong>", "").replace("</em><em>", "")
}

fn inline(e: &Element, ctx: &mut Ctx, out: &mut String, fmt: (bool, bool), depth: usize) {
    if depth > 96 {
        return;
    }
    for n in &e.children {
        match n {
            Node::Text(t) => {
                // ODF collapses whitespace in text content (spaces are text:s).
                let collapsed = collapse(t);
                push_fmt(out, &esc(&collapsed), fmt, collapsed.trim().is_empty());
            }
            Node::Elem(c) => match c.name.as_str() {
                "span" => {
                    let (b, i) = ctx.fmt(c.attr("text:style-name"));
                    inline(c, ctx, out, (fmt.0 || b, fmt.1 || i), depth + 1);
                }
                "a" => {
                    let href = c.attr("xlink:href").and_then(safe_href);
                    let mut inner = String::new();
                    inline(c, ctx, &mut inner, fmt, depth + 1);
                    match href {
                        Some(h) => out.push_str(&format!("<a href=\"{h}\">{inner}</a>")),
                        None => out.push_str(&inner),
                    }
                }
                "s" => {
                    let n: usize = c.attr("text:c").and_then(|v| v.parse().ok()).unwrap_or(1);
                    out.push_str(&" ".repeat(n.min(100)));
                }
                "tab" => out.push(' '),
                "line-break" => out.push_str("<br>"),
                "note" => {
                    let endnote = c.attr("text:note-class") == Some("endnote");
                    let mut body = String::new();
                    if let Some(b) = c.child("note-body") {
                        let mut inner = String::new();
                        render_blocks(b, ctx, &mut inner, depth + 1);
                        body = inner.replace("<p>", "").replace("</p>\n", " ");
                    }
                    ctx.notes.push((endnote, body));
                    let n = ctx.notes.iter().filter(|x| x.0 == endnote).count();
                    let label = if endnote { roman(n) } else { n.to_string() };
                    out.push_str(&format!("[{label}]"));
                }
                "frame" | "note-citation" | "annotation" | "tracked-changes" => {}
                "ruby" => {
                    if let Some(b) = c.child("ruby-base") {
                        inline(b, ctx, out, fmt, depth + 1);
                    }
                }
                _ => inline(c, ctx, out, fmt, depth + 1),
            },
        }
    }
}

fn collapse(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    let mut prev_space = false;
    for ch in t.chars() {
        if ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r' {
            if !prev_space {
                s.push(' ');
            }
            prev_space = true;
        } else {
            s.push(ch);
            prev_space = false;
        }
    }
    s
}

fn push_fmt(out: &mut String, text: &str, (bold, italic): (bool, bool), blank: bool) {
    if blank || (!bold && !italic) {
        out.push_str(text);
        return;
    }
    let mut t = text.to_string();
    if italic {
        t = format!("<em>{t}</em>");
    }
    if bold {
        t = format!("<strong>{t}</strong>");
    }
    out.push_str(&t);
}

fn roman(mut n: usize) -> String {
    const T: [(usize, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut s = String::new();
    for (v, r) in T {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

#[cfg(test)]
mod tests;
