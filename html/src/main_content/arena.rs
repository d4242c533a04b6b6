//! The analysis tree: one entry per element of `<body>` in document order (pre-order), with
//! what the extractor needs to score it — markup hints, and text statistics of the text it
//! owns as a block and of its whole subtree. Built in one walk, totals in one reverse pass.

use dom_query::{Document, NodeData, NodeId};

use super::hints::{self, Kind, Landmark, Words};
use super::spare::Spares;
use super::tag_facts::{TagFacts, TagMemo};
pub(super) use super::text_stats::{HASH_SEED, Text};
use super::text_stats::{first_non_space, text_stats_from};
use super::upstream::{EXCLUDE, FORCE_INCLUDE};

/// Counts of descendant elements.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    pub links: u32,
    pub images: u32,
    pub headings: u32,
    pub paras: u32,
    pub items: u32,
    pub buttons: u32,
    /// Blocks with some text.
    pub blocks: u32,
    /// `main` landmarks (this element included).
    pub mains: u32,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.links += o.links;
        self.images += o.images;
        self.headings += o.headings;
        self.paras += o.paras;
        self.items += o.items;
        self.buttons += o.buttons;
        self.blocks += o.blocks;
        self.mains += o.mains;
    }
}

pub(super) struct Node {
    pub id: NodeId,
    /// Arena index of the parent (`u32::MAX` for the root).
    pub parent: u32,
    /// Number of entries in this subtree, this one included (children follow in order).
    pub size: u32,
    pub depth: u16,
    pub kind: Kind,
    pub landmark: Landmark,
    pub words: Words,
    /// A form control, embed, `aria-hidden` or the like: removed, never scored.
    pub dropped: bool,
    /// Hidden until a script shows it (`hidden`, `aria-hidden`, `display:none`).
    pub hidden: bool,
    /// Matches upstream's exclude list / force-include list.
    pub listed: bool,
    pub forced: bool,
    /// Inside an `<a>` (or is one).
    pub in_link: bool,
    /// An inline element whose own markup names chrome (`<a class="btn">`, a share link).
    pub chrome_inline: bool,
    /// This or an inline ancestor (up to the owning block) is `chrome_inline`.
    pub in_chrome_inline: bool,
    /// Text owned as a block (inline descendants included, nested blocks excluded).
    pub own: Text,
    /// Text of the whole subtree.
    pub total: Text,
    pub counts: Counts,
    /// Arena index of the block this element's inline text belongs to (itself if a block).
    pub block: u32,
    /// Hash of the tag name and first class word (digits ignored): siblings with the same
    /// signature are instances of one template (cards, rows, posts).
    pub sig: u32,
    /// Hash of the tag name alone (templates whose classes vary per item).
    pub tag_sig: u32,
    /// Hash of the words of the text owned as a block, in order (letters and digits only,
    /// ASCII lower-cased).
    pub own_hash: u64,
    /// Hash of the subtree's text: own words, then the children's `hash` in order. Two
    /// subtrees with the same hash repeat one text (a block rendered twice for two screen
    /// sizes, a carousel's cloned slides, a dialog repeated per item).
    pub hash: u64,
}

impl Node {
    /// Characters of the subtree outside links.
    pub fn plain(&self) -> u32 {
        self.total.chars - self.total.link_chars
    }

    pub fn is_block(&self) -> bool {
        !matches!(
            self.kind,
            Kind::Inline | Kind::Link | Kind::Image | Kind::Break | Kind::Media
        )
    }

    /// A paragraph of prose: 12 words of its own or more, under 30 % of them in links. How
    /// the article's body is found (`link_lists`) and what the passes after it count as
    /// the body's last sentence.
    pub fn is_prose_paragraph(&self) -> bool {
        self.kind == Kind::Para && !self.dropped && self.own.words >= 12 && self.own.link_density() < 0.3
    }
}

pub(super) struct Arena {
    pub nodes: Vec<Node>,
}

