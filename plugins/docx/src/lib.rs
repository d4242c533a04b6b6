//! Distill converter plugin `docx`: Word (OOXML) documents → HTML.
//!
//! Order of the output: page headers, body, footnotes, endnotes, page footers.
//! Handles headings (paragraph styles Title / Heading 1-6 / outline levels),
//! numbered and bulleted lists with nesting, tables (colspan/rowspan), hyperlinks
//! (relationship targets, anchors, HYPERLINK fields), bold/italic/strike/sub/sup,
//! line breaks, content controls, tracked insertions (deletions dropped),
//! footnotes and endnotes. Metadata: title/author from docProps/core.xml, numPages
//! from docProps/app.xml.

use distill_sdk::documents::{archive, html, xml};

#[allow(dead_code)]
#[allow(dead_code)]
#[allow(dead_code)]
use archive::{Archive, resolve};
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use html::{ListNest, esc, safe_href};
use std::collections::HashMap;
use xml::{Element, Node};

/// The plugin.
pub struct Docx;

impl ConverterPlugin for Docx {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Word documents (.docx, .docm) to HTML: headings, lists, tables, links, notes, headers and footers.")
            .extension("docx")
            .extension("docm")
            .content_type("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
            .content_type("application/vnd.ms-word.document.macroenabled.12")
            .memory_limit_mib(512)
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_bytes(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Docx);

/// Converts DOCX bytes into a [`Document`].
pub fn convert_bytes(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut zip = Archive::open(bytes, "DOCX")?;
    let main = main_part(&mut zip)?;
    let doc_xml = zip.read_string(&main)?.ok_or_else(|| {
        PluginError::UnsupportedInput(format!(
            "not a Word document: the archive has no {main} (is the extension right?)"
        ))
    })?;
    let doc = xml::parse(&doc_xml, &main)?;
    drop(doc_xml);
    let body = doc.path(&["document", "body"]).ok_or_else(|| {
        PluginError::UnsupportedInput(format!(
            "not a Word document: {main} has no w:document/w:body{}",
            kind_hint(&zip)
        ))
    })?;

    let rels = read_rels(&mut zip, &main)?;
    let styles = read_styles(&mut zip, &resolve(&main, "styles.xml"))?;
    let numbering = read_numbering(&mut zip, &resolve(&main, "numbering.xml"))?;
    let mut warnings = Vec::new();

    let mut ctx = Ctx {
        rels: &rels,
        styles: &styles,
        numbering: &numbering,
        footnote_refs: Vec::new(),
        endnote_refs: Vec::new(),
        first_heading: None,
    };

    // Headers and footers referenced from the section properties, in order.
    let mut header_ids = Vec::new();
    let mut footer_ids = Vec::new();
    let mut sect = Vec::new();
    body.find_all("sectPr", &mut sect);
    for s in &sect {
        for h in s.children_named("headerReference") {
            if let Some(id) = h.attr("r:id") {
                push_unique(&mut header_ids, id);
            }
        }
        for f in s.children_named("footerReference") {
            if let Some(id) = f.attr("r:id") {
                push_unique(&mut footer_ids, id);
            }
        }
    }

    let mut out = String::new();
    let headers = render_parts(&mut zip, &main, &header_ids, &mut ctx)?;
    for h in &headers {
        out.push_str("<div data-part=\"header\">\n");
        out.push_str(h);
        out.push_str("</div>\n");
    }
    out.push_str("<div data-part=\"body\">\n");
    render_blocks(body, &mut ctx, &mut out, false);
    out.push_str("</div>\n");

    for (kind, part_name, list) in [
        (
            "footnotes",
            "footnotes.xml",
            std::mem::take(&mut ctx.footnote_refs),
        ),
        ("endnotes", "endnotes.xml", std::mem::take(&mut ctx.endnote_refs)),
    ] {
        if list.is_empty() {
            continue;
        }
        let part = rels
            .values()
            .find(|r| {
                r.kind.ends_with(&format!("/{}", &kind[..kind.len() - 1]))
                    || r.kind.ends_with(&format!("/{kind}"))
            })
            .map(|r| resolve(&main, &r.target))
            .unwrap_or_else(|| resolve(&main, part_name));
        let Some(text) = zip.read_string(&part)? else {
            warnings.push(format!("the document references {kind} but has no {part}"));
            continue;
        };
        let notes = xml::parse(&text, &part)?;
        let note_tag = &kind[..kind.len() - 1];
        let mut by_id: HashMap<&str, &Element> = HashMap::new();
        if let Some(root) = notes.child(kind) {
            for n in root.children_named(note_tag) {
                if let Some(id) = n.attr("id") {
                    by_id.insert(id, n);
                }
            }
        }
        let title = if kind == "footnotes" {
            "Footnotes"
        } else {
            "Endnotes"
        };
        out.push_str(&format!(
            "<div data-part=\"{kind}\">\n<hr>\n<p><strong>{title}</strong></p>\n"
        ));
        for (i, id) in list.iter().enumerate() {
            let label = if kind == "endnotes" {
                roman(i + 1)
            } else {
                (i + 1).to_string()
            };
            let mut inner = String::new();
            if let Some(n) = by_id.get(id.as_str()) {
                render_blocks(n, &mut ctx, &mut inner, true);
            }
            out.push_str(&format!("<p>[{label}] {}</p>\n", inner.trim()));
        }
        out.push_str("</div>\n");
    }

    let footers = render_parts(&mut zip, &main, &footer_ids, &mut ctx)?;
    for f in &footers {
        out.push_str("<div data-part=\"footer\">\n");
        out.push_str(f);
        out.push_str("</div>\n");
    }

    // Metadata.
    let props = read_core_props(&mut zip)?;
    let mut meta = serde_json::Map::new();
    let title = props.title.clone().or_else(|| ctx.first_heading.clone());
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    if let Some(a) = &props.creator {
        meta.insert("author".into(), json!(a));
    }
    if let Some(app) = zip.read_string("docProps/app.xml")? {
        if let Ok(app) = xml::parse(&app, "docProps/app.xml") {
            if let Some(p) = app.find("Pages").map(|p| p.text()) {
                if let Ok(n) = p.trim().parse::<u32>() {
                    if n > 0 {
                        meta.insert("numPages".into(), json!(n));
                    }
                }
            }
        }
    }
    let mut document = Document::html(html::page(title.as_deref(), &out)).with_metadata(Value::Object(meta));
    for w in warnings {
        document = document.with_warning(w);
    }
    Ok(document)
}

fn push_unique(list: &mut Vec<String>, id: &str) {
    if !list.iter().any(|x| x == id) {
        list.push(id.to_string());
    }
}

fn render_parts(
    zip: &mut Archive,
    main: &str,
    ids: &[String],
    ctx: &mut Ctx,
) -> Result<Vec<String>, PluginError> {
    let mut seen = Vec::<String>::new();
    for id in ids {
        let Some(rel) = ctx.rels.get(id) else { continue };
        let part = resolve(main, &rel.target);
        let Some(text) = zip.read_string(&part)? else {
            continue;
        };
        let root = xml::parse(&text, &part)?;
        let Some(el) = root.elements().next() else {
            continue;
        };
        let mut html = String::new();
        render_blocks(el, ctx, &mut html, false);
        // Skip empty or duplicate (first page / even page copies) headers.
        let plain = strip_tags(&html);
        if plain.trim().is_empty() || seen.iter().any(|s| strip_tags(s) == plain) {
            continue;
        }
        seen.push(html);
    }
    Ok(seen)
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn main_part(zip: &mut Archive) -> Result<String, PluginError> {
    if let Some(text) = zip.read_string("_rels/.rels")? {
        if let Ok(root) = xml::parse(&text, "_rels/.rels") {
            if let Some(rels) = root.child("Relationships") {
                for r in rels.children_named("Relationship") {
                    if r.attr("Type").is_some_and(|t| t.ends_with("/officeDocument")) {
                        if let Some(t) = r.attr("Target") {
                            return Ok(t.trim_start_matches('/').to_string());
                        }
                    }
                }
            }
        }
    }
    if zip.contains("word/document.xml") {
        return Ok("word/document.xml".into());
    }
    Err(PluginError::UnsupportedInput(format!(
        "not a Word document: no word/document.xml in the archive{}",
        kind_hint(zip)
    )))
}

fn kind_hint(zip: &Archive) -> &'static str {
    let names = zip.names();
    if names.iter().any(|n| n.starts_with("xl/")) {
        " (it looks like an Excel workbook)"
    } else if names.iter().any(|n| n.starts_with("ppt/")) {
        " (it looks like a PowerPoint presentation)"
    } else if names.iter().any(|n| n == "content.xml") {
        " (it looks like an OpenDocument file)"
    } else {
        ""
    }
}

struct Rel {
    kind: String,
    target: String,
    external: bool,
}

fn read_rels(zip: &mut Archive, part: &str) -> Result<HashMap<String, Rel>, PluginError> {
    let (dir, file) = part.rsplit_once('/').unwrap_or(("", part));
    let name = if dir.is_empty() {
        format!("_rels/{file}.rels")
    } else {
        format!("{dir}/_rels/{file}.rels")
    };
    let mut map = HashMap::new();
    let Some(text) = zip.read_string(&name)? else {
        return Ok(map);
    };
    let root = xml::parse(&text, &name)?;
    if let Some(rels) = root.child("Relationships") {
        for r in rels.children_named("Relationship") {
            if let (Some(id), Some(target)) = (r.attr("Id"), r.attr("Target")) {
                map.insert(
                    id.to_string(),
                    Rel {
                        kind: r.attr("Type").unwrap_or("").to_string(),
                        target: target.to_string(),
                        external: r
                            .attr("TargetMode")
                            .is_some_and(|m| m.eq_ignore_ascii_case("External")),
                    },
                );
            }
        }
    }
    Ok(map)
}

#[derive(Default, Clone)]
struct Style {
    name: String,
    based_on: Option<String>,
    outline: Option<u8>,
    num: Option<(String, u8)>,
}

fn read_styles(zip: &mut Archive, part: &str) -> Result<HashMap<String, Style>, PluginError> {
    let mut map = HashMap::new();
    let Some(text) = zip.read_string(part)? else {
        return Ok(map);
    };
    // Run, table and latent style details are not needed: skip them (big in Word's templates).
    let root = xml::parse_skipping(
        &text,
        part,
        &[
            "latentStyles",
            "docDefaults",
            "rPr",
            "tblPr",
            "tcPr",
            "trPr",
            "tblStylePr",
        ],
    )?;
    let Some(styles) = root.child("styles") else {
        return Ok(map);
    };
    for s in styles.children_named("style") {
        if s.attr("type") != Some("paragraph") {
            continue;
        }
        let Some(id) = s.attr("styleId") else { continue };
        let ppr = s.child("pPr");
        let style = Style {
            name: s
                .child("name")
                .and_then(|n| n.attr("val"))
                .unwrap_or(id)
                .to_string(),
            based_on: s.child("basedOn").and_then(|b| b.attr("val")).map(str::to_string),
            outline: ppr
                .and_then(|p| p.child("outlineLvl"))
                .and_then(|o| o.attr("val"))
                .and_then(|v| v.parse().ok()),
            num: ppr.and_then(|p| p.child("numPr")).and_then(|n| {
                let id = n.child("numId")?.attr("val")?.to_string();
                let lvl = n
                    .child("ilvl")
                    .and_then(|l| l.attr("val"))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                Some((id, lvl))
            }),
        };
        map.insert(id.to_string(), style);
    }
    Ok(map)
}

struct Numbering {
    /// numId → abstractNumId
    nums: HashMap<String, String>,
    /// (abstractNumId, level) → ordered?
    ordered: HashMap<(String, u8), bool>,
}

fn read_numbering(zip: &mut Archive, part: &str) -> Result<Numbering, PluginError> {
    let mut n = Numbering {
        nums: HashMap::new(),
        ordered: HashMap::new(),
    };
    let Some(text) = zip.read_string(part)? else {
        return Ok(n);
    };
    let root = xml::parse(&text, part)?;
    let Some(numbering) = root.child("numbering") else {
        return Ok(n);
    };
    for a in numbering.children_named("abstractNum") {
        let Some(aid) = a.attr("abstractNumId") else {
            continue;
        };
        for lvl in a.children_named("lvl") {
            let Some(l) = lvl.attr("ilvl").and_then(|v| v.parse().ok()) else {
                continue;
            };
            let fmt = lvl
                .child("numFmt")
                .and_then(|f| f.attr("val"))
                .unwrap_or("decimal");
            if fmt == "none" {
                continue;
            }
            n.ordered.insert((aid.to_string(), l), fmt != "bullet");
        }
    }
    for num in numbering.children_named("num") {
        if let (Some(id), Some(aid)) = (
            num.attr("numId"),
            num.child("abstractNumId").and_then(|a| a.attr("val")),
        ) {
            n.nums.insert(id.to_string(), aid.to_string());
        }
    }
    Ok(n)
}

struct CoreProps {
    title: Option<String>,
    creator: Option<String>,
}

fn read_core_props(zip: &mut Archive) -> Result<CoreProps, PluginError> {
    let mut p = CoreProps {
        title: None,
        creator: None,
    };
    let Some(text) = zip.read_string("docProps/core.xml")? else {
        return Ok(p);
    };
    let Ok(root) = xml::parse(&text, "docProps/core.xml") else {
        return Ok(p);
    };
    let nonempty = |e: Option<&Element>| e.map(|e| e.text().trim().to_string()).filter(|s| !s.is_empty());
    p.title = nonempty(root.find("title"));
    p.creator = nonempty(root.find("creator"));
    Ok(p)
}

struct Ctx<'a> {
    rels: &'a HashMap<String, Rel>,
    styles: &'a HashMap<String, Style>,
    numbering: &'a Numbering,
    footnote_refs: Vec<String>,
    endnote_refs: Vec<String>,
    first_heading: Option<String>,
}

impl Ctx<'_> {
    /// Heading level (1-6) of a paragraph with style `id` and direct outline level.
    fn heading_level(&self, style_id: Option<&str>, outline: Option<u8>) -> Option<u8> {
        if let Some(o) = outline {
            return (o < 6).then_some(o + 1);
        }
        let mut id = style_id?;
        for _ in 0..10 {
            let style = self.styles.get(id);
            let name = style.map(|s| s.name.as_str()).unwrap_or(id).to_ascii_lowercase();
            let compact: String = name.chars().filter(|c| !c.is_whitespace()).collect();
            if compact == "title" {
                return Some(1);
            }
            if let Some(n) = compact.strip_prefix("heading").and_then(|r| r.parse::<u8>().ok()) {
                return Some(n.clamp(1, 6));
            }
            let style = style?;
            if let Some(o) = style.outline {
                return (o < 6).then_some(o + 1);
            }
            id = style.based_on.as_deref()?;
        }
        None
    }

