//! Paragraph styles (`styles.xml`): names, inheritance, outline levels and
//! style numbering; a paragraph's heading level from its style or outline level.

use crate::Ctx;
use distill_sdk::PluginError;
use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::xml;
use std::collections::HashMap;

/// A paragraph style: what headings and lists need of it.
#[derive(Default, Clone)]
pub(crate) struct Style {
    pub(crate) name: String,
    pub(crate) based_on: Option<String>,
    pub(crate) outline: Option<u8>,
    pub(crate) num: Option<(String, u8)>,
}

pub(crate) fn read_styles(zip: &mut Archive, part: &str) -> Result<HashMap<String, Style>, PluginError> {
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

impl Ctx<'_> {
    /// Heading level (1-6) of a paragraph with style `id` and direct outline level.
    pub(crate) fn heading_level(&self, style_id: Option<&str>, outline: Option<u8>) -> Option<u8> {
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
}
