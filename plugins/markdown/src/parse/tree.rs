//! The tree builder: turns tokens into the arena [`Document`], closing
//! elements the way the HTML standard implies (`<p>` before a block, `<li>`
//! before the next `<li>`, table cells and rows, headings), and capping the
//! nesting depth so the recursive renderer stays within the wasm stack.

use super::tags::Tag;
use super::tokenizer::{Token, Tokenizer};
use super::{Document, Element, HAS_BLOCK, HAS_PRE, Kind, Node, NodeId, ROOT, WS_ONLY};
use std::borrow::Cow;

/// Elements nested deeper than this are flattened into their ancestor.
const MAX_DEPTH: usize = 256;

/// Parses an HTML document or fragment.
pub fn parse(src: &str) -> Document<'_> {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default; a runtime without it refuses the component when compiling
        // it, so this never runs there.
        unsafe { parse_simd128(src) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    parse_tokens(src)
}

/// [`parse_tokens`] compiled with SIMD128, so the tokenizer's byte scans
/// (`crate::scan`, SIMD128 functions) inline into its loop: as separate
/// calls they were 9 % of the plugin's time in wasm (a call costs more
/// under Cranelift than natively, where SSE2 is the baseline and they inline).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
unsafe fn parse_simd128(src: &str) -> Document<'_> {
    parse_tokens(src)
}

#[inline(always)]
fn parse_tokens(src: &str) -> Document<'_> {
    let mut b = Builder::new(src.len());
    let mut tokens = Tokenizer::new(src);
    loop {
        let first_attr = b.doc.attrs.len();
        let Some(token) = tokens.next(&mut b.doc.attrs) else {
            break;
        };
        match token {
            Token::Text(text) => b.on_text(text),
            Token::Start {
                tag,
                name,
                self_closing,
            } => b.on_start(tag, name, first_attr, self_closing),
            Token::End { tag, name } => b.on_end(tag, name),
        }
    }
    b.doc
}

/// Builds the tree from tokens; fed by the tokenizer ([`parse`]) or a
/// host's token stream (`super::stream`).
pub(super) struct Builder<'a> {
    pub(super) doc: Document<'a>,
    /// Open elements, root first, each with its tag (`None` for the root),
    /// so the scope walks read no node: one vector, one push and pop each.
    open: Vec<(NodeId, Option<Tag>)>,
    /// How many `<p>` are open: a block start closes one only then, so
    /// most starts skip the walk up the stack.
    open_p: u32,
    /// Inside `<svg>`: its nesting depth; everything is dropped.
    in_svg: u32,
}

impl<'a> Builder<'a> {
    /// An empty document, sized for about `input_len` bytes of HTML.
    pub(super) fn new(input_len: usize) -> Self {
        let mut b = Builder {
            doc: Document {
                nodes: Vec::with_capacity(input_len / 24 + 4),
                attrs: Vec::with_capacity(input_len / 256 + 4),
            },
            open: vec![(ROOT, None)],
            open_p: 0,
            in_svg: 0,
        };
        b.doc.nodes.push(Node {
            kind: Kind::Root,
            first_child: 0,
            last_child: 0,
            next: 0,
            flags: 0,
        });
        b
    }

    /// A text token.
    pub(super) fn on_text(&mut self, text: Cow<'a, str>) {
        if self.in_svg == 0 {
            self.text(text);
        }
    }

    /// A start tag token; its attributes are `doc.attrs[first_attr..]`.
    pub(super) fn on_start(&mut self, tag: Tag, name: &'a str, first_attr: usize, self_closing: bool) {
        if self.in_svg > 0 || tag == Tag::Svg {
            self.doc.attrs.truncate(first_attr);
            if !self_closing && tag == Tag::Svg {
                self.in_svg += 1;
            }
            return;
        }
        self.start(tag, name, first_attr, self_closing);
    }

    /// An end tag token.
    pub(super) fn on_end(&mut self, tag: Tag, name: &str) {
        if self.in_svg > 0 {
            if tag == Tag::Svg {
                self.in_svg -= 1;
            }
            return;
        }
        self.end(tag, name);
    }

    fn current(&self) -> NodeId {
        self.open.last().map_or(ROOT, |&(id, _)| id)
    }

    fn tag_at(&self, depth: usize) -> Option<Tag> {
        self.open[depth].1
    }

    /// The tag of the current element (`None` at the root).
    fn current_tag(&self) -> Option<Tag> {
        self.open.last().and_then(|&(_, tag)| tag)
    }

    #[inline(always)]
    fn push_open(&mut self, id: NodeId, tag: Tag) {
        self.open.push((id, Some(tag)));
        self.open_p += u32::from(tag == Tag::P);
    }

    #[inline(always)]
    fn pop_open(&mut self) {
        if self.open.pop().is_some_and(|(_, tag)| tag == Some(Tag::P)) {
            self.open_p -= 1;
        }
    }

    #[inline(always)]
    fn truncate_open(&mut self, depth: usize) {
        let closed_p = self.open[depth.min(self.open.len())..]
            .iter()
            .filter(|&&(_, t)| t == Some(Tag::P))
            .count();
        self.open_p -= closed_p as u32;
        self.open.truncate(depth);
    }

    fn append(&mut self, kind: Kind<'a>) -> NodeId {
        let id = self.doc.nodes.len() as NodeId;
        let parent = self.current();
        self.doc.nodes.push(Node {
            kind,
            first_child: 0,
            last_child: 0,
            next: 0,
            flags: 0,
        });
        let p = &mut self.doc.nodes[parent as usize];
        let last = p.last_child;
        p.last_child = id;
        if last == 0 {
            p.first_child = id;
        } else {
            self.doc.nodes[last as usize].next = id;
        }
        id
    }