/// Bytes of node storage kept between arenas, per kept vector (a ~500 KB
/// page's arena is ~430 KiB): reused, it is not a fresh mapping whose pages
/// fault in on every page (glibc maps blocks of 128 KiB or more on their own).
/// A larger one is released when its arena drops.
const SPARE_NODES_BYTES: usize = 1 << 20;

/// Node storage of the last arenas, empty: two, as many as a server builds
/// large arenas at once (one per CPU on two), whichever threads build them.
static SPARE_NODES: Spares<Node, 2> = Spares::new(SPARE_NODES_BYTES);

impl Drop for Arena {
    fn drop(&mut self) {
        SPARE_NODES.give(std::mem::take(&mut self.nodes));
    }
}

const NONE: u32 = u32::MAX;

/// The per-page memos of the walk: class words, tag facts; and the nodes it found to
/// strip (the caller's list, held here for the walk).
#[derive(Default)]
struct Memos {
    words: hints::WordCache,
    tags: TagMemo,
    doomed: Vec<NodeId>,
}

impl Arena {
    /// Builds the arena for the subtree of `root` (normally `<body>`), leaving out what
    /// [`crate::clean::strip_unwanted`] removes (`script`, `style`, comments…) and adding
    /// those nodes to `doomed` for the caller to remove, as that function would have.
    pub fn build(doc: &Document, root: NodeId, doomed: &mut Vec<NodeId>) -> Arena {
        let tree = &doc.tree;
        let mut nodes: Vec<Node> = SPARE_NODES.take(tree.len() / 2);
        let mut cache = Memos {
            doomed: std::mem::take(doomed),
            ..Memos::default()
        };
        let root_element = tree
            .query_node(&root, |n| match &n.data {
                NodeData::Element(el) => push_node(&mut nodes, root, NONE, 0, el, false, &mut cache),
                _ => false,
            })
            .unwrap_or(false);
        if !root_element {
            nodes.push(Node {
                id: root,
                parent: NONE,
                size: 1,
                depth: 0,
                kind: Kind::Block,
                landmark: Landmark::None,
                words: Words::default(),
                dropped: false,
                hidden: false,
                listed: false,
                forced: false,
                in_link: false,
                chrome_inline: false,
                in_chrome_inline: false,
                own: Text::default(),
                total: Text::default(),
                counts: Counts::default(),
                block: 0,
                sig: 0,
                tag_sig: 0,
                own_hash: HASH_SEED,
                hash: HASH_SEED,
            });
        }
        nodes[0].block = 0;
        nodes[0].kind = Kind::Block;
        // The walk: pre-order over the descendants of `root`, one look at each node (its
        // data, first child and next sibling together). `parent` is what the look needs of
        // the open element; the stack holds the elements opened before it (with the node
        // that follows the open element's subtree).
        let mut parent = Parent::of(&nodes, 0);
        let mut stack: Vec<(Parent, Option<NodeId>)> = Vec::new();
        let mut next = tree.query_node(&root, |n| n.first_child).flatten();
        while let Some(id) = next {
            let (element, first_child, next_sibling) = tree
                .query_node(&id, |n| match &n.data {
                    // Whitespace between tags (most text nodes of a page) has nothing to
                    // count: passed over here, without the call.
                    NodeData::Text { contents } if first_non_space(contents.as_bytes()).is_none() => {
                        (false, None, n.next_sibling)
                    }
                    // An element: its entry pushed here, without a call to `look`.
                    NodeData::Element(el) => {
                        let depth = parent.depth.saturating_add(1);
                        if push_node(
                            &mut nodes,
                            n.id,
                            parent.index,
                            depth,
                            el,
                            parent.in_link,
                            &mut cache,
                        ) {
                            (true, n.first_child, n.next_sibling)
                        } else {
                            // Removed with its subtree, neither read nor entered.
                            cache.doomed.push(n.id);
                            (false, None, n.next_sibling)
                        }
                    }
                    _ => {
                        look(n, &mut nodes, &mut cache, parent);
                        (false, None, n.next_sibling)
                    }
                })
                .unwrap_or((false, None, None));
            if element {
                let index = nodes.len() as u32 - 1;
                let node = &mut nodes[index as usize];
                node.block = if node.is_block() || parent.block == NONE {
                    index
                } else {
                    parent.block
                };
                let counts_link = node.kind == Kind::Link && !node.dropped && !parent.dropped;
                node.dropped |= parent.dropped;
                node.in_chrome_inline = !node.is_block() && (node.chrome_inline || parent.in_chrome);
                let descend = !(node.dropped || node.kind == Kind::Media);
                let block = node.block;
                if counts_link {
                    nodes[block as usize].own.links += 1;
                }
                if descend && first_child.is_some() {
                    stack.push((parent, next_sibling));
                    parent = Parent::of(&nodes, index);
                    next = first_child;
                    continue;
                }
                if first_child.is_some() {
                    // Not read, but stripped all the same (`<svg><style>`).
                    crate::clean::collect_unwanted(tree, id, None, &mut cache.doomed);
                }
            }
            next = next_sibling;
            // Out of the elements whose subtrees are done.
            while next.is_none() {
                let Some((open, after)) = stack.pop() else {
                    break;
                };
                parent = open;
                next = after;
            }
        }
        // Totals, bottom-up: children come after their parent in pre-order.
        for i in (0..nodes.len()).rev() {
            let (own, kind, dropped) = (nodes[i].own, nodes[i].kind, nodes[i].dropped);
            let n = &mut nodes[i];
            if !dropped {
                n.total.add(&own);
                match kind {
                    Kind::Link => n.counts.links += 1,
                    Kind::Image | Kind::Media => n.counts.images += 1,
                    Kind::Heading => n.counts.headings += 1,
                    Kind::Para => n.counts.paras += 1,
                    Kind::Item => n.counts.items += 1,
                    Kind::Button => n.counts.buttons += 1,
                    _ => {}
                }
                if own.chars > 0 {
                    n.counts.blocks += 1;
                }
                if n.landmark == Landmark::Main {
                    n.counts.mains += 1;
                }
            }
            let parent = n.parent;
            if parent != NONE && !dropped {
                let (total, counts, size) = (n.total, n.counts, n.size);
                let p = &mut nodes[parent as usize];
                p.total.add(&total);
                p.counts.add(&counts);
                p.size += size;
            } else if parent != NONE {
                let size = n.size;
                nodes[parent as usize].size += size;
            }
        }
        // Subtree hashes, bottom-up; children are folded in document order.
        for i in (0..nodes.len()).rev() {
            let mut h = nodes[i].own_hash;
            let end = i + nodes[i].size as usize;
            let mut c = i + 1;
            while c < end {
                if !nodes[c].dropped {
                    h = mix(h, nodes[c].hash);
                }
                c += nodes[c].size as usize;
            }
            nodes[i].hash = h;
        }
        *doomed = cache.doomed;
        Arena { nodes }
    }