    /// Numbering of a paragraph: (level, ordered).
    fn list_info(&self, ppr: Option<&Element>, style_id: Option<&str>) -> Option<(u8, bool)> {
        let direct = ppr.and_then(|p| p.child("numPr"));
        let (num_id, lvl) = if let Some(n) = direct {
            let id = n.child("numId").and_then(|e| e.attr("val"));
            let lvl = n
                .child("ilvl")
                .and_then(|l| l.attr("val"))
                .and_then(|v| v.parse().ok());
            match id {
                Some(id) => (id.to_string(), lvl.unwrap_or(0)),
                None => {
                    let (sid, slvl) = self.style_num(style_id)?;
                    (sid, lvl.unwrap_or(slvl))
                }
            }
        } else {
            self.style_num(style_id)?
        };
        if num_id == "0" {
            return None;
        }
        // Unknown numbering or a level without visible numbers: not a list.
        let ordered = *self
            .numbering
            .nums
            .get(&num_id)
            .and_then(|aid| self.numbering.ordered.get(&(aid.clone(), lvl)))?;
        // Word's built-in "List Bullet 2" / "List Number 3" styles use level 0 of
        // their own numbering; the number in the name is the visual level.
        let mut lvl = lvl;
        if lvl == 0 && direct.is_none() {
            if let Some(name) = style_id
                .and_then(|id| self.styles.get(id))
                .map(|s| s.name.to_ascii_lowercase())
            {
                if name.starts_with("list") {
                    if let Some(n) = name.rsplit(' ').next().and_then(|n| n.parse::<u8>().ok()) {
                        lvl = n.saturating_sub(1);
                    }
                }
            }
        }
        Some((lvl.min(8), ordered))
    }

