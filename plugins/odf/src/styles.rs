//! Styles of styles.xml and content.xml: bold/italic through the parent
//! chain, heading levels from display names ("Heading 2"), and list styles'
//! per-level numbering.

use crate::Ctx;
use distill_sdk::documents::xml::Element;
use std::collections::HashMap;

#[derive(Default, Clone)]
pub(crate) struct Style {
    parent: Option<String>,
    display: Option<String>,
    bold: Option<bool>,
    italic: Option<bool>,
}

pub(crate) fn collect_styles(root: &Element, ctx: &mut Ctx) {
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
    pub(crate) fn fmt(&self, style: Option<&str>) -> (bool, bool) {
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
    pub(crate) fn heading_of(&self, style: Option<&str>) -> Option<u8> {
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
