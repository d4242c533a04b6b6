//! Distill converter plugin `ppt`: binary PowerPoint 97-2003 to HTML.
//!
//! Follows the persist directory (Current User → UserEditAtom chain) to the
//! DocumentContainer; slides come in presentation order from its
//! SlideListWithText. Per slide: placeholder text (title, body) from the list,
//! text boxes from the slide's drawing (TextCharsAtom / TextBytesAtom), and the
//! speaker notes from the linked Notes container. Output: one
//! `<section><h2>Slide N</h2>...</section>` per slide, notes in a `<blockquote>`. If the persist directory
//! is unusable, a linear scan of the stream's slide containers is the fallback.

use distill_sdk::documents::bytes::{u16_at, u32_at};
use distill_sdk::documents::cfb::{self, read_stream};
use distill_sdk::documents::codepage;
use distill_sdk::documents::html::esc;
use distill_sdk::{ConverterPlugin, Document, FileInput, PluginError, PluginInfo, Value, json, serde_json};
use std::collections::HashMap;

const MAX_DEPTH: usize = 32;
const MAX_SLIDES: usize = 10_000;
const MAX_TEXT: usize = 16 << 20;

pub struct Ppt;

impl ConverterPlugin for Ppt {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Binary PowerPoint 97-2003 (.ppt) to HTML: slide titles, text, speaker notes.")
            .extension("ppt")
            .extension("pps")
            .extension("pot")
            .content_type("application/vnd.ms-powerpoint")
    }

    fn convert(file: &FileInput, _options: &Value) -> Result<Document, PluginError> {
        convert_ppt(&file.bytes)
    }
}

distill_sdk::export_plugin!(converter: Ppt);

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

#[derive(Clone, Copy, Debug)]
struct Rec {
    ver: u16,
    inst: u16,
    ty: u16,
    /// Body start and end offsets in the stream.
    start: usize,
    end: usize,
}

fn rec_at(b: &[u8], o: usize, limit: usize) -> Option<Rec> {
    let vi = u16_at(b, o)?;
    let ty = u16_at(b, o + 2)?;
    let len = u32_at(b, o + 4)? as usize;
    let start = o + 8;
    let end = start.checked_add(len)?;
    if end > limit {
        return None;
    }
    Some(Rec {
        ver: vi & 0xF,
        inst: vi >> 4,
        ty,
        start,
        end,
    })
}

fn children(b: &[u8], r: Rec) -> Vec<Rec> {
    let mut out = Vec::new();
    let mut o = r.start;
    while o + 8 <= r.end && out.len() < 1_000_000 {
        let Some(c) = rec_at(b, o, r.end) else { break };
        out.push(c);
        o = c.end;
    }
    out
}

const RT_DOCUMENT: u16 = 0x03E8;
const RT_SLIDE: u16 = 0x03EE;
const RT_SLIDE_ATOM: u16 = 0x03EF;
const RT_NOTES: u16 = 0x03F0;
const RT_SLIDE_PERSIST: u16 = 0x03F3;
const RT_MAIN_MASTER: u16 = 0x03F8;
const RT_TEXT_HEADER: u16 = 0x0F9F;
const RT_TEXT_CHARS: u16 = 0x0FA0;
const RT_TEXT_BYTES: u16 = 0x0FA8;
const RT_SLWT: u16 = 0x0FF0;
const RT_USER_EDIT: u16 = 0x0FF5;
const RT_PERSIST_DIR: u16 = 0x1772;

/// A text block with its TextHeaderAtom type (0 title, 1 body, 2 notes,
/// 4 other, 5 center body, 6 center title, 7 half body, 8 quarter body).
#[derive(Debug, Clone)]
struct Text {
    kind: u32,
    text: String,
    /// The first paragraph has a bullet (StyleTextPropAtom).
    bullets: bool,
}

#[derive(Default, Debug)]
struct Slide {
    texts: Vec<Text>,
    notes: Vec<Text>,
}

fn decode_text(b: &[u8], r: Rec) -> String {
    let body = &b[r.start..r.end];
    if r.ty == RT_TEXT_CHARS {
        codepage::utf16le(body)
    } else {
        // TextBytesAtom: UTF-16 code units with their zero high byte left out.
        codepage::decode(body, codepage::LATIN1)
    }
}

