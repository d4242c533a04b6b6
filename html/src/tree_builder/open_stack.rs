//! The stack of open elements as the builder keeps it: its entries in order, and how many
//! of them are HTML `p` elements, so "close a `p` element" checks (before every block
//! start tag) cost nothing while no `p` is open.

use std::ops::Deref;

use html5ever::local_name;

use super::entries::Open;

/// The stack of open elements (read as a slice; changed only through its methods).
pub(crate) struct OpenStack {
    entries: Vec<Open>,
    /// How many entries are HTML `p` elements.
    paragraphs: usize,
}

fn paragraph(o: &Open) -> usize {
    usize::from(o.is(&local_name!("p")))
}

impl OpenStack {
    pub(crate) fn with_capacity(n: usize) -> OpenStack {
        OpenStack {
            entries: Vec::with_capacity(n),
            paragraphs: 0,
        }
    }

    /// Whether an HTML `p` element is open (anywhere on the stack).
    pub(crate) fn any_paragraph(&self) -> bool {
        self.paragraphs > 0
    }

    pub(crate) fn push(&mut self, o: Open) {
        self.paragraphs += paragraph(&o);
        self.entries.push(o);
    }

    pub(crate) fn pop(&mut self) -> Option<Open> {
        let o = self.entries.pop()?;
        self.paragraphs -= paragraph(&o);
        Some(o)
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.entries.len() {
            self.paragraphs -= self.entries[len..].iter().map(paragraph).sum::<usize>();
            self.entries.truncate(len);
        }
    }

    pub(crate) fn remove(&mut self, i: usize) -> Open {
        let o = self.entries.remove(i);
        self.paragraphs -= paragraph(&o);
        o
    }

    pub(crate) fn insert(&mut self, i: usize, o: Open) {
        self.paragraphs += paragraph(&o);
        self.entries.insert(i, o);
    }

    /// Puts `o` in place of the entry at `i`.
    pub(crate) fn replace(&mut self, i: usize, o: Open) {
        self.paragraphs += paragraph(&o);
        self.paragraphs -= paragraph(&self.entries[i]);
        self.entries[i] = o;
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.paragraphs = 0;
    }
}

impl Deref for OpenStack {
    type Target = [Open];

    fn deref(&self) -> &[Open] {
        &self.entries
    }
}