    fn style_num(&self, style_id: Option<&str>) -> Option<(String, u8)> {
        let mut id = style_id?;
        for _ in 0..10 {
            let s = self.styles.get(id)?;
            if let Some(n) = &s.num {
                return Some(n.clone());
            }
            id = s.based_on.as_deref()?;
        }
        None
    }
}

/// An open list level: tag and whether an `<li>` is open.
/// Renders the block-level children of `parent` (body, cell, header, note, ...).
/// `compact`: paragraphs joined by `<br>` (table cells, notes).
fn render_blocks(parent: &Element, ctx: &mut Ctx, out: &mut String, compact: bool) {
    let mut blocks: Vec<&Element> = Vec::new();
    flatten_blocks(parent, &mut blocks, 0);
    let mut lists = ListNest::default();
    let mut first = true;
    for b in blocks {
        match b.name.as_str() {
            "p" => {
                let ppr = b.child("pPr");
                let style_id = ppr.and_then(|p| p.child("pStyle")).and_then(|s| s.attr("val"));
                let outline = ppr
                    .and_then(|p| p.child("outlineLvl"))
                    .and_then(|o| o.attr("val"))
                    .and_then(|v| v.parse().ok());
                let content = render_inline(b, ctx);
                let heading = if compact {
                    None
                } else {
                    ctx.heading_level(style_id, outline)
                };
                let list = if heading.is_some() {
                    None
                } else {
                    ctx.list_info(ppr, style_id)
                };
                if let Some((lvl, ordered)) = list {
                    lists.item(out, lvl as usize + 1, ordered, &content);
                    continue;
                }
                lists.close(out, 0);
                if content.trim().is_empty() {
                    continue;
                }
                if let Some(h) = heading {
                    if ctx.first_heading.is_none() {
                        let t = strip_tags(&content).trim().to_string();
                        if !t.is_empty() {
                            ctx.first_heading = Some(unescape_basic(&t));
                        }
                    }
                    out.push_str(&format!("<h{h}>{}</h{h}>\n", content.trim()));
                } else if compact {
                    if !first {
                        out.push_str("<br>");
                    }
                    out.push_str(&content);
                } else {
                    out.push_str("<p>");
                    out.push_str(&content);
                    out.push_str("</p>\n");
                }
                first = false;
            }
            "tbl" => {
                lists.close(out, 0);
                render_table(b, ctx, out);
                first = false;
            }
            _ => {}
        }
    }
    lists.close(out, 0);
}