/// Text atoms anywhere under `r` (depth-bounded), each typed by the TextHeaderAtom before it.
fn collect_texts(b: &[u8], r: Rec, depth: usize, kind: &mut u32, out: &mut Vec<Text>, budget: &mut usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for c in children(b, r) {
        match c.ty {
            RT_TEXT_HEADER => *kind = u32_at(b, c.start).unwrap_or(4),
            // Text atoms (leaf records) past the text budget are skipped.
            RT_TEXT_CHARS | RT_TEXT_BYTES if *budget > 0 => {
                let t = decode_text(b, c);
                *budget = budget.saturating_sub(t.len());
                out.push(Text {
                    kind: *kind,
                    text: t,
                    bullets: false,
                });
            }
            0x0FA1 => {
                // StyleTextPropAtom: first paragraph run: count u32, indent u16,
                // masks u32, then bulletFlags u16 when any bullet mask bit is set.
                if let (Some(last), Some(mask)) = (out.last_mut(), u32_at(b, c.start + 6))
                    && mask & 0xF != 0
                {
                    last.bullets = mask & 1 != 0 && u16_at(b, c.start + 10).is_some_and(|f| f & 1 != 0);
                }
            }
            RT_MAIN_MASTER => {}
            0xF004 => {
                // A shape: its placeholder type (OEPlaceholderAtom in ClientData) says
                // what its text is, whatever the TextHeaderAtom claims.
                let ph = children(b, c)
                    .into_iter()
                    .filter(|r| r.ty == 0xF011)
                    .flat_map(|cd| children(b, cd))
                    .find(|r| r.ty == 0x0BC3)
                    .and_then(|a| b.get(a.start + 4).copied());
                let forced = match ph {
                    Some(0x01 | 0x03 | 0x0D | 0x0F | 0x11) => Some(0),
                    Some(0x02 | 0x0E | 0x12 | 0x13) => Some(1),
                    Some(0x04 | 0x10) => Some(5),
                    Some(0x06 | 0x0C) => Some(2),
                    Some(0x07..=0x0A) => Some(99), // date, slide number, footer, header
                    _ => None,
                };
                let mut inner = Vec::new();
                let mut k = *kind;
                collect_texts(b, c, depth + 1, &mut k, &mut inner, budget);
                for mut t in inner {
                    if let Some(f) = forced {
                        t.kind = f;
                    }
                    if t.kind != 99 {
                        out.push(t);
                    }
                }
            }
            _ if c.ver == 0xF => collect_texts(b, c, depth + 1, kind, out, budget),
            _ => {}
        }
    }
}

/// persistId → stream offset, newest edit winning.
fn persist_directory(ppd: &[u8], current_user: &[u8]) -> Option<(HashMap<u32, usize>, u32)> {
    let mut edit_off = u32_at(current_user, 16)? as usize;
    let mut dir: HashMap<u32, usize> = HashMap::new();
    let mut doc_ref = None;
    for _ in 0..64 {
        let ue = rec_at(ppd, edit_off, ppd.len()).filter(|r| r.ty == RT_USER_EDIT)?;
        if doc_ref.is_none() {
            doc_ref = u32_at(ppd, ue.start + 16);
        }
        let last_edit = u32_at(ppd, ue.start + 8)? as usize;
        let pd_off = u32_at(ppd, ue.start + 12)? as usize;
        if let Some(pd) = rec_at(ppd, pd_off, ppd.len()).filter(|r| r.ty == RT_PERSIST_DIR) {
            let mut o = pd.start;
            while o + 4 <= pd.end {
                let e = u32_at(ppd, o)?;
                let (base, count) = (e & 0xF_FFFF, (e >> 20) as usize);
                o += 4;
                for k in 0..count {
                    let Some(off) = u32_at(ppd, o + k * 4) else { break };
                    dir.entry(base + k as u32).or_insert(off as usize);
                }
                o += count * 4;
            }
        }
        if last_edit == 0 || last_edit == edit_off {
            break;
        }
        edit_off = last_edit;
    }
    Some((dir, doc_ref?))
}

