//! Markdown rendering of a parsed [`Document`]: each element gets a [`Role`]
//! (dropped, block container, heading, list, ...); blocks are written by
//! [`Blocks`], inline content by [`Inline`]. Constructs live in their own
//! modules: code, links/images, lists/quotes/definitions, tables.

mod blocks;
mod code;
mod inline;
mod links;
mod lists;
mod table;

use crate::parse::{AttrName, Document, Element, Kind, NodeId, ROOT, Tag};
use blocks::Blocks;
use inline::{Break, Inline};
use std::cell::Cell;

/// How an element renders.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Dropped with its content (scripts, media, forms controls, head data).
    Drop,
    /// A block container: its content starts and ends a paragraph.
    Container,
    Heading(u8),
    List,
    /// A `<li>` outside a list.
    Item,
    Quote,
    Pre,
    Table,
    Dl,
    Hr,
    Br,
    /// Inline content (formatting, links, images, spans).
    Inline,
}

fn role(doc: &Document, id: NodeId, tag: Tag) -> Role {
    use Tag::*;
    match tag {
        Script | Style | Noscript | Template | Textarea | Title | Meta | Link | Base | Svg | Select
        | Option | Optgroup | Datalist | Iframe | Object | Embed | Canvas | Audio | Video | Map | Area
        | Frame | Frameset | Noembed | Noframes | Param | Source | Track | Col | Colgroup | Rp | Head => {
            Role::Drop
        }
        Div | Section | Article | Main | Header | Footer | Nav | Aside | Address | Figure | Figcaption
        | Form | Fieldset | Legend | Details | Summary | Hgroup | Center | Body | Html | Search | Dialog
        | P | Caption | Dd | Dt | Tbody | Thead | Tfoot | Tr | Td | Th => Role::Container,
        H1 | H2 | H3 | H4 | H5 | H6 => Role::Heading(tag.heading_level().unwrap_or(1)),
        Ul | Ol | Menu | Dir => Role::List,
        Li => Role::Item,
        Blockquote => Role::Quote,
        Pre | Listing | Xmp | Plaintext => Role::Pre,
        Table => Role::Table,
        Dl => Role::Dl,
        Hr => Role::Hr,
        Br => Role::Br,
        // Link text keeps the link whole even around blocks.
        A => Role::Inline,
        _ if doc.has_block(id) => Role::Container,
        _ => Role::Inline,
    }
}

/// Renders a document to markdown (before post-processing).
pub fn render(doc: &Document) -> String {
    let r = Renderer {
        doc,
        lang_hint: Cell::new(None),
    };
    let mut out = Blocks::new();
    r.blocks(ROOT, &mut out);
    out.finish()
}

/// The rendering walk over one document.
pub struct Renderer<'d, 'a> {
    doc: &'d Document<'a>,
    /// A code language named by an enclosing container (`<div class="language-x">`).
    lang_hint: Cell<Option<&'d str>>,
}