fn unescape_basic(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// Collects paragraphs and tables, looking through content controls and custom XML.
fn flatten_blocks<'a>(parent: &'a Element, out: &mut Vec<&'a Element>, depth: usize) {
    if depth > 64 {
        return;
    }
    for e in parent.elements() {
        match e.name.as_str() {
            "p" | "tbl" => out.push(e),
            "sdt" => {
                if let Some(c) = e.child("sdtContent") {
                    flatten_blocks(c, out, depth + 1);
                }
            }
            "customXml" | "ins" | "smartTag" | "sdtContent" => flatten_blocks(e, out, depth + 1),
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    flatten_blocks(c, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Default)]
struct Fmt {
    bold: bool,
    italic: bool,
    strike: bool,
    sup: bool,
    sub: bool,
}

fn on(e: Option<&Element>) -> bool {
    match e {
        None => false,
        Some(e) => !matches!(e.attr("val"), Some("0" | "false" | "off" | "none")),
    }
}

fn run_fmt(r: &Element) -> Fmt {
    let Some(rpr) = r.child("rPr") else {
        return Fmt::default();
    };
    let va = rpr.child("vertAlign").and_then(|v| v.attr("val"));
    Fmt {
        bold: on(rpr.child("b")),
        italic: on(rpr.child("i")),
        strike: on(rpr.child("strike")) || on(rpr.child("dstrike")),
        sup: va == Some("superscript"),
        sub: va == Some("subscript"),
    }
}

/// Inline HTML builder that merges adjacent runs with the same formatting.
struct Inline {
    out: String,
    cur: Fmt,
}

impl Inline {
    fn open(&mut self, f: Fmt) {
        if f.bold {
            self.out.push_str("<strong>");
        }
        if f.italic {
            self.out.push_str("<em>");
        }
        if f.strike {
            self.out.push_str("<s>");
        }
        if f.sup {
            self.out.push_str("<sup>");
        }
        if f.sub {
            self.out.push_str("<sub>");
        }
    }
    fn close(&mut self) {
        let f = self.cur;
        if f.sub {
            self.out.push_str("</sub>");
        }
        if f.sup {
            self.out.push_str("</sup>");
        }
        if f.strike {
            self.out.push_str("</s>");
        }
        if f.italic {
            self.out.push_str("</em>");
        }
        if f.bold {
            self.out.push_str("</strong>");
        }
        self.cur = Fmt::default();
    }
    fn text(&mut self, s: &str, f: Fmt) {
        if s.is_empty() {
            return;
        }
        if f != self.cur && !s.trim().is_empty() {
            self.close();
            self.open(f);
            self.cur = f;
        }
        self.out.push_str(&esc(s));
    }
    fn raw(&mut self, s: &str) {
        self.close();
        self.out.push_str(s);
    }
}

/// State of complex fields (`w:fldChar`) within a paragraph.
#[derive(Default)]
struct Fields {
    /// Per open field: instruction text, and whether we opened a link for it.
    stack: Vec<(String, bool, bool)>, // (instr, in_result, link_open)
}

fn render_inline(p: &Element, ctx: &mut Ctx) -> String {
    let mut inl = Inline {
        out: String::new(),
        cur: Fmt::default(),
    };
    let mut fields = Fields::default();
    inline_children(p, ctx, &mut inl, &mut fields, 0);
    for (_, _, link) in fields.stack.drain(..).rev() {
        if link {
            inl.raw("</a>");
        }
    }
    inl.close();
    inl.out
}

fn inline_children(parent: &Element, ctx: &mut Ctx, inl: &mut Inline, fields: &mut Fields, depth: usize) {
    if depth > 32 {
        return;
    }
    for e in parent.elements() {
        match e.name.as_str() {
            "r" => run(e, ctx, inl, fields),
            "hyperlink" => {
                let href = e
                    .attr("r:id")
                    .and_then(|id| ctx.rels.get(id))
                    .filter(|r| r.external || r.kind.ends_with("/hyperlink"))
                    .map(|r| r.target.clone())
                    .map(|t| match e.attr("anchor") {
                        Some(a) if !t.contains('#') => format!("{t}#{a}"),
                        _ => t,
                    })
                    .or_else(|| e.attr("anchor").map(|a| format!("#{a}")));
                match href.as_deref().and_then(safe_href) {
                    Some(h) => {
                        inl.raw(&format!("<a href=\"{h}\">"));
                        inline_children(e, ctx, inl, fields, depth + 1);
                        inl.raw("</a>");
                    }
                    None => inline_children(e, ctx, inl, fields, depth + 1),
                }
            }
            "fldSimple" => {
                let instr = e.attr("instr").unwrap_or("");
                match field_link(instr).as_deref().and_then(safe_href) {
                    Some(h) => {
                        inl.raw(&format!("<a href=\"{h}\">"));
                        inline_children(e, ctx, inl, fields, depth + 1);
                        inl.raw("</a>");
                    }
                    None => inline_children(e, ctx, inl, fields, depth + 1),
                }
            }
            "ins" | "smartTag" | "customXml" | "sdtContent" | "bdo" | "dir" => {
                inline_children(e, ctx, inl, fields, depth + 1)
            }
            "sdt" => {
                if let Some(c) = e.child("sdtContent") {
                    inline_children(c, ctx, inl, fields, depth + 1)
                }
            }
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    inline_children(c, ctx, inl, fields, depth + 1)
                }
            }
            // Deleted text (w:del) and paragraph properties are skipped.
            _ => {}
        }
    }
}