fn slides_from_directory(ppd: &[u8], current_user: &[u8]) -> Option<Vec<Slide>> {
    let (dir, doc_ref) = persist_directory(ppd, current_user)?;
    let doc = rec_at(ppd, *dir.get(&doc_ref)?, ppd.len()).filter(|r| r.ty == RT_DOCUMENT)?;
    let mut slides = Vec::new();
    let mut budget = MAX_TEXT;
    for list in children(ppd, doc)
        .into_iter()
        .filter(|r| r.ty == RT_SLWT && r.inst == 0)
    {
        let mut kind = 4;
        for c in children(ppd, list) {
            match c.ty {
                RT_SLIDE_PERSIST => {
                    if slides.len() >= MAX_SLIDES {
                        break;
                    }
                    let persist = u32_at(ppd, c.start).unwrap_or(0);
                    slides.push((persist, Slide::default()));
                }
                RT_TEXT_HEADER => kind = u32_at(ppd, c.start).unwrap_or(4),
                RT_TEXT_CHARS | RT_TEXT_BYTES => {
                    if let Some((_, s)) = slides.last_mut() {
                        s.texts.push(Text {
                            kind,
                            text: decode_text(ppd, c),
                            bullets: false,
                        });
                    }
                }
                _ => {}
            }
        }
    }
    // Notes are referenced by notes id (SlidePersistAtom.slideId in the notes list).
    let mut notes_persist: HashMap<u32, u32> = HashMap::new();
    for list in children(ppd, doc)
        .into_iter()
        .filter(|r| r.ty == RT_SLWT && r.inst == 2)
    {
        for c in children(ppd, list)
            .into_iter()
            .filter(|r| r.ty == RT_SLIDE_PERSIST)
        {
            if let (Some(p), Some(id)) = (u32_at(ppd, c.start), u32_at(ppd, c.start + 12)) {
                notes_persist.insert(id, p);
            }
        }
    }
    let mut out = Vec::new();
    for (persist, mut slide) in slides {
        if let Some(sr) = dir
            .get(&persist)
            .and_then(|&o| rec_at(ppd, o, ppd.len()))
            .filter(|r| r.ty == RT_SLIDE)
        {
            let mut kind = 4;
            collect_texts(ppd, sr, 0, &mut kind, &mut slide.texts, &mut budget);
            // Notes: SlideAtom.notesIdRef.
            let notes_ref = children(ppd, sr)
                .into_iter()
                .find(|r| r.ty == RT_SLIDE_ATOM)
                .and_then(|a| u32_at(ppd, a.start + 16));
            if let Some(nr) = notes_ref
                .filter(|&n| n != 0)
                .and_then(|n| notes_persist.get(&n))
                .and_then(|n| dir.get(n))
                .and_then(|&o| rec_at(ppd, o, ppd.len()))
                .filter(|r| r.ty == RT_NOTES)
            {
                let mut kind = 2;
                collect_texts(ppd, nr, 0, &mut kind, &mut slide.notes, &mut budget);
            }
        }
        out.push(slide);
    }
    (!out.is_empty()).then_some(out)
}

/// Fallback: slides and notes containers in stream order.
fn slides_linear(ppd: &[u8]) -> Vec<Slide> {
    let mut slides: Vec<Slide> = Vec::new();
    let mut budget = MAX_TEXT;
    let root = Rec {
        ver: 0xF,
        inst: 0,
        ty: 0,
        start: 0,
        end: ppd.len(),
    };
    for r in children(ppd, root) {
        match r.ty {
            RT_SLIDE if slides.len() < MAX_SLIDES => {
                let mut s = Slide::default();
                let mut kind = 4;
                collect_texts(ppd, r, 0, &mut kind, &mut s.texts, &mut budget);
                slides.push(s);
            }
            RT_NOTES => {
                if let Some(s) = slides.last_mut() {
                    let mut kind = 2;
                    collect_texts(ppd, r, 0, &mut kind, &mut s.notes, &mut budget);
                }
            }
            _ => {}
        }
    }
    slides
}

/// Lines of a text block (PowerPoint separates paragraphs with \r, soft breaks with \x0B).
fn lines(t: &str) -> Vec<String> {
    t.split(['\r', '\n'])
        .map(|l| esc(l.replace('\u{b}', " ").trim()))
        .filter(|l| !l.is_empty() && l != "*")
        .collect()
}

fn render(slides: &[Slide]) -> String {
    let mut out = String::new();
    for (i, s) in slides.iter().enumerate() {
        out.push_str(&format!("<section>\n<h2>Slide {}</h2>\n", i + 1));
        let mut seen: Vec<&str> = Vec::new();
        // No title placeholder: a first text box of one short line is the title.
        if !s.texts.iter().any(|t| matches!(t.kind, 0 | 6))
            && let Some(first) = s.texts.first()
            && lines(&first.text).len() == 1
            && first.text.trim().chars().count() <= 120
        {
            seen.push(&first.text);
            out.push_str(&format!("<h3>{}</h3>\n", lines(&first.text)[0]));
        }
        for t in s.texts.iter().filter(|t| matches!(t.kind, 0 | 6)) {
            if seen.contains(&t.text.as_str()) {
                continue;
            }
            seen.push(&t.text);
            let title = lines(&t.text).join(" ");
            if !title.is_empty() {
                out.push_str(&format!("<h3>{title}</h3>\n"));
            }
        }
        for t in s.texts.iter().filter(|t| !matches!(t.kind, 0 | 6 | 2)) {
            if seen.contains(&t.text.as_str()) {
                continue;
            }
            seen.push(&t.text);
            let ls = lines(&t.text);
            if ls.is_empty() {
                continue;
            }
            if (matches!(t.kind, 1 | 7 | 8) || t.bullets) && ls.len() > 1 {
                out.push_str("<ul>\n");
                for l in ls {
                    out.push_str(&format!("<li>{l}</li>\n"));
                }
                out.push_str("</ul>\n");
            } else {
                for l in ls {
                    out.push_str(&format!("<p>{l}</p>\n"));
                }
            }
        }
        let notes: Vec<String> = s
            .notes
            .iter()
            .filter(|t| !matches!(t.kind, 0 | 6))
            .flat_map(|t| lines(&t.text))
            .collect();
        if !notes.is_empty() {
            // A blockquote, not <aside>: main-content cleaning drops asides.
            out.push_str("<blockquote>\n<p><strong>Notes:</strong></p>\n");
            for l in notes {
                out.push_str(&format!("<p>{l}</p>\n"));
            }
            out.push_str("</blockquote>\n");
        }
        out.push_str("</section>\n");
    }
    out
}