impl<'d, 'a> Renderer<'d, 'a> {
    fn attr(&self, e: &'d Element<'a>, name: AttrName) -> Option<&'d str> {
        self.doc.attr(e, name)
    }

    /// Renders the children of `parent` as blocks.
    fn blocks(&self, parent: NodeId, out: &mut Blocks) {
        for child in self.doc.children(parent) {
            self.block(child, out);
        }
    }

    /// Renders one node in a block context.
    fn block(&self, id: NodeId, out: &mut Blocks) {
        let e = match &self.doc.node(id).kind {
            Kind::Text(t) if self.doc.is_blank(id) => return out.inl.blank(t),
            Kind::Text(t) => return out.inl.text(t),
            Kind::Root => return,
            Kind::Element(e) => e,
        };
        match role(self.doc, id, e.tag) {
            Role::Drop => {}
            Role::Container => {
                out.para_break();
                let hint = self.lang_hint.get();
                if self.doc.has_pre(id)
                    && let Some(lang) = self.attr(e, AttrName::Class).and_then(code::language_from_class)
                {
                    self.lang_hint.set(Some(lang));
                }
                self.blocks(id, out);
                self.lang_hint.set(hint);
                out.para_break();
            }
            Role::Inline if e.tag != Tag::A => self.inline(id, &mut out.inl),
            Role::Br => out.inl.br(),
            role => self.other_block(id, e, role, out),
        }
    }

    /// [`Renderer::block`] for every role but a container's (and a dropped
    /// element): out of line, so the locals of these roles (a nested
    /// [`Blocks`], the rendered list, table, code) are not in the frame of
    /// `block`, which recurses once per nested container: in wasm that
    /// frame is on the shadow stack in linear memory, and every 4 KiB page
    /// of it a call touches is a page the host resets after the call.
    #[inline(never)]
    fn other_block(&self, id: NodeId, e: &'d Element<'a>, role: Role, out: &mut Blocks) {
        match role {
            Role::Drop | Role::Container => {}
            Role::Heading(level) => self.heading(id, level, out, None),
            // A link around just a heading: the heading, linked.
            Role::Inline
                if e.tag == Tag::A
                    && let Some((h, level)) = self.sole_heading(id) =>
            {
                self.heading(h, level, out, Some((id, e)))
            }
            Role::List => {
                let list = self.list(id, e);
                let sep = if out.item && lists::can_interrupt(self, e) {
                    "\n"
                } else {
                    "\n\n"
                };
                out.push_block(&list, sep);
            }
            Role::Item => {
                let list = self.orphan_item(id);
                out.push_block(&list, "\n\n");
            }
            Role::Quote => {
                let mut inner = Blocks::new();
                self.blocks(id, &mut inner);
                let inner = inner.finish();
                if !inner.is_empty() {
                    out.push_block(&blocks::quote(&inner), "\n\n");
                }
            }
            Role::Pre => out.push_block(&self.pre(id, e), "\n\n"),
            Role::Table => out.push_block(&self.table(id), "\n\n"),
            Role::Dl => out.push_block(&self.dl(id), "\n\n"),
            Role::Hr => out.push_block("* * *", "\n\n"),
            Role::Br => out.inl.br(),
            Role::Inline => self.inline(id, &mut out.inl),
        }
    }

    /// `# text` … `###### text`; dropped when empty.
    fn heading(&self, id: NodeId, level: u8, out: &mut Blocks, link: Option<(NodeId, &'d Element<'a>)>) {
        const HASHES: &str = "###### ";
        let prefix = &HASHES[6 - level as usize..];
        let at = out.begin_in_place(prefix);
        let saved = std::mem::replace(&mut out.inl.brk, Break::Space);
        match link {
            Some((a, e)) => self.link_around(a, e, id, &mut out.inl),
            None => self.inline_children(id, &mut out.inl),
        }
        out.inl.brk = saved;
        out.inl.trim_end(at.1);
        // A closing run of `#` would be read as the heading's closing sequence.
        let s = &out.inl.s;
        if s.len() > at.1 && s.ends_with('#') {
            let hashes = s[at.1..].bytes().rev().take_while(|&c| c == b'#').count();
            let run_start = s.len() - hashes;
            if run_start == at.1 || s.as_bytes()[run_start - 1] == b' ' {
                out.inl.s.insert(run_start, '\\');
            }
        }
        out.end_in_place(at);
    }

    /// The heading that is the only content of `id` (whitespace aside).
    fn sole_heading(&self, id: NodeId) -> Option<(NodeId, u8)> {
        let mut found = None;
        for child in self.doc.children(id) {
            match &self.doc.node(child).kind {
                Kind::Text(t) if t.trim().is_empty() => {}
                Kind::Element(e) if found.is_none() && e.tag.heading_level().is_some() => {
                    found = Some((child, e.tag.heading_level()?));
                }
                _ => return None,
            }
        }
        found
    }

    /// Renders the children of `parent` as inline content.
    fn inline_children(&self, parent: NodeId, inl: &mut Inline) {
        for child in self.doc.children(parent) {
            self.inline(child, inl);
        }
    }

    /// Renders one node in an inline context (blocks become line breaks).
    fn inline(&self, id: NodeId, inl: &mut Inline) {
        use Tag::*;
        let e = match &self.doc.node(id).kind {
            Kind::Text(t) if self.doc.is_blank(id) => return inl.blank(t),
            Kind::Text(t) => return inl.text(t),
            Kind::Root => return,
            Kind::Element(e) => e,
        };
        match e.tag {
            Br => inl.br(),
            Wbr => {}
            Img => self.image(e, inl),
            A => self.link(id, e, inl),
            Em | I => self.styled(id, inl, Wrap::Em),
            Strong | B => self.styled(id, inl, Wrap::Strong),
            Del | S | Strike => self.styled(id, inl, Wrap::Del),
            Code | Kbd | Samp | Tt => self.code_span(id, inl),
            Sup => self.tagged(id, inl, "<sup>", "</sup>"),
            Sub => self.tagged(id, inl, "<sub>", "</sub>"),
            Q => self.tagged(id, inl, "\"", "\""),
            Rt => self.tagged(id, inl, "(", ")"),
            Input => self.checkbox(e, inl),
            Math => match self
                .attr(e, AttrName::Alttext)
                .map(str::trim)
                .filter(|t| !t.is_empty())
            {
                Some(tex) => inl.raw_with(|s| {
                    s.push('$');
                    s.push_str(&tex.replace('\n', " "));
                    s.push('$');
                }),
                None => self.inline_children(id, inl),
            },
            Pre | Listing | Xmp | Plaintext => self.code_span(id, inl),
            Ul | Ol | Menu | Dir => self.inline_list(id, e, inl),
            Table => self.inline_table(id, inl),
            Hr => inl.boundary(),
            _ => match role(self.doc, id, e.tag) {
                Role::Drop => {}
                Role::Inline => self.inline_children(id, inl),
                _ => {
                    inl.boundary();
                    self.inline_children(id, inl);
                    inl.boundary();
                }
            },
        }
    }

    /// `**strong**`, `_em_` (`*em*` inside a word), `~~del~~`; not repeated when nested.
    fn styled(&self, id: NodeId, inl: &mut Inline, style: Wrap) {
        let depth = match style {
            Wrap::Em => inl.em,
            Wrap::Strong => inl.strong,
            Wrap::Del => inl.del,
        };
        if depth > 0 {
            return self.inline_children(id, inl);
        }
        let bump = |inl: &mut Inline, d: i32| match style {
            Wrap::Em => inl.em = (inl.em as i32 + d) as u32,
            Wrap::Strong => inl.strong = (inl.strong as i32 + d) as u32,
            Wrap::Del => inl.del = (inl.del as i32 + d) as u32,
        };
        bump(inl, 1);
        let m = inl.open();
        self.inline_children(id, inl);
        bump(inl, -1);
        let marker = match style {
            Wrap::Em if inl.byte_before(&m).is_some_and(|c| c.is_ascii_alphanumeric()) => "*",
            Wrap::Em => "_",
            Wrap::Strong => "**",
            Wrap::Del => "~~",
        };
        let opened_at = inl.close(m, marker, true, |s| s.push_str(marker));
        if let Some(at) = opened_at
            && marker == "_"
            && inl.s.ends_with('_')
        {
            inl.em_close = Some((at, inl.s.len() - 1));
        }
    }

    /// Content between two fixed strings (`<sup>`…`</sup>`), when not empty.
    fn tagged(&self, id: NodeId, inl: &mut Inline, open: &str, close: &str) {
        let m = inl.open();
        self.inline_children(id, inl);
        inl.close(m, open, false, |s| s.push_str(close));
    }

    /// A checkbox at the start of a list item: `[ ]` / `[x]` (GFM task list).
    fn checkbox(&self, e: &'d Element<'a>, inl: &mut Inline) {
        let is_checkbox = self
            .attr(e, AttrName::Type)
            .is_some_and(|t| t.eq_ignore_ascii_case("checkbox"));
        if is_checkbox && inl.item_start {
            inl.raw(if self.attr(e, AttrName::Checked).is_some() {
                "[x]"
            } else {
                "[ ]"
            });
            inl.space();
        }
    }
}

/// The wrapper styles of [`Renderer::styled`].
#[derive(Clone, Copy)]
enum Wrap {
    Em,
    Strong,
    Del,
}
