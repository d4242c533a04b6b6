//! Office Open XML package parts shared by the DOCX and PPTX converters
//! (feature `documents`): a part's relationships (`_rels/<part>.rels`, id →
//! type and target, internal targets resolved to part names) and the core
//! properties (`docProps/core.xml`).

use super::archive::{Archive, resolve};
use super::xml::{self, Element};
use crate::PluginError;
use std::collections::HashMap;

/// One relationship of a part.
#[derive(Debug, Clone, PartialEq)]
pub struct Rel {
    /// `Id`, e.g. "rId3".
    pub id: String,
    /// `Type`, a URI ending in the kind: ".../hyperlink", ".../notesSlide".
    pub kind: String,
    /// `Target` as written (a URL when external, else a path relative to the part's folder).
    pub target: String,
    /// `TargetMode="External"`: the target is not a part of the package.
    pub external: bool,
    /// The target resolved against the source part's folder ("word/media/a.png").
    pub part: String,
}

/// The relationships of one part, in document order; ids are unique (of several
/// with one id, the last one's values stand in the first one's place).
#[derive(Debug, Default)]
pub struct Rels {
    list: Vec<Rel>,
    by_id: HashMap<String, usize>,
}

impl Rels {
    /// The relationship with id `id`.
    pub fn get(&self, id: &str) -> Option<&Rel> {
        self.by_id.get(id).map(|&i| &self.list[i])
    }

    /// All relationships in document order.
    pub fn iter(&self) -> impl Iterator<Item = &Rel> {
        self.list.iter()
    }

    /// The first relationship whose type ends in `/kind` ("officeDocument", "notesSlide").
    pub fn of_kind(&self, kind: &str) -> Option<&Rel> {
        self.list
            .iter()
            .find(|r| r.kind.rsplit_once('/').is_some_and(|(_, k)| k == kind))
    }

    /// True when the part has no relationships.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Parses the relationships part `text` (named `name` in errors) of the part
    /// `source` ("" for the package's own `_rels/.rels`).
    pub fn parse(text: &str, name: &str, source: &str) -> Result<Rels, PluginError> {
        let root = xml::parse(text, name)?;
        let mut rels = Rels::default();
        let Some(list) = root.child("Relationships") else {
            return Ok(rels);
        };
        for r in list.children_named("Relationship") {
            let (Some(id), Some(target)) = (r.attr("Id"), r.attr("Target")) else {
                continue;
            };
            let rel = Rel {
                id: id.to_string(),
                kind: r.attr("Type").unwrap_or("").to_string(),
                target: target.to_string(),
                external: r
                    .attr("TargetMode")
                    .is_some_and(|m| m.eq_ignore_ascii_case("External")),
                part: resolve(source, target),
            };
            match rels.by_id.get(id) {
                Some(&i) => rels.list[i] = rel,
                None => {
                    rels.by_id.insert(id.to_string(), rels.list.len());
                    rels.list.push(rel);
                }
            }
        }
        Ok(rels)
    }
}

/// The name of the relationships part of `part`: "word/document.xml" →
/// "word/_rels/document.xml.rels"; "" (the package) → "_rels/.rels".
pub fn rels_name(part: &str) -> String {
    match part.rsplit_once('/') {
        Some((dir, file)) if !dir.is_empty() => format!("{dir}/_rels/{file}.rels"),
        Some((_, file)) => format!("_rels/{file}.rels"),
        None => format!("_rels/{part}.rels"),
    }
}

/// Reads the relationships of `part` ("" for the package's); none when the
/// archive has no relationships part for it.
pub fn read_rels(zip: &mut Archive, part: &str) -> Result<Rels, PluginError> {
    let name = rels_name(part);
    match zip.read_string(&name)? {
        Some(text) => Rels::parse(&text, &name, part),
        None => Ok(Rels::default()),
    }
}

/// Title and author from `docProps/core.xml`.
#[derive(Debug, Default, PartialEq)]
pub struct CoreProps {
    /// `dc:title`, trimmed, when not empty.
    pub title: Option<String>,
    /// `dc:creator`, trimmed, when not empty.
    pub creator: Option<String>,
}

/// Reads `docProps/core.xml`; empty properties when the part is missing or not
/// well-formed (only a damaged archive entry is an error).
pub fn core_props(zip: &mut Archive) -> Result<CoreProps, PluginError> {
    const PART: &str = "docProps/core.xml";
    let Some(text) = zip.read_string(PART)? else {
        return Ok(CoreProps::default());
    };
    let Ok(root) = xml::parse(&text, PART) else {
        return Ok(CoreProps::default());
    };
    let nonempty = |e: Option<&Element>| e.map(|e| e.text().trim().to_string()).filter(|s| !s.is_empty());
    Ok(CoreProps {
        title: nonempty(root.find("title")),
        creator: nonempty(root.find("creator")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
  <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/a?b=1&amp;c=2" TargetMode="External"/>
  <Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.png"/>
  <Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="/ppt/notesSlides/notesSlide1.xml"/>
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" Target="theme/theme1.xml"/>
  <Relationship Type="x/noid" Target="ignored.xml"/>
</Relationships>"#;

    #[test]
    fn parses_ids_types_and_resolves_targets() {
        let rels = Rels::parse(RELS, "ppt/slides/_rels/slide1.xml.rels", "ppt/slides/slide1.xml").unwrap();
        let link = rels.get("rId2").unwrap();
        assert!(link.external);
        assert_eq!(link.target, "https://example.com/a?b=1&c=2");
        assert_eq!(rels.get("rId3").unwrap().part, "ppt/media/image1.png");
        assert_eq!(
            rels.of_kind("notesSlide").unwrap().part,
            "ppt/notesSlides/notesSlide1.xml"
        );
        // A repeated id: the last one wins.
        assert_eq!(rels.get("rId1").unwrap().part, "ppt/slides/theme/theme1.xml");
        assert_eq!(rels.of_kind("styles"), None);
        let ids: Vec<&str> = rels.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["rId1", "rId2", "rId3", "rId4"]);
        assert!(rels.of_kind("Slide").is_none());
    }

    #[test]
    fn package_relationships_and_names() {
        let text = r#"<Relationships><Relationship Id="r" Type="http://x/officeDocument" Target="/word/document.xml"/></Relationships>"#;
        let rels = Rels::parse(text, "_rels/.rels", "").unwrap();
        assert_eq!(rels.of_kind("officeDocument").unwrap().part, "word/document.xml");
        assert_eq!(rels_name(""), "_rels/.rels");
        assert_eq!(rels_name("word/document.xml"), "word/_rels/document.xml.rels");
        assert_eq!(
            rels_name("/ppt/slides/slide1.xml"),
            "/ppt/slides/_rels/slide1.xml.rels"
        );
        assert_eq!(rels_name("content.xml"), "_rels/content.xml.rels");
        assert!(Rels::parse("<other/>", "x.rels", "").unwrap().is_empty());
    }
}