/// The URL of a `HYPERLINK "url"` field instruction.
fn field_link(instr: &str) -> Option<String> {
    let t = instr.trim();
    let rest = t
        .strip_prefix("HYPERLINK")
        .or_else(|| t.strip_prefix("hyperlink"))?
        .trim();
    let mut anchor = None;
    let mut url = None;
    let mut parts = rest.split('"').enumerate().peekable();
    let mut prev_switch = "";
    while let Some((i, s)) = parts.next() {
        if i % 2 == 1 {
            if prev_switch == "\\l" {
                anchor = Some(s.to_string());
            } else if url.is_none() && prev_switch.is_empty() {
                url = Some(s.to_string());
            }
            prev_switch = "";
        } else {
            let s = s.trim();
            prev_switch = s.split_whitespace().last().unwrap_or("");
            if !s.is_empty() && url.is_none() && !s.starts_with('\\') && i == 0 {
                url = s.split_whitespace().next().map(str::to_string);
            }
            if !prev_switch.starts_with('\\') {
                prev_switch = "";
            }
        }
    }
    match (url, anchor) {
        (Some(u), Some(a)) => Some(format!("{u}#{a}")),
        (Some(u), None) => Some(u),
        (None, Some(a)) => Some(format!("#{a}")),
        _ => None,
    }
}

