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
                NodeData::Element(el) => {
                    push_node(&mut nodes, root, 0, el, &Parent::ROOT, &mut cache).is_some()
                }
                _ => false,
            })
            .unwrap_or(false);
        if !root_element {
            nodes.push(entry(
                root,
                NONE,
                0,
                Kind::Block,
                Landmark::None,
                Words::default(),
                Marks::default(),
                (0, 0),
            ));
        }
        // The root is the analysis' outermost block whatever its tag, its own block, and
        // in no inline chrome (set here, after `push_node`: an entry is pushed as its tag
        // and parent make it, and the root has no parent; its other marks stay).
        nodes[0].block = 0;
        nodes[0].kind = Kind::Block;
        nodes[0].in_chrome_inline = false;
        // The walk: pre-order over the descendants of `root`, one look at each node (its
        // data, first child and next sibling together). `parent` is what the look needs of
        // the open element; the stack holds the elements opened before it (with the node
        // that follows the open element's subtree).
        let mut parent = Parent::of(&nodes, 0);
        // (Room for a page's usual depth at once, not grown step by step.)
        let mut stack: Vec<(Parent, Option<NodeId>)> = Vec::with_capacity(64);
        let mut next = tree.query_node(&root, |n| n.first_child).flatten();
        while let Some(id) = next {
            // What the walk needs of an element's entry once pushed.
            let mut pushed_as = Pushed::default();
            let (element, first_child, next_sibling) = tree
                .query_node(&id, |n| match &n.data {
                    // Whitespace between tags (most text nodes of a page) has nothing to
                    // count: passed over here, without the call; other text is counted
                    // from its first other byte, found here once.
                    NodeData::Text { contents } => {
                        if let Some(start) = first_non_space(contents.as_bytes())
                            && !parent.dropped
                            && parent.block != NONE
                        {
                            look_text(contents, start, &mut nodes, parent);
                        }
                        (false, None, n.next_sibling)
                    }
                    NodeData::Comment { .. } => {
                        cache.doomed.push(n.id);
                        (false, None, n.next_sibling)
                    }
                    // An element: its entry pushed here (`push_node`).
                    NodeData::Element(el) => {
                        let depth = parent.depth.saturating_add(1);
                        match push_node(&mut nodes, n.id, depth, el, &parent, &mut cache) {
                            Some(pushed) => {
                                pushed_as = pushed;
                                (true, n.first_child, n.next_sibling)
                            }
                            None => {
                                // Removed with its subtree, neither read nor entered.
                                cache.doomed.push(n.id);
                                (false, None, n.next_sibling)
                            }
                        }
                    }
                    _ => (false, None, n.next_sibling),
                })
                .unwrap_or((false, None, None));
            if element {
                let index = nodes.len() as u32 - 1;
                if pushed_as.counts_link {
                    nodes[pushed_as.block as usize].own.links += 1;
                }
                if pushed_as.descend && first_child.is_some() {
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
    /// What the root's entry is pushed under: no parent, no block, nothing inherited.
    const ROOT: Parent = Parent {
        index: NONE,
        depth: 0,
        block: NONE,
        in_link: false,
        dropped: false,
        in_chrome: false,
        heading: false,
    };

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

/// The walk's look at a text node with something besides whitespace (from `start`, its
/// first other byte), under a parent that is counted: its statistics are added to its
/// block. (A function of its own, so the closure handed to `query_node` stays small and
/// the text's statistics are not returned through it.)
#[inline(never)]
fn look_text(contents: &str, start: usize, nodes: &mut [Node], p: Parent) {
    let (t, h) = text_stats_from(contents, start, p.in_link, p.in_chrome, p.heading);
    if t.chars > 0 {
        let block = &mut nodes[p.block as usize];
        block.own.add(&t);
        block.own_hash = mix(block.own_hash, h);
    }
}

/// What the walk needs of an element's entry once it is pushed.
#[derive(Default)]
struct Pushed {
    /// The entry's block (itself, or the block its inline text belongs to).
    block: u32,
    /// A link the block counts among the links it owns.
    counts_link: bool,
    /// The walk goes into its subtree (not dropped, not media).
    descend: bool,
}

/// Pushes an element's entry under the open element `p` (built where it is stored, not
/// built and then copied, with what it inherits from `p`), unless its tag is one stripped
/// before the analysis (`script`, `style`…): None then.
#[inline(never)]
fn push_node(
    nodes: &mut Vec<Node>,
    id: NodeId,
    depth: u16,
    el: &dom_query::Element,
    p: &Parent,
    cache: &mut Memos,
) -> Option<Pushed> {
    let tag = cache.tags.facts(el);
    if tag.stripped {
        return None;
    }
    nodes.reserve(1);
    let mut node = if el.attrs.is_empty() && !tag.custom {
        // No attribute and no words in the tag's name (18 % of a body's elements): all
        // the entry says comes from the tag, without the attribute loop's set-up.
        bare_node(id, p.index, depth, tag, p.in_link)
    } else {
        new_node(id, p.index, depth, el, tag, p.in_link, cache)
    };
    let index = nodes.len() as u32;
    let is_block = node.is_block();
    node.block = if is_block || p.block == NONE {
        index
    } else {
        p.block
    };
    let counts_link = node.kind == Kind::Link && !node.dropped && !p.dropped;
    node.dropped |= p.dropped;
    node.in_chrome_inline = !is_block && (node.chrome_inline || p.in_chrome);
    let pushed = Pushed {
        block: node.block,
        counts_link,
        descend: !(node.dropped || node.kind == Kind::Media),
    };
    nodes.push(node);
    Some(pushed)
}

/// [`new_node`] of an element without attributes whose tag is not a custom element's:
/// no class or id words, not hidden, its tag's landmark and signature, listed or forced
/// as its tag is.
#[inline(always)]
fn bare_node(id: NodeId, parent: u32, depth: u16, tag: TagFacts, in_link: bool) -> Node {
    let kind = tag.kind;
    let marks = Marks {
        chrome_inline: false,
        dropped: kind == Kind::Drop,
        hidden: false,
        listed: tag.excluded,
        forced: tag.forced,
        in_link: in_link || kind == Kind::Link,
    };
    entry(
        id,
        parent,
        depth,
        kind,
        tag.landmark,
        Words::default(),
        marks,
        (tag.tag_sig, tag.tag_sig),
    )
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
    let marks = Marks {
        chrome_inline: inline && (words.boiler || words.score <= -3),
        dropped: kind == Kind::Drop || hidden == hints::Hidden::Aria || words.screen_reader,
        hidden: hidden == hints::Hidden::Styled || words.class_hidden,
        // Upstream's list only decides for elements whose words are mixed or silent.
        listed: words.score > -3
            && words.score <= 0
            && (classes.excluded || tag.excluded || EXCLUDE.matches_id(el_id)),
        forced: classes.forced || tag.forced || FORCE_INCLUDE.matches_id(el_id),
        in_link: in_link || is_link,
    };
    entry(id, parent, depth, kind, landmark, words, marks, (sig, tag_sig))
}

/// What an element's markup marks its entry as ([`Node`]'s fields of those names).
#[derive(Default)]
struct Marks {
    chrome_inline: bool,
    dropped: bool,
    hidden: bool,
    listed: bool,
    forced: bool,
    in_link: bool,
}

/// A new entry: what its element says (`sigs`: its signature and its tag's), nothing
/// counted yet, no block (the walk sets it).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn entry(
    id: NodeId,
    parent: u32,
    depth: u16,
    kind: Kind,
    landmark: Landmark,
    words: Words,
    marks: Marks,
    (sig, tag_sig): (u32, u32),
) -> Node {
    Node {
        id,
        parent,
        size: 1,
        depth,
        kind,
        landmark,
        words,
        chrome_inline: marks.chrome_inline,
        in_chrome_inline: false,
        dropped: marks.dropped,
        hidden: marks.hidden,
        listed: marks.listed,
        forced: marks.forced,
        in_link: marks.in_link,
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
mod tests;
