//! The list of active formatting elements: pushing with the "Noah's Ark" limit,
//! reconstructing, clearing to a marker, and the adoption agency algorithm for misnested
//! formatting end tags (html5ever's form of it: eight outer and the inner counter steps).

use dom_query::{NodeData, NodeId};
use html5ever::tokenizer::Tag;
use html5ever::{Attribute, LocalName, local_name};

use super::entries::{Entry, Ns, Open};
use super::stack::{Scope, special};
use super::{Bail, Builder};

impl Builder {
    /// Whether `tag` is the same as an entry's (`old`, made for the element `id`, whose
    /// attributes the element holds) but for the order of their attributes (names are
    /// unique within a tag).
    fn same_tag(&self, tag: &Tag, old: &Tag, id: NodeId) -> bool {
        tag.name == old.name
            && self
                .sink
                .doc
                .tree
                .query_node(&id, |n| match &n.data {
                    NodeData::Element(e) => {
                        e.attrs.len() == tag.attrs.len()
                            && tag.attrs.iter().all(|x| e.attrs.iter().any(|y| x == y))
                    }
                    _ => false,
                })
                .unwrap_or(false)
    }

    /// The attributes of an entry's element (those of the tag it was made for: the tree
    /// builder never changes a formatting element's attributes), for a new element made
    /// for the same tag.
    fn attrs_of(&self, id: NodeId) -> Vec<Attribute> {
        self.sink
            .doc
            .tree
            .query_node(&id, |n| match &n.data {
                NodeData::Element(e) => e.attrs.clone(),
                _ => Vec::new(),
            })
            .unwrap_or_default()
    }

    /// Index of the first entry after the last marker.
    fn after_marker(&self) -> usize {
        self.active
            .iter()
            .rposition(|e| matches!(e, Entry::Marker))
            .map_or(0, |i| i + 1)
    }

    fn active_position(&self, id: NodeId) -> Option<usize> {
        self.active
            .iter()
            .rposition(|e| matches!(e, Entry::Element { id: x, .. } if *x == id))
    }

    /// Inserts an element for a formatting tag and pushes it onto the list.
    pub(super) fn push_formatting(&mut self, mut tag: Tag) {
        let from = self.after_marker();
        let mut first = None;
        let mut matches = 0;
        for (i, e) in self.active[from..].iter().enumerate() {
            if let Entry::Element { id, tag: old } = e
                && self.same_tag(&tag, old, *id)
            {
                first.get_or_insert(from + i);
                matches += 1;
            }
        }
        if matches >= 3
            && let Some(i) = first
        {
            self.active.remove(i);
        }
        // The attributes go to the element; the entry keeps the rest of the tag.
        let attrs = std::mem::take(&mut tag.attrs);
        let id = self.insert(
            Ns::Html,
            tag.name.clone(),
            attrs,
            tag.had_duplicate_attributes,
            true,
        );
        self.active.push(Entry::Element { id, tag });
    }

    fn marker_or_open(&self, e: &Entry) -> bool {
        match e {
            Entry::Marker => true,
            Entry::Element { id, .. } => self.on_stack(*id),
        }
    }

    /// Reconstruct the active formatting elements. Inlined: asked before every text
    /// token in body, and most of the time the list is empty.
    #[inline]
    pub(super) fn reconstruct(&mut self) {
        if !self.active.is_empty() {
            self.reconstruct_entries();
        }
    }

    /// [`Self::reconstruct`] of a list that is not empty.
    #[inline(never)]
    fn reconstruct_entries(&mut self) {
        let Some(last) = self.active.last() else {
            return;
        };
        if self.marker_or_open(last) {
            return;
        }
        let mut i = self.active.len() - 1;
        while i > 0 {
            i -= 1;
            if self.marker_or_open(&self.active[i]) {
                i += 1;
                break;
            }
        }
        loop {
            let Entry::Element { id, tag } = &self.active[i] else {
                return;
            };
            let (name, dup) = (tag.name.clone(), tag.had_duplicate_attributes);
            let attrs = self.attrs_of(*id);
            let id = self.insert(Ns::Html, name, attrs, dup, true);
            if let Entry::Element { id: old, .. } = &mut self.active[i] {
                *old = id;
            }
            if i == self.active.len() - 1 {
                return;
            }
            i += 1;
        }
    }

    pub(super) fn clear_to_marker(&mut self) {
        while let Some(e) = self.active.pop() {
            if matches!(e, Entry::Marker) {
                return;
            }
        }
    }

    /// The `<a>` start tag with an `a` in the list after the last marker.
    pub(super) fn misnested_a(&mut self) -> Result<(), Bail> {
        let from = self.after_marker();
        let found = self.active[from..].iter().rev().find_map(|e| match e {
            Entry::Element { id, tag } if tag.name == local_name!("a") => Some(*id),
            _ => None,
        });
        let Some(node) = found else {
            return Ok(());
        };
        self.adoption_agency(&local_name!("a"))?;
        if let Some(i) = self.active_position(node) {
            self.active.remove(i);
        }
        self.remove_from_stack(node);
        Ok(())
    }

