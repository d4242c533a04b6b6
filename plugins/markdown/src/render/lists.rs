//! Lists and definition lists. `-` bullets and `N.` numbers (from `start`,
//! `value` and `reversed`); an item's continuation lines are indented to its
//! content column so nested lists, paragraphs and code stay inside it. A list
//! placed directly inside another list joins the previous item. Definition
//! lists render as `**term**` lines followed by `: definition` lines.

use super::blocks::{Blocks, indent_into};
use super::inline::{Break, Inline};
use super::{Renderer, Role, role};
use crate::parse::{AttrName, Element, Kind, NodeId, Tag};

/// Whether a list may follow a paragraph line directly (without a blank
/// line) and still start a list: bullets, and numbered lists starting at 1.
pub fn can_interrupt(r: &Renderer, e: &Element) -> bool {
    e.tag != Tag::Ol || r.attr_start(e).is_none_or(|n| n == 1)
}

/// A list being written.
struct ListState {
    out: String,
    ordered: bool,
    step: i64,
    next: i64,
    /// Content indent of the last item (for a list nested directly in a list).
    indent: usize,
}

impl<'d, 'a> Renderer<'d, 'a> {
    fn attr_start(&self, e: &Element) -> Option<i64> {
        self.doc
            .attr(e, AttrName::Start)
            .and_then(|s| s.trim().parse().ok())
    }

    /// The markdown of a `<ul>`/`<ol>`.
    pub(super) fn list(&self, id: NodeId, e: &'d Element<'a>) -> String {
        let ordered = e.tag == Tag::Ol;
        let reversed = ordered && self.attr(e, AttrName::Reversed).is_some();
        let count = || {
            self.doc
                .children(id)
                .filter(|&c| self.doc.tag(c) == Some(Tag::Li))
                .count() as i64
        };
        let next = self
            .attr_start(e)
            .unwrap_or_else(|| if reversed { count() } else { 1 });
        let mut list = ListState {
            out: String::new(),
            ordered,
            step: if reversed { -1 } else { 1 },
            next,
            indent: 2,
        };
        self.list_children(id, &mut list);
        list.out
    }

    fn list_children(&self, id: NodeId, list: &mut ListState) {
        for child in self.doc.children(id) {
            match &self.doc.node(child).kind {
                Kind::Text(t) if !t.trim().is_empty() => self.list_item(child, list),
                Kind::Element(e) => match e.tag {
                    Tag::Li => self.list_item(child, list),
                    Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir if !list.out.is_empty() => {
                        let nested = self.list(child, e);
                        if !nested.is_empty() {
                            list.out.push('\n');
                            list.out.extend(std::iter::repeat_n(' ', list.indent));
                            indent_into(&mut list.out, &nested, list.indent);
                        }
                    }
                    tag if role(self.doc, child, tag) == Role::Drop => {}
                    _ if self.has_li(child) => self.list_children(child, list),
                    _ => self.list_item(child, list),
                },
                _ => {}
            }
        }
    }

    /// Whether a descendant of `id` is an `<li>`.
    fn has_li(&self, id: NodeId) -> bool {
        self.doc.has_block(id)
            && self
                .doc
                .children(id)
                .any(|c| self.doc.tag(c) == Some(Tag::Li) || self.has_li(c))
    }

    /// One item: its content as blocks, after the marker, indented to match.
    fn list_item(&self, id: NodeId, list: &mut ListState) {
        let mut content = Blocks::for_item();
        if let Some(e) = self.doc.element(id) {
            if e.tag == Tag::Li {
                if let Some(v) = self.attr(e, AttrName::Value).and_then(|v| v.trim().parse().ok()) {
                    list.next = v;
                }
                self.blocks(id, &mut content);
            } else {
                self.block(id, &mut content);
            }
        } else {
            self.block(id, &mut content);
        }
        let content = content.finish();
        if content.is_empty() {
            return;
        }
        let marker = if list.ordered {
            format!("{}. ", list.next.clamp(0, 999_999_999))
        } else {
            "- ".to_string()
        };
        list.next += list.step;
        if !list.out.is_empty() {
            list.out.push('\n');
        }
        list.out.push_str(&marker);
        indent_into(&mut list.out, &content, marker.len());
        list.indent = marker.len();
    }

    /// A `<li>` outside any list: a one-item bullet list.
    pub(super) fn orphan_item(&self, id: NodeId) -> String {
        let mut list = ListState {
            out: String::new(),
            ordered: false,
            step: 1,
            next: 1,
            indent: 2,
        };
        self.list_item(id, &mut list);
        list.out
    }

    /// A list inside inline content (a table cell, link text): items separated
    /// by line breaks, with their markers.
    pub(super) fn inline_list(&self, id: NodeId, e: &Element, inl: &mut Inline) {
        let ordered = e.tag == Tag::Ol;
        let mut n = self.attr_start(e).unwrap_or(1);
        for child in self.doc.children(id) {
            if self.doc.tag(child) == Some(Tag::Li) {
                inl.boundary();
                if inl.brk != Break::Space {
                    inl.raw(&if ordered { format!("{n}.") } else { "-".to_string() });
                    inl.space();
                }
                n += 1;
                self.inline_children(child, inl);
            } else {
                self.inline(child, inl);
            }
        }
        inl.boundary();
    }

    /// The markdown of a `<dl>`.
    pub(super) fn dl(&self, id: NodeId) -> String {
        let mut out = String::new();
        let mut last = None;
        self.dl_children(id, &mut out, &mut last);
        out
    }

    fn dl_children(&self, id: NodeId, out: &mut String, last: &mut Option<Tag>) {
        for child in self.doc.children(id) {
            let Some(e) = self.doc.element(child) else {
                continue;
            };
            match e.tag {
                Tag::Dt => {
                    let mut term = Inline::new(Break::Space);
                    term.strong = 1;
                    self.inline_children(child, &mut term);
                    let term = term.finish();
                    if term.is_empty() {
                        continue;
                    }
                    if !out.is_empty() {
                        out.push_str(if *last == Some(Tag::Dt) { "\n" } else { "\n\n" });
                    }
                    out.push_str("**");
                    out.push_str(&term);
                    out.push_str("**");
                    *last = Some(Tag::Dt);
                }
                Tag::Dd => {
                    let mut def = Blocks::new();
                    self.blocks(child, &mut def);
                    let def = def.finish();
                    if def.is_empty() {
                        continue;
                    }
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(": ");
                    indent_into(out, &def, 2);
                    *last = Some(Tag::Dd);
                }
                tag if role(self.doc, child, tag) == Role::Drop => {}
                _ => self.dl_children(child, out, last),
            }
        }
    }
}
