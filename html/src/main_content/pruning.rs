//! The subtrees a plan removes inside its container, as a list (for applying the plan)
//! and as a mask over the container's entries (for the passes that walk the container
//! after the first ones and must step over what is already gone). One mask, kept up to
//! date as subtrees are added, serves every pass: none rebuilds it from the list; and
//! one walk ([`Kept`]) over what is left, the way those passes read the container.

use super::arena::{Arena, Node};

pub(super) struct Pruning {
    container: usize,
    /// One past the container's last entry.
    end: usize,
    list: Vec<usize>,
    /// Per entry of the container (index − container): its subtree is pruned.
    gone: Vec<bool>,
    /// Per entry of the container: a walk steps over its subtree ([`Pruning::skips`]),
    /// kept beside `gone` so that the walks read one byte, not the entry's flags and
    /// text counts (two cache lines of a 216-byte entry).
    skip: Vec<bool>,
}

impl Pruning {
    pub(super) fn new(arena: &Arena, container: usize) -> Self {
        let end = container + arena.nodes[container].size as usize;
        Self {
            container,
            end,
            // (Room for an article's usual prunes at once.)
            list: Vec::with_capacity(64),
            gone: vec![false; end - container],
            skip: arena.nodes[container..end].iter().map(without_text).collect(),
        }
    }

    /// The container's arena index.
    pub(super) fn container(&self) -> usize {
        self.container
    }

    /// One past the container's last entry.
    pub(super) fn end(&self) -> usize {
        self.end
    }

    /// Prunes the subtree at `i` (inside the container).
    pub(super) fn push(&mut self, i: usize) {
        let k = i.wrapping_sub(self.container);
        if let Some(g) = self.gone.get_mut(k) {
            *g = true;
            self.skip[k] = true;
        }
        self.list.push(i);
    }

    pub(super) fn extend(&mut self, found: impl IntoIterator<Item = usize>) {
        for i in found {
            self.push(i);
        }
    }

    /// Whether the subtree at `i` was pruned itself (not through an ancestor).
    pub(super) fn is_gone(&self, i: usize) -> bool {
        self.gone
            .get(i.wrapping_sub(self.container))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a walk over the container steps over the subtree at `i`: pruned, dropped,
    /// or without text.
    pub(super) fn skips(&self, i: usize, n: &Node) -> bool {
        match self.skip.get(i.wrapping_sub(self.container)) {
            Some(&skip) => skip,
            None => without_text(n),
        }
    }

    /// The entries of `from..to` a pass reads, in document order (see [`Kept`]).
    pub(super) fn kept<'a>(&'a self, nodes: &'a [Node], from: usize, to: usize) -> Kept<'a> {
        Kept {
            nodes,
            prune: self,
            next: from,
            to,
            over: from,
        }
    }

    pub(super) fn into_list(self) -> Vec<usize> {
        self.list
    }
}

/// Dropped, or without text: a walk steps over it whether or not it is pruned.
fn without_text(n: &Node) -> bool {
    n.dropped || n.total.chars == 0
}

/// A walk over the entries of a range that a pass reads, in document order: a subtree
/// the walk [skips](Pruning::skips) is stepped over whole. After yielding an entry the
/// walk goes into it, unless the pass [steps over](Kept::step_over) it or
/// [jumps](Kept::jump) ahead.
pub(super) struct Kept<'a> {
    nodes: &'a [Node],
    prune: &'a Pruning,
    next: usize,
    to: usize,
    /// One past the subtree of the entry last yielded.
    over: usize,
}

impl Kept<'_> {
    /// Goes on after the subtree of the entry last yielded, not into it.
    pub(super) fn step_over(&mut self) {
        self.next = self.over;
    }

    /// Goes on at entry `i`.
    pub(super) fn jump(&mut self, i: usize) {
        self.next = i;
    }
}

impl Iterator for Kept<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.next < self.to {
            let i = self.next;
            let n = &self.nodes[i];
            let over = i + n.size as usize;
            if self.prune.skips(i, n) {
                self.next = over;
                continue;
            }
            self.next = i + 1;
            self.over = over;
            return Some(i);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    #[test]
    fn a_walk_skips_what_is_pruned_dropped_or_without_text() {
        let mut rng = crate::test_rng::TestRng::new(41);
        let parts = [
            "<div>",
            "</div>",
            "<p>words here.</p>",
            "<p></p>",
            "<span></span>",
            "<input>",
            "<ul><li>a</li><li></li></ul>",
            "<div aria-hidden=true>x</div>",
            "<img src=a>",
        ];
        for _ in 0..200 {
            let html: String = (0..30).map(|_| parts[rng.below(parts.len())]).collect();
            let doc = parse(&html);
            let arena = Arena::build(&doc, doc.body().unwrap().id, &mut Vec::new());
            let nodes = &arena.nodes;
            let container = rng.below(nodes.len());
            let mut prune = Pruning::new(&arena, container);
            for _ in 0..rng.below(4) {
                let size = nodes[container].size as usize;
                prune.push(container + rng.below(size));
            }
            for (i, n) in nodes.iter().enumerate() {
                let reference = prune.is_gone(i) || n.dropped || n.total.chars == 0;
                assert_eq!(prune.skips(i, n), reference, "{html} {container} {i}");
            }
        }
    }
}