    /// Arena indices of the children of `i`.
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let end = i + self.nodes[i].size as usize;
        let mut j = i + 1;
        std::iter::from_fn(move || {
            if j < end {
                let c = j;
                j += self.nodes[j].size as usize;
                Some(c)
            } else {
                None
            }
        })
    }
}

/// What the walk's look at a node needs of its parent (final once the parent is
/// pushed: its children's looks only add to entries' own text).
#[derive(Clone, Copy)]
struct Parent {
    /// Arena index of the parent element.
    index: u32,
    depth: u16,
    /// Arena index of the block its inline text belongs to.
    block: u32,
    in_link: bool,
    dropped: bool,
    in_chrome: bool,
    /// The block is a heading (only a heading's text can title a comment section).
    heading: bool,
}

impl Parent {
    /// The element at `index` as a parent.
    fn of(nodes: &[Node], index: u32) -> Parent {
        let p = &nodes[index as usize];
        Parent {
            index,
            depth: p.depth,
            block: p.block,
            in_link: p.in_link,
            dropped: p.dropped,
            in_chrome: p.in_chrome_inline,
            // Only a heading's text can title a comment section.
            heading: p.block != NONE && nodes[p.block as usize].kind == Kind::Heading,
        }
    }
}

/// The walk's look at a node that is not an element (the walk's closure pushes an
/// element's entry and passes over whitespace-only text itself): a comment is listed for
/// removal, a text's statistics are added to its block. (A function of its own, so the
/// closure handed to `query_node` stays small and the text's statistics are not returned
/// through it.)
#[inline(never)]
fn look(n: &dom_query::TreeNode, nodes: &mut [Node], cache: &mut Memos, p: Parent) {
    match &n.data {
        NodeData::Comment { .. } => cache.doomed.push(n.id),
        NodeData::Text { contents } if !p.dropped && p.block != NONE => {
            // Whitespace between tags has nothing to count: its statistics are all zero
            // and never added. Otherwise the count starts at the first other byte.
            if let Some(start) = first_non_space(contents.as_bytes()) {
                let (t, h) = text_stats_from(contents, start, p.in_link, p.in_chrome, p.heading);
                if t.chars > 0 {
                    let block = &mut nodes[p.block as usize];
                    block.own.add(&t);
                    block.own_hash = mix(block.own_hash, h);
                }
            }
        }
        _ => {}
    }
}