    /// The adoption agency algorithm for the end tag `subject`.
    pub(super) fn adoption_agency(&mut self, subject: &LocalName) -> Result<(), Bail> {
        // The common case (`<a>text</a>`): the formatting element is the current node and the
        // list's last entry. Not special, it is no furthest block, and nothing is above it:
        // the steps below come down to popping it from both.
        if let (Some(Entry::Element { id, tag }), Some(o)) = (self.active.last(), self.open.last())
            && *id == o.id
            && tag.name == *subject
        {
            self.open.pop();
            self.active.pop();
            return Ok(());
        }
        if self.current_is(subject) && self.active_position(self.current().id).is_none() {
            self.open.pop();
            return Ok(());
        }
        for _ in 0..8 {
            let from = self.after_marker();
            let found = self.active[from..]
                .iter()
                .enumerate()
                .rev()
                .find_map(|(i, e)| match e {
                    Entry::Element { id, tag } if tag.name == *subject => Some((from + i, *id)),
                    _ => None,
                });
            let Some((fmt_index, fmt)) = found else {
                self.end_tag_in_body(subject);
                return Ok(());
            };
            let Some(fmt_stack) = self.open.iter().rposition(|o| o.id == fmt) else {
                self.active.remove(fmt_index);
                return Ok(());
            };
            if !self.in_scope_by(Scope::Default, |o| o.id == fmt) {
                return Ok(());
            }
            let furthest = self.open[fmt_stack..]
                .iter()
                .position(|o| o.html().is_some_and(special))
                .map(|i| fmt_stack + i);
            let Some(furthest_index) = furthest else {
                self.open.truncate(fmt_stack);
                self.active.remove(fmt_index);
                return Ok(());
            };
            self.adopt(fmt, fmt_stack, furthest_index)?;
        }
        Ok(())
    }

    /// Steps 11 to 19 of the adoption agency: the formatting element `fmt` (at `fmt_stack`
    /// on the stack) with a furthest block.
    fn adopt(&mut self, fmt: NodeId, fmt_stack: usize, furthest_index: usize) -> Result<(), Bail> {
        let common = self.open[fmt_stack - 1].clone();
        let furthest = self.open[furthest_index].id;
        // The bookmark: replace `fmt`'s entry, or insert after this node's entry.
        let mut after: Option<NodeId> = None;
        let mut node_index = furthest_index;
        let mut last = furthest;
        let mut inner = 0;
        loop {
            inner += 1;
            node_index -= 1;
            let node = self.open[node_index].id;
            if node == fmt {
                break;
            }
            if inner > 3 {
                if let Some(p) = self.active_position(node) {
                    self.active.remove(p);
                }
                self.open.remove(node_index);
                continue;
            }
            let Some(p) = self.active_position(node) else {
                self.open.remove(node_index);
                continue;
            };
            let Entry::Element { tag, .. } = &self.active[p] else {
                return Err("marker in adoption");
            };
            let (name, dup) = (tag.name.clone(), tag.had_duplicate_attributes);
            let attrs = self.attrs_of(node);
            let new = self.create(Ns::Html, name.clone(), attrs, dup);
            self.open.replace(
                node_index,
                Open {
                    id: new,
                    ns: Ns::Html,
                    name,
                },
            );
            if let Entry::Element { id, .. } = &mut self.active[p] {
                *id = new;
            }
            if last == furthest {
                after = Some(new);
            }
            let tree = &self.sink.doc.tree;
            tree.remove_from_parent(&last);
            tree.append_child_of(&new, &last);
            last = new;
        }
        self.sink.doc.tree.remove_from_parent(&last);
        let place = self.place_for(&common);
        self.put_node(place, last);
        let fmt_entry = self.active_position(fmt).ok_or("bookmark")?;
        let Entry::Element { tag, .. } = &self.active[fmt_entry] else {
            return Err("marker in adoption");
        };
        let tag = tag.clone();
        let new = self.create(
            Ns::Html,
            tag.name.clone(),
            self.attrs_of(fmt),
            tag.had_duplicate_attributes,
        );
        let tree = &self.sink.doc.tree;
        tree.reparent_children_of(&furthest, Some(new));
        tree.append_child_of(&furthest, &new);
        let name = tag.name.clone();
        let entry = Entry::Element { id: new, tag };
        match after {
            None => self.active[fmt_entry] = entry,
            Some(prev) => {
                let at = self.active_position(prev).ok_or("bookmark")? + 1;
                self.active.insert(at, entry);
                let old = self.active_position(fmt).ok_or("bookmark")?;
                self.active.remove(old);
            }
        }
        self.remove_from_stack(fmt);
        let at = self
            .open
            .iter()
            .position(|o| o.id == furthest)
            .ok_or("furthest block")?;
        let ns = Ns::Html;
        self.open.insert(at + 1, Open { id: new, ns, name });
        Ok(())
    }
}
