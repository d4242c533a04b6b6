//! Where a new node goes: the current node (a template's contents for a template), or,
//! while foster parenting (tokens a table cannot hold, processed by the in body rules),
//! before the table, through the sink's `append_based_on_parent_node` as html5ever does.

use dom_query::NodeId;
use html5ever::interface::{NodeOrText, TreeSink};
use html5ever::local_name;
use html5ever::tendril::StrTendril;

use super::entries::Open;
use super::tag_sets::table_frame;
use super::{Builder, Step, Tok};

/// An insertion location.
pub(super) enum Place {
    Last(NodeId),
    Foster { table: NodeId, prev: NodeId },
}

impl Builder {
    /// The place for a node whose target is `o`. Inlined: every text and element
    /// insertion asks, and almost always the answer is `o` itself (no foster parenting).
    #[inline]
    pub(super) fn place_for(&self, o: &Open) -> Place {
        if self.foster && o.html().is_some_and(table_frame) {
            return self.foster_place();
        }
        Place::Last(self.parent_for(o))
    }

    /// [`Self::place_for`] while foster parenting, for a target in the table's frame.
    #[inline(never)]
    fn foster_place(&self) -> Place {
        for (i, e) in self.open.iter().enumerate().rev() {
            if e.is(&local_name!("template")) {
                return Place::Last(self.sink.doc.get_template_contents(&e.id));
            }
            if e.is(&local_name!("table")) && i > 0 {
                return Place::Foster {
                    table: e.id,
                    prev: self.open[i - 1].id,
                };
            }
        }
        Place::Last(self.open[0].id)
    }

    pub(super) fn put_node(&mut self, place: Place, id: NodeId) {
        match place {
            Place::Last(parent) => self.sink.doc.tree.append_child_of(&parent, &id),
            Place::Foster { table, prev } => {
                self.sink
                    .doc
                    .append_based_on_parent_node(&table, &prev, NodeOrText::AppendNode(id));
            }
        }
    }

    #[inline]
    pub(super) fn put_text(&mut self, place: Place, text: StrTendril) {
        match place {
            Place::Last(parent) => self.sink.append_text(parent, text),
            Place::Foster { table, prev } => {
                self.sink
                    .doc
                    .append_based_on_parent_node(&table, &prev, NodeOrText::AppendText(text));
            }
        }
    }

    /// Processes `tok` by the in body rules with foster parenting on.
    pub(super) fn foster_in_body(&mut self, tok: Tok) -> Step {
        self.foster = true;
        let step = self.in_body(tok);
        self.foster = false;
        step
    }
}