pub fn convert_ppt(bytes: &[u8]) -> Result<Document, PluginError> {
    let mut c = cfb::open(bytes, "PowerPoint 97-2003 .ppt", ".pptx")?;
    if c.is_stream("/EncryptedSummary") {
        return Err(unsupported("the presentation is encrypted"));
    }
    let ppd = read_stream(&mut c, "/PowerPoint Document")?.ok_or_else(|| {
        unsupported("the compound file has no 'PowerPoint Document' stream (not a presentation)")
    })?;
    let cu = read_stream(&mut c, "/Current User")?.unwrap_or_default();
    let slides = slides_from_directory(&ppd, &cu).unwrap_or_else(|| slides_linear(&ppd));
    if slides.is_empty() && rec_at(&ppd, 0, ppd.len()).is_none() {
        return Err(unsupported("the PowerPoint Document stream is damaged"));
    }
    let mut meta = serde_json::Map::new();
    meta.insert("numSlides".into(), json!(slides.len()));
    if let Some(t) = cfb::summary_title(&mut c) {
        meta.insert("title".into(), json!(t));
    } else if let Some(t) = slides
        .first()
        .and_then(|s| s.texts.iter().find(|t| matches!(t.kind, 0 | 6)))
    {
        meta.insert("title".into(), json!(lines(&t.text).join(" ")));
    }
    Ok(Document::html(render(&slides)).with_metadata(Value::Object(meta)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::documents::testing::{assert_in_order, summary_information, with_stream};

    fn fixture(name: &str) -> Vec<u8> {
        distill_sdk::documents::testing::fixture(env!("CARGO_MANIFEST_DIR"), name)
    }

    #[test]
    fn deck() {
        let d = convert_ppt(&fixture("deck.ppt")).unwrap();
        let c = &d.content;
        eprintln!("{c}\n{}", d.metadata);
        for s in [
            "<h2>Slide 1</h2>",
            "<h3>Product Launch Plan</h3>",
            "Spring campaign overview",
            "<h2>Slide 2</h2>",
            "<li>Reach ten thousand users</li>",
            "<h2>Slide 3</h2>",
            "Budget: 40,000 EUR",
            "Speaker note: stress the churn target.",
        ] {
            assert!(c.contains(s), "missing {s}: {c}");
        }
        assert_in_order(
            c,
            &[
                "Product Launch Plan",
                "welcome everyone",
                "Key Goals",
                "Ship the mobile app",
                "churn target",
                "Timeline and Budget",
                "15 April",
            ],
        );
        assert!(d.metadata.contains("\"numSlides\":3"));
        assert!(d.metadata.contains("Product Launch Deck"));
    }

    /// The SummaryInformation title is in the set's code page: Windows-1252 has
    /// € at 0x80 and typographic quotes at 0x91-0x94 (not Latin-1's C1 controls).
    #[test]
    fn summary_title_in_windows_1252() {
        let info = summary_information(Some(1252), 30, b"\x80 40,000 \x93Launch\x94 \x91deck\x92\0");
        let deck = with_stream(&fixture("deck.ppt"), "/\u{5}SummaryInformation", &info);
        let d = convert_ppt(&deck).unwrap();
        let meta: Value = serde_json::from_str(&d.metadata).unwrap();
        assert_eq!(meta["title"], "€ 40,000 “Launch” ‘deck’");
        assert!(d.content.contains("Product Launch Plan"));
    }

    #[test]
    fn hostile() {
        for (b, why) in [
            (fixture("zip-named.doc"), "zip"),
            (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1trunc".to_vec(), "damaged"),
            (fixture("report.doc"), "PowerPoint"),
        ] {
            let e = convert_ppt(&b).unwrap_err();
            assert!(
                matches!(&e, PluginError::UnsupportedInput(m) if m.contains(why)),
                "{e:?}"
            );
        }
        let good = fixture("deck.ppt");
        let mut b = good.clone();
        for i in (1024..b.len()).step_by(61) {
            b[i] ^= 0x5A;
        }
        let _ = convert_ppt(&b);
        let _ = convert_ppt(&good[..good.len() / 2]);
    }
}
