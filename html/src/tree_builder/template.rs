//! Templates: the `<template>` start and end tags (in head rules) and the "in template"
//! insertion mode, with its stack of template insertion modes. A declarative shadow root
//! (`shadowrootmode`) is never attached by the `Document` sink, but html5ever makes an
//! element for it first, which is left out of the tree: so is ours.

use html5ever::tokenizer::{StartTag, Tag};
use html5ever::{LocalName, local_name};

use super::entries::Entry;
use super::entries::Ns;
use super::stack::implied_end;
use super::tag_sets::head_names;
use super::{Builder, Flow, Mode, Step, Tok};

/// The elements "generate all implied end tags thoroughly" closes.
fn implied_end_thorough(name: &LocalName) -> bool {
    implied_end(name)
        || matches!(
            *name,
            local_name!("caption")
                | local_name!("colgroup")
                | local_name!("tbody")
                | local_name!("td")
                | local_name!("tfoot")
                | local_name!("th")
                | local_name!("thead")
                | local_name!("tr")
        )
}

impl Builder {
    pub(super) fn start_template(&mut self, tag: Tag) -> Step {
        let shadow = tag
            .attrs
            .iter()
            .any(|a| a.name.local == local_name!("shadowrootmode") && matches!(&*a.value, "open" | "closed"));
        self.active.push(Entry::Marker);
        self.mode = Mode::InTemplate;
        self.templates.push(Mode::InTemplate);
        if shadow && self.open.len() > 1 {
            let (name, attrs, dup) = (tag.name.clone(), tag.attrs.clone(), tag.had_duplicate_attributes);
            self.create(Ns::Html, name, attrs, dup);
        }
        self.insert_tag(tag);
        Ok(Flow::Done)
    }

    pub(super) fn end_template(&mut self) -> Step {
        let template = local_name!("template");
        if self.any_open(&template) {
            self.pop_while(implied_end_thorough);
            self.pop_until(&template);
            self.clear_to_marker();
            self.templates.pop();
            self.mode = self.reset_mode()?;
        }
        Ok(Flow::Done)
    }

    /// Replaces the current template insertion mode and processes `tok` in `mode`.
    fn template_mode(&mut self, mode: Mode, tok: Tok) -> Step {
        self.templates.pop();
        self.templates.push(mode);
        Ok(Flow::Again(mode, tok))
    }

    pub(super) fn in_template(&mut self, tok: Tok) -> Step {
        let tag = match tok {
            Tok::Chars(_) | Tok::Null | Tok::Comment(_) => return self.in_body(tok),
            Tok::Eof => {
                let template = local_name!("template");
                if !self.any_open(&template) {
                    return Ok(Flow::Done);
                }
                self.pop_until(&template);
                self.clear_to_marker();
                self.templates.pop();
                let mode = self.reset_mode()?;
                return Ok(Flow::Again(mode, Tok::Eof));
            }
            Tok::Tag(tag) => tag,
        };
        if tag.kind != StartTag {
            if tag.name == local_name!("template") {
                return self.in_head(Tok::Tag(tag));
            }
            return Ok(Flow::Done);
        }
        let mode = match tag.name {
            head_names!() => return self.in_head(Tok::Tag(tag)),
            local_name!("caption")
            | local_name!("colgroup")
            | local_name!("tbody")
            | local_name!("tfoot")
            | local_name!("thead") => Mode::InTable,
            local_name!("col") => Mode::InColumnGroup,
            local_name!("tr") => Mode::InTableBody,
            local_name!("td") | local_name!("th") => Mode::InRow,
            _ => Mode::InBody,
        };
        self.template_mode(mode, Tok::Tag(tag))
    }
}
