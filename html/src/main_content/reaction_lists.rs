//! A log of readers' reactions under a post: "ann liked this", "bob reblogged this from
//! ann", "cy reblogged this from bob and added: …" — one item per reaction, each a
//! reader's name (a link) and the platform's few words about what they did. The items'
//! words outside their links are a handful of phrases repeated down the list, which an
//! author's own list (sources, steps, a reading list) is not; a shop's list of products
//! (a title link, a price, a brand) has longer items, digits, or one word beside its links.
//! A quote a reader added goes with its item. The log may stand anywhere in the container
//! (a share widget's hidden title can follow it).

use dom_query::{Document, NodeData, NodeId};

use super::arena::Arena;
use super::hints::Kind;
use super::letter_hash::LetterHash;
use super::pruning::Pruning;
use crate::dom::{Walker, local_name};

/// Items a reaction log holds at least.
const MIN_ITEMS: usize = 10;
/// Items sharing a phrase for it to count as the platform's.
const PHRASE_ITEMS: usize = 3;
/// Share of the items whose phrase is shared so (a reaction log: 94 %; other lists of the
/// corpora: 54 % at most).
const SHARED: f32 = 0.8;
/// Words of an item's phrase (outside its links) at least and at most: what a reader did
/// ("liked this"); a single word beside a link is a shop's brand or a byline's "by".
const PHRASE_MIN_WORDS: usize = 2;
const PHRASE_WORDS: usize = 6;
/// Words of an item, the quote it holds aside, at most: a reader's name and the phrase (a
/// product's or a story's title is longer).
const ITEM_WORDS: u32 = 8;

/// Prunes the reaction logs in the container.
pub(super) fn prune(doc: &Document, arena: &Arena, holds_forced: &[bool], prune: &mut Pruning) {
    let nodes = &arena.nodes;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, prune.container() + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if holds_forced[i] || n.forced {
            walk.step_over();
            continue;
        }
        if n.kind == Kind::List && n.counts.links as usize >= MIN_ITEMS && reaction_log(doc, arena, i) {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

/// Whether the list `list` is a reaction log: [`MIN_ITEMS`] items or more, and [`SHARED`]
/// of them short ([`ITEM_WORDS`]) with a link, saying outside their links a phrase that
/// [`PHRASE_ITEMS`] items or more share.
fn reaction_log(doc: &Document, arena: &Arena, list: usize) -> bool {
    let nodes = &arena.nodes;
    let mut phrases = Vec::new();
    let mut items = 0;
    for c in arena.children(list) {
        if nodes[c].kind != Kind::Item {
            continue;
        }
        items += 1;
        let quoted: u32 = arena
            .children(c)
            .filter(|&q| nodes[q].kind == Kind::Para)
            .map(|q| nodes[q].total.words)
            .sum();
        if nodes[c].counts.links > 0
            && nodes[c].total.words - quoted <= ITEM_WORDS
            && let Some(p) = phrase(doc, nodes[c].id)
        {
            phrases.push(p);
        }
    }
    if items < MIN_ITEMS {
        return false;
    }
    phrases.sort_unstable();
    let shared: usize = phrases
        .chunk_by(|a, b| a == b)
        .filter(|run| run.len() >= PHRASE_ITEMS)
        .map(<[u64]>::len)
        .sum();
    shared as f32 >= SHARED * items as f32
}

/// A hash of the words of the element `id` outside its links and its quotes (lower-cased
/// letters; any other run of characters one separator), when there are
/// [`PHRASE_MIN_WORDS`] to [`PHRASE_WORDS`] of them and no digit (a price, a date).
fn phrase(doc: &Document, id: NodeId) -> Option<u64> {
    let mut hash = LetterHash::new();
    let mut digit = false;
    let mut walk = Walker::new(&doc.tree, id);
    while let Some(node) = walk.next() {
        let skip = doc
            .tree
            .query_node(&node, |n| match &n.data {
                NodeData::Element(el) => {
                    matches!(el.name.local, local_name!("a") | local_name!("blockquote"))
                }
                NodeData::Text { contents } => {
                    for c in contents.chars() {
                        digit |= c.is_numeric();
                        hash.push(c);
                    }
                    false
                }
                _ => false,
            })
            .unwrap_or(false);
        if skip {
            walk.skip_children();
        }
        if digit || hash.words() > PHRASE_WORDS {
            return None;
        }
    }
    (hash.words() >= PHRASE_MIN_WORDS).then_some(hash.value())
}