fn run(r: &Element, ctx: &mut Ctx, inl: &mut Inline, fields: &mut Fields) {
    let fmt = run_fmt(r);
    for e in r.elements() {
        // Inside a field's instruction part nothing is shown.
        let hidden = fields.stack.last().is_some_and(|(_, in_result, _)| !in_result);
        match e.name.as_str() {
            "fldChar" => match e.attr("fldCharType") {
                Some("begin") => fields.stack.push((String::new(), false, false)),
                Some("separate") => {
                    if let Some(top) = fields.stack.last_mut() {
                        top.1 = true;
                        if let Some(h) = field_link(&top.0).as_deref().and_then(safe_href) {
                            top.2 = true;
                            inl.raw(&format!("<a href=\"{h}\">"));
                        }
                    }
                }
                Some("end") => {
                    if let Some((_, _, link)) = fields.stack.pop() {
                        if link {
                            inl.raw("</a>");
                        }
                    }
                }
                _ => {}
            },
            "instrText" => {
                if let Some(top) = fields.stack.last_mut() {
                    if top.0.len() < 4096 {
                        top.0.push_str(&e.text());
                    }
                }
            }
            _ if hidden => {}
            "t" => inl.text(&e.text(), fmt),
            "tab" | "ptab" => inl.text(" ", fmt),
            "br" | "cr" => {
                if e.attr("type") != Some("page") && e.attr("type") != Some("column") {
                    inl.raw("<br>");
                }
            }
            "noBreakHyphen" => inl.text("-", fmt),
            "softHyphen" => {}
            "sym" => {
                if let Some(c) = e.attr("char").and_then(|c| u32::from_str_radix(c, 16).ok()) {
                    // Symbol fonts use the private use area F0xx.
                    let c = if (0xF000..0xF100).contains(&c) {
                        c - 0xF000
                    } else {
                        c
                    };
                    if let Some(ch) = char::from_u32(c).filter(|c| !c.is_control()) {
                        inl.text(&ch.to_string(), fmt);
                    }
                }
            }
            "footnoteReference" | "endnoteReference" => {
                if let Some(id) = e.attr("id") {
                    let list = if e.name == "footnoteReference" {
                        &mut ctx.footnote_refs
                    } else {
                        &mut ctx.endnote_refs
                    };
                    let n = match list.iter().position(|x| x == id) {
                        Some(i) => i + 1,
                        None => {
                            list.push(id.to_string());
                            list.len()
                        }
                    };
                    let label = if e.name == "footnoteReference" {
                        n.to_string()
                    } else {
                        roman(n)
                    };
                    inl.raw(&format!("[{label}]"));
                }
            }
            "drawing" | "pict" | "object" => {
                // Text boxes carry paragraphs; show their text inline.
                let mut boxes = Vec::new();
                e.find_all("txbxContent", &mut boxes);
                for b in boxes.into_iter().take(16) {
                    let mut inner = String::new();
                    render_blocks(b, ctx, &mut inner, true);
                    if !inner.trim().is_empty() {
                        inl.raw(&format!(" {} ", inner.trim()));
                    }
                }
                if let Some(alt) = e.find("docPr").and_then(|d| d.attr("descr").or(d.attr("title"))) {
                    if !alt.trim().is_empty() {
                        inl.raw(&format!("<img alt=\"{}\">", esc(alt.trim())));
                    }
                }
            }
            "AlternateContent" => {
                if let Some(c) = e.child("Choice").or_else(|| e.child("Fallback")) {
                    run(c, ctx, inl, fields);
                }
            }
            _ => {}
        }
    }
}

