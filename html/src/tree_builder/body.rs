//! The "in body" insertion mode: text, the start tags that open, close or reopen elements
//! (paragraphs, list items, headings, formatting, void elements, raw text), and the end tags
//! with their scope checks.

use html5ever::interface::TreeSink;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{StartTag, Tag};
use html5ever::{LocalName, local_name};

use super::entries::Entry;
use super::entries::Ns;
use super::stack::{Scope, special};
use super::tag_sets::{formatting_names, head_names, heading, heading_names};
use super::{Builder, Flow, Mode, Step, Tok};

impl Builder {
    pub(super) fn in_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Null => {}
            Tok::Chars(t) => {
                self.reconstruct();
                self.append_text(t);
            }
            Tok::Comment(t) => self.append_comment(t),
            Tok::Eof => {
                if !self.templates.is_empty() {
                    return self.in_template(Tok::Eof);
                }
            }
            Tok::Tag(tag) if tag.kind == StartTag => return self.start_in_body(tag),
            Tok::Tag(tag) => return self.end_in_body(tag),
        }
        Ok(Flow::Done)
    }

    pub(super) fn start_in_body(&mut self, tag: Tag) -> Step {
        match tag.name {
            local_name!("html") => {
                if !self.any_open(&local_name!("template")) {
                    let html = self.open[0].id;
                    self.sink.doc.add_attrs_if_missing(&html, tag.attrs);
                }
            }
            head_names!() => return self.in_head(Tok::Tag(tag)),
            local_name!("body") => {
                if self.open.len() > 1
                    && self.open[1].is(&local_name!("body"))
                    && !self.any_open(&local_name!("template"))
                {
                    let body = self.open[1].id;
                    self.sink.doc.add_attrs_if_missing(&body, tag.attrs);
                }
            }
            local_name!("frameset") => return Err("frameset"),
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("main")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("search")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("ul")
            | local_name!("menu") => {
                self.close_p_in_button_scope();
                self.insert_tag(tag);
            }
            heading_names!() => {
                self.close_p_in_button_scope();
                if self.current().html().is_some_and(heading) {
                    self.open.pop();
                }
                self.insert_tag(tag);
            }
            local_name!("pre") | local_name!("listing") => {
                self.close_p_in_button_scope();
                self.insert_tag(tag);
                self.ignore_lf = true;
            }
            local_name!("form") => {
                let template = self.any_open(&local_name!("template"));
                if self.form.is_none() || template {
                    self.close_p_in_button_scope();
                    let form = self.insert_tag(tag);
                    if !template {
                        self.form = Some(form);
                    }
                }
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => self.list_item(tag),
            local_name!("plaintext") => return Err("plaintext"),
            local_name!("button") => {
                let button = local_name!("button");
                if self.in_scope(Scope::Default, &button) {
                    self.implied_ends();
                    self.pop_until(&button);
                }
                self.reconstruct();
                self.insert_tag(tag);
            }
            local_name!("a") => {
                self.misnested_a()?;
                self.reconstruct();
                self.push_formatting(tag);
            }
            formatting_names!() => {
                self.reconstruct();
                self.push_formatting(tag);
            }
            local_name!("nobr") => {
                self.reconstruct();
                let nobr = local_name!("nobr");
                if self.in_scope(Scope::Default, &nobr) {
                    self.adoption_agency(&nobr)?;
                    self.reconstruct();
                }
                self.push_formatting(tag);
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                self.reconstruct();
                self.insert_tag(tag);
                self.active.push(Entry::Marker);
            }
            local_name!("table") => {
                if !self.quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_tag(tag);
                self.mode = Mode::InTable;
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr") => {
                self.reconstruct();
                self.insert_void(tag);
            }
            local_name!("input") => {
                let select = local_name!("select");
                if self.in_scope(Scope::Default, &select) {
                    self.pop_until(&select);
                }
                self.reconstruct();
                self.insert_void(tag);
            }
            local_name!("param") | local_name!("source") | local_name!("track") => {
                self.insert_void(tag);
            }
            local_name!("hr") => {
                self.close_p_in_button_scope();
                if self.in_scope(Scope::Default, &local_name!("select")) {
                    self.implied_ends();
                }
                self.insert_void(tag);
            }
            local_name!("image") => {
                let tag = Tag {
                    name: local_name!("img"),
                    ..tag
                };
                return self.start_in_body(tag);
            }
            local_name!("textarea") => {
                self.ignore_lf = true;
                return self.raw(tag, RawKind::Rcdata);
            }
            local_name!("xmp") => {
                self.close_p_in_button_scope();
                self.reconstruct();
                return self.raw(tag, RawKind::Rawtext);
            }
            local_name!("iframe") | local_name!("noembed") | local_name!("noscript") => {
                return self.raw(tag, RawKind::Rawtext);
            }
            local_name!("select") => {
                let select = local_name!("select");
                if self.in_scope(Scope::Default, &select) {
                    self.pop_until(&select);
                } else {
                    self.reconstruct();
                    self.insert_tag(tag);
                }
            }
            local_name!("option") | local_name!("optgroup") => {
                if self.in_scope(Scope::Default, &local_name!("select")) {
                    if tag.name == local_name!("option") {
                        self.implied_ends_except(&local_name!("optgroup"));
                    } else {
                        self.implied_ends();
                    }
                } else if self.current_is(&local_name!("option")) {
                    self.open.pop();
                }
                self.reconstruct();
                self.insert_tag(tag);
            }
            local_name!("rb") | local_name!("rtc") => {
                if self.in_scope(Scope::Default, &local_name!("ruby")) {
                    self.implied_ends();
                }
                self.insert_tag(tag);
            }
            local_name!("rp") | local_name!("rt") => {
                if self.in_scope(Scope::Default, &local_name!("ruby")) {
                    self.implied_ends_except(&local_name!("rtc"));
                }
                self.insert_tag(tag);
            }
            local_name!("math") => {
                self.reconstruct();
                self.enter_foreign(tag, Ns::MathMl);
            }
            local_name!("svg") => {
                self.reconstruct();
                self.enter_foreign(tag, Ns::Svg);
            }
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => {}
            _ => {
                self.reconstruct();
                self.insert_tag(tag);
            }
        }
        Ok(Flow::Done)
    }

    /// `<li>`, `<dd>`, `<dt>`: closes the open item of the same kind (up to a special
    /// element other than `address`, `div`, `p`), then a `p`.
    fn list_item(&mut self, tag: Tag) {
        let li = tag.name == local_name!("li");
        let mut close = None;
        for o in self.open.iter().rev() {
            let Some(name) = o.html() else {
                continue;
            };
            let item = if li {
                *name == local_name!("li")
            } else {
                matches!(*name, local_name!("dd") | local_name!("dt"))
            };
            if item {
                close = Some(name.clone());
                break;
            }
            if special(name)
                && !matches!(
                    *name,
                    local_name!("address") | local_name!("div") | local_name!("p")
                )
            {
                break;
            }
        }
        if let Some(name) = close {
            self.implied_ends_except(&name);
            self.pop_until(&name);
        }
        self.close_p_in_button_scope();
        self.insert_tag(tag);
    }

    pub(super) fn end_in_body(&mut self, tag: Tag) -> Step {
        match tag.name {
            local_name!("template") => return self.in_head(Tok::Tag(tag)),
            local_name!("body") => {
                if self.in_scope(Scope::Default, &local_name!("body")) {
                    self.mode = Mode::AfterBody;
                }
            }
            local_name!("html") => {
                if self.in_scope(Scope::Default, &local_name!("body")) {
                    return Ok(Flow::Again(Mode::AfterBody, Tok::Tag(tag)));
                }
            }
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("button")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("ul") => {
                if self.in_scope(Scope::Default, &tag.name) {
                    self.implied_ends();
                    self.pop_until(&tag.name);
                }
            }
            local_name!("form") if self.any_open(&local_name!("template")) => {
                let form = local_name!("form");
                if self.in_scope(Scope::Default, &form) {
                    self.implied_ends();
                    self.pop_until(&form);
                }
            }
            local_name!("form") => {
                let Some(node) = self.form.take() else {
                    return Ok(Flow::Done);
                };
                if self.in_scope_by(Scope::Default, |o| o.id == node) {
                    self.implied_ends();
                    self.remove_from_stack(node);
                }
            }
            local_name!("p") => {
                if !self.p_in_button_scope() {
                    self.insert_phantom(local_name!("p"));
                }
                self.close_p();
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let scope = if tag.name == local_name!("li") {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope(scope, &tag.name) {
                    self.implied_ends_except(&tag.name);
                    self.pop_until(&tag.name);
                }
            }
            heading_names!() => {
                if self.in_scope_by(Scope::Default, |o| o.html().is_some_and(heading)) {
                    self.implied_ends();
                    self.pop_until_by(|o| o.html().is_some_and(heading));
                }
            }
            local_name!("a") | local_name!("nobr") | formatting_names!() => {
                self.adoption_agency(&tag.name)?
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                if self.in_scope(Scope::Default, &tag.name) {
                    self.implied_ends();
                    self.pop_until(&tag.name);
                    self.clear_to_marker();
                }
            }
            local_name!("br") => {
                let tag = Tag {
                    kind: StartTag,
                    attrs: Vec::new(),
                    ..tag
                };
                return self.start_in_body(tag);
            }
            _ => self.end_tag_in_body(&tag.name),
        }
        // An end tag's attribute vector is empty and unallocated (but for a malformed tag):
        // forgotten then, not dropped through the out-of-line drop of a vector of attributes.
        if tag.attrs.capacity() == 0 {
            std::mem::forget(tag.attrs);
        }
        Ok(Flow::Done)
    }

    /// "Any other end tag" in body: closes the nearest open element so named, unless a
    /// special element comes first.
    pub(super) fn end_tag_in_body(&mut self, name: &LocalName) {
        let mut found = None;
        for (i, o) in self.open.iter().enumerate().rev() {
            if o.is(name) {
                found = Some(i);
                break;
            }
            if o.html().is_some_and(special) {
                return;
            }
        }
        let Some(i) = found else {
            return;
        };
        self.implied_ends_except(name);
        self.open.truncate(i);
    }

    /// `<svg>` or `<math>` in body: an element in `ns` with its attributes adjusted.
    fn enter_foreign(&mut self, mut tag: Tag, ns: Ns) {
        if ns == Ns::Svg {
            super::foreign::adjust_svg_attributes(&mut tag);
        } else {
            super::foreign::adjust_mathml_attributes(&mut tag);
        }
        super::foreign::adjust_foreign_attributes(&mut tag);
        let push = !tag.self_closing;
        self.insert(ns, tag.name, tag.attrs, tag.had_duplicate_attributes, push);
    }
}
