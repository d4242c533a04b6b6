//! Lists (`numbering.xml`): numbering instances and their levels' formats; a
//! paragraph's list level and kind from its own or its style's numbering.

use crate::Ctx;
use distill_sdk::PluginError;
use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::xml::{self, Element};
use std::collections::HashMap;

/// The numbering definitions of a document.
pub(crate) struct Numbering {
    /// numId → abstractNumId
    pub(crate) nums: HashMap<String, String>,
    /// (abstractNumId, level) → ordered?
    pub(crate) ordered: HashMap<(String, u8), bool>,
}

pub(crate) fn read_numbering(zip: &mut Archive, part: &str) -> Result<Numbering, PluginError> {
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

impl Ctx<'_> {
    /// Numbering of a paragraph: (level, ordered).
    pub(crate) fn list_info(&self, ppr: Option<&Element>, style_id: Option<&str>) -> Option<(u8, bool)> {
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
        if lvl == 0
            && direct.is_none()
            && let Some(name) = style_id
                .and_then(|id| self.styles.get(id))
                .map(|s| s.name.to_ascii_lowercase())
            && name.starts_with("list")
            && let Some(n) = name.rsplit(' ').next().and_then(|n| n.parse::<u8>().ok())
        {
            lvl = n.saturating_sub(1);
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