struct CellInfo<'a> {
    el: &'a Element,
    col: usize,
    span: usize,
    vmerge: Option<bool>, // Some(true) restart, Some(false) continue
}

fn render_table(tbl: &Element, ctx: &mut Ctx, out: &mut String) {
    let mut rows: Vec<(bool, Vec<CellInfo>)> = Vec::new();
    let mut trs = Vec::new();
    collect_named(tbl, "tr", &mut trs, &["tbl"]);
    for tr in trs {
        let header = tr
            .child("trPr")
            .and_then(|p| p.child("tblHeader"))
            .is_some_and(|h| on(Some(h)));
        let mut tcs = Vec::new();
        collect_named(tr, "tc", &mut tcs, &["tbl"]);
        let mut col = tr
            .child("trPr")
            .and_then(|p| p.child("gridBefore"))
            .and_then(|g| g.attr("val"))
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
            .min(1000);
        let mut cells = Vec::new();
        for tc in tcs {
            let pr = tc.child("tcPr");
            let span = pr
                .and_then(|p| p.child("gridSpan"))
                .and_then(|g| g.attr("val"))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 1000);
            let vmerge = pr
                .and_then(|p| p.child("vMerge"))
                .map(|v| v.attr("val") == Some("restart"));
            cells.push(CellInfo {
                el: tc,
                col,
                span,
                vmerge,
            });
            col += span;
        }
        rows.push((header, cells));
    }
    out.push_str("<table>\n");
    for (i, (header, cells)) in rows.iter().enumerate() {
        out.push_str("<tr>");
        let tag = if i == 0 || *header { "th" } else { "td" };
        for c in cells {
            if c.vmerge == Some(false) {
                continue;
            }
            let mut rowspan = 1;
            if c.vmerge == Some(true) {
                for (_, next) in rows.iter().skip(i + 1) {
                    if next.iter().any(|n| n.col == c.col && n.vmerge == Some(false)) {
                        rowspan += 1;
                    } else {
                        break;
                    }
                }
            }
            out.push('<');
            out.push_str(tag);
            if c.span > 1 {
                out.push_str(&format!(" colspan=\"{}\"", c.span));
            }
            if rowspan > 1 {
                out.push_str(&format!(" rowspan=\"{rowspan}\""));
            }
            out.push('>');
            let mut inner = String::new();
            render_blocks(c.el, ctx, &mut inner, true);
            out.push_str(inner.trim());
            out.push_str(&format!("</{tag}>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// Children named `name`, looking through wrappers (sdt, customXml) but not into `stop`.
fn collect_named<'a>(parent: &'a Element, name: &str, out: &mut Vec<&'a Element>, stop: &[&str]) {
    for e in parent.elements() {
        if e.name == name {
            out.push(e);
        } else if !stop.contains(&e.name.as_str())
            && matches!(e.name.as_str(), "sdt" | "sdtContent" | "customXml" | "ins")
        {
            collect_named(e, name, out, stop);
        }
    }
}

/// Lower-case roman numeral (endnote labels).
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

#[allow(dead_code)]
fn node_text(n: &Node) -> String {
    match n {
        Node::Text(t) => t.clone(),
        Node::Elem(e) => e.text(),
    }
}

#[cfg(test)]
mod tests;