/// Pushes an element's entry (built where it is stored, not built and then copied), unless
/// its tag is one stripped before the analysis (`script`, `style`…): false then.
#[inline(never)]
fn push_node(
    nodes: &mut Vec<Node>,
    id: NodeId,
    parent: u32,
    depth: u16,
    el: &dom_query::Element,
    in_link: bool,
    cache: &mut Memos,
) -> bool {
    let tag = cache.tags.facts(el);
    if tag.stripped {
        return false;
    }
    nodes.reserve(1);
    nodes.push(new_node(id, parent, depth, el, tag, in_link, cache));
    true
}

#[inline(always)]
fn new_node(
    id: NodeId,
    parent: u32,
    depth: u16,
    el: &dom_query::Element,
    tag: TagFacts,
    in_link: bool,
    cache: &mut Memos,
) -> Node {
    let kind = tag.kind;
    let is_link = kind == Kind::Link;
    let tag_sig = tag.tag_sig;
    let hints::ElementWords {
        words,
        classes,
        sig,
        id: el_id,
        role_or_hiding,
    } = hints::words_and_listed_classes(el, &mut cache.words, tag_sig, tag.custom);
    // Without an attribute they read, `hidden` and `landmark` need not look at them.
    let (hidden, landmark) = if role_or_hiding {
        (hints::hidden(el), hints::landmark(el))
    } else {
        (hints::Hidden::No, tag.landmark)
    };
    let inline = matches!(kind, Kind::Inline | Kind::Link);
    Node {
        id,
        parent,
        size: 1,
        depth,
        kind,
        landmark,
        words,
        chrome_inline: inline && (words.boiler || words.score <= -3),
        in_chrome_inline: false,
        dropped: kind == Kind::Drop || hidden == hints::Hidden::Aria || words.screen_reader,
        hidden: hidden == hints::Hidden::Styled || words.class_hidden,
        // Upstream's list only decides for elements whose words are mixed or silent.
        listed: words.score > -3
            && words.score <= 0
            && (classes.excluded || tag.excluded || EXCLUDE.matches_id(el_id)),
        forced: classes.forced || tag.forced || FORCE_INCLUDE.matches_id(el_id),
        in_link: in_link || is_link,
        own: Text::default(),
        total: Text::default(),
        counts: Counts::default(),
        block: NONE,
        sig,
        tag_sig,
        own_hash: HASH_SEED,
        hash: HASH_SEED,
    }
}