    fn text(&mut self, text: Cow<'a, str>) {
        let whitespace = crate::scan::all_html_ws(text.as_bytes());
        if whitespace {
            use Tag::*;
            let parent_ignores = matches!(
                self.current_tag(),
                Some(Ul | Ol | Dl | Table | Thead | Tbody | Tfoot | Tr | Colgroup | Select | Menu | Dir)
            );
            if parent_ignores || self.current() == ROOT && self.doc.node(ROOT).first_child == 0 {
                return;
            }
        }
        let id = self.append(Kind::Text(text));
        if whitespace {
            self.doc.nodes[id as usize].flags = WS_ONLY;
        }
    }

    fn start(&mut self, tag: Tag, name: &'a str, first_attr: usize, self_closing: bool) {
        use Tag::*;
        if matches!(tag, Html | Body | Head) {
            self.doc.attrs.truncate(first_attr);
            return;
        }
        if tag.closes_p() && self.open_p > 0 {
            self.close_in_scope(|t| t == P, |t| t.is_scope_boundary());
        }
        match tag {
            Li => self.close_in_scope(
                |t| t == Li,
                |t| matches!(t, Ul | Ol | Menu | Dir) || t.is_scope_boundary(),
            ),
            Dd | Dt => self.close_in_scope(|t| matches!(t, Dd | Dt), |t| t == Dl || t.is_scope_boundary()),
            Tr => self.close_in_scope(|t| t == Tr, |t| matches!(t, Table | Thead | Tbody | Tfoot)),
            Td | Th => self.close_in_scope(
                |t| matches!(t, Td | Th),
                |t| matches!(t, Tr | Table | Thead | Tbody | Tfoot),
            ),
            Thead | Tbody | Tfoot => {
                self.close_in_scope(|t| matches!(t, Thead | Tbody | Tfoot), |t| t == Table)
            }
            A => self.close_in_scope(|t| t == A, |t| t.is_scope_boundary()),
            Option | Optgroup => {
                while matches!(self.current_tag(), Some(Option))
                    || tag == Optgroup && self.current_tag() == Some(Optgroup)
                {
                    self.pop_open();
                }
            }
            _ if tag.heading_level().is_some()
                && self.current_tag().is_some_and(|t| t.heading_level().is_some()) =>
            {
                self.pop_open();
            }
            _ => {}
        }
        let attrs = (first_attr as u32, self.doc.attrs.len() as u32);
        let id = self.append(Kind::Element(Element { tag, name, attrs }));
        if tag.is_block() {
            let flag = if matches!(tag, Pre | Listing | Xmp | Plaintext) {
                HAS_BLOCK | HAS_PRE
            } else {
                HAS_BLOCK
            };
            for &(ancestor, _) in self.open.iter().rev() {
                let node = &mut self.doc.nodes[ancestor as usize];
                if node.flags & flag == flag {
                    break;
                }
                node.flags |= flag;
            }
        }
        // `/>` only closes foreign (MathML, custom) elements; HTML ignores it.
        let closed = tag.is_void() || self_closing && tag == Other;
        if !closed && self.open.len() < MAX_DEPTH {
            self.push_open(id, tag);
        }
    }

    fn end(&mut self, tag: Tag, name: &str) {
        use Tag::*;
        match tag {
            Html | Body | Head => {}
            Br => {
                let attrs = (self.doc.attrs.len() as u32, self.doc.attrs.len() as u32);
                self.append(Kind::Element(Element {
                    tag: Br,
                    name: "br",
                    attrs,
                }));
            }
            P if self.open_p > 0 => self.close_in_scope(|t| t == P, |t| t.is_scope_boundary()),
            P => {}
            Li => self.close_in_scope(
                |t| t == Li,
                |t| matches!(t, Ul | Ol | Menu | Dir) || t.is_scope_boundary(),
            ),
            Dd | Dt => self.close_in_scope(|t| t == tag, |t| t == Dl || t.is_scope_boundary()),
            Td | Th | Tr | Thead | Tbody | Tfoot | Caption | Colgroup => {
                self.close_in_scope(|t| t == tag, |t| t == Table)
            }
            Table => self.close_in_scope(|t| t == Table, |t| t == Template),
            _ if tag.heading_level().is_some() => {
                self.close_in_scope(|t| t.heading_level().is_some(), |t| t.is_scope_boundary())
            }
            Other => {
                // Custom elements: matched by name; a block in between stops the search.
                for depth in (1..self.open.len()).rev() {
                    match self.doc.element(self.open[depth].0) {
                        Some(e) if e.tag == Other && e.name.eq_ignore_ascii_case(name) => {
                            self.truncate_open(depth);
                            return;
                        }
                        Some(e) if e.tag.is_block() => return,
                        _ => {}
                    }
                }
            }
            _ if tag.is_block() => self.close_in_scope(|t| t == tag, |t| t.is_scope_boundary()),
            _ if tag.is_formatting() => self.close_in_scope(|t| t == tag, |t| t.is_scope_boundary()),
            _ => {
                for depth in (1..self.open.len()).rev() {
                    match self.tag_at(depth) {
                        Some(t) if t == tag => {
                            self.truncate_open(depth);
                            return;
                        }
                        Some(t) if t.is_block() => return,
                        _ => {}
                    }
                }
            }
        }
    }

    /// Pops up to and including the innermost open element matching `target`,
    /// unless an element matching `boundary` comes first.
    fn close_in_scope(&mut self, target: impl Fn(Tag) -> bool, boundary: impl Fn(Tag) -> bool) {
        for depth in (1..self.open.len()).rev() {
            let Some(t) = self.tag_at(depth) else { return };
            if target(t) {
                self.truncate_open(depth);
                return;
            }
            if boundary(t) {
                return;
            }
        }
    }
}