/// Folds `x` into `h`, order-sensitive.
fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(17) ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    #[test]
    fn owns_inline_text_and_totals_subtrees() {
        let doc = parse(
            "<div><p>Hello <a href=x>big</a> world.</p><ul><li><a href=y>one</a></li></ul>\
             <div aria-hidden=true>secret</div><input value=v></div>",
        );
        let body = doc.body().unwrap().id;
        let a = Arena::build(&doc, body, &mut Vec::new());
        let names: Vec<Kind> = a.nodes.iter().map(|n| n.kind).collect();
        assert_eq!(
            names,
            [
                Kind::Block,
                Kind::Block,
                Kind::Para,
                Kind::Link,
                Kind::List,
                Kind::Item,
                Kind::Link,
                Kind::Block,
                Kind::Drop
            ]
        );
        let p = &a.nodes[2];
        assert_eq!(
            (p.own.chars, p.own.link_chars, p.own.words, p.own.punct),
            (14, 3, 3, 1)
        );
        let div = &a.nodes[1];
        assert_eq!((div.total.chars, div.total.link_chars), (17, 6));
        assert_eq!(div.counts.links, 2);
        assert_eq!(div.size, 8);
        assert!(a.nodes[7].dropped);
        assert_eq!(a.children(1).collect::<Vec<_>>(), [2, 4, 7, 8]);
    }

    /// The signatures as they were made before the memo: FNV-1a over the tag name, then
    /// `.` and the first class of the first `class` attribute without its digits.
    fn signatures_reference(el: &dom_query::Element) -> (u32, u32) {
        let eat = |h: u32, b: u8| (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        let tag = el.name.local.bytes().fold(0x811c_9dc5, eat);
        let class = crate::dom::attr(el, &crate::dom::local_name!("class")).unwrap_or("");
        let b = class.as_bytes();
        let Some(start) = b.iter().position(|c| !c.is_ascii_whitespace()) else {
            return (tag, tag);
        };
        let mut h = eat(tag, b'.');
        for &c in b[start..].iter().take_while(|c| !c.is_ascii_whitespace()) {
            if !c.is_ascii_digit() {
                h = eat(h, c);
            }
        }
        (h, tag)
    }

    #[test]
    fn memoised_signatures_are_the_signatures_made_per_element() {
        // Class values repeated on several tags, with digits, spaces only, several classes.
        let tags = ["div", "li", "section", "a", "span", "my-card"];
        let classes = [
            "",
            " ",
            "card",
            "card item2",
            " x1 y",
            "42",
            "card-3 big",
            "\tnav  ",
        ];
        let mut rng = crate::test_rng::TestRng::new(31);
        for _ in 0..300 {
            let mut html = String::new();
            for _ in 0..40 {
                let tag = tags[rng.below(tags.len())];
                let class = classes[rng.below(classes.len())];
                let attr = if rng.below(5) == 0 {
                    String::new()
                } else {
                    format!(" class='{class}'")
                };
                html.push_str(&format!("<{tag}{attr}>t</{tag}>"));
                if rng.below(4) == 0 {
                    html.push_str("<div>");
                }
            }
            let doc = parse(&html);
            let a = Arena::build(&doc, doc.body().unwrap().id, &mut Vec::new());
            for n in &a.nodes[1..] {
                let reference = crate::dom::with_element(&doc.tree, n.id, signatures_reference).unwrap();
                assert_eq!((n.sig, n.tag_sig), reference, "{html}");
            }
        }
    }

    fn kinds(a: &Arena) -> Vec<(Kind, u32, u32)> {
        a.nodes.iter().map(|n| (n.kind, n.parent, n.own.chars)).collect()
    }

    #[test]
    fn an_arena_on_reused_storage_holds_only_the_new_pages_nodes() {
        let big = parse(&"<div><p>Some words in a paragraph.</p><ul><li>item</li></ul></div>".repeat(300));
        let small = parse("<article><h1>T</h1><p>One two.</p></article>");
        let (big_body, small_body) = (big.body().unwrap().id, small.body().unwrap().id);
        let fresh_small = kinds(&Arena::build(&small, small_body, &mut Vec::new()));
        let first = Arena::build(&big, big_body, &mut Vec::new());
        assert!(first.nodes.len() > 1000);
        drop(first);
        // Other tests' threads share the spares, so which storage this one
        // gets is not fixed (spare.rs tests the reuse itself); what it holds is.
        let again = Arena::build(&small, small_body, &mut Vec::new());
        assert_eq!(kinds(&again), fresh_small, "only the new page's nodes");
    }
}
