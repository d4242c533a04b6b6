//! What an element's tag alone tells the arena ([`super::arena`]): its kind, its landmark
//! without attributes, its template signature, whether upstream's lists name the tag and
//! whether it is a custom element's (whose name has words). A page has a few dozen tags
//! over its thousands of elements: each tag's facts are read once per arena, from a small
//! table keyed by the tag's atoms (compared whole, so a slot shared by two tags never
//! changes an answer).

use dom_query::Element;
use html5ever::{LocalName, Namespace};

use super::hints::{self, Kind, Landmark};
use super::signature;
use super::upstream::{EXCLUDE, FORCE_INCLUDE};

/// What a tag says.
#[derive(Clone, Copy)]
pub(super) struct TagFacts {
    pub kind: Kind,
    /// The landmark of the tag alone ([`hints::tag_landmark`]).
    pub landmark: Landmark,
    /// [`signature::tag_signature`].
    pub tag_sig: u32,
    /// The name has a `-` (a custom element: its name's words are read).
    pub custom: bool,
    /// On upstream's exclude list and force-include list as a tag.
    pub excluded: bool,
    pub forced: bool,
    /// Removed with its subtree before the analysis (`script`, `style`…:
    /// [`crate::clean::is_stripped`]).
    pub stripped: bool,
}

impl TagFacts {
    fn of(el: &Element) -> TagFacts {
        TagFacts {
            kind: hints::kind(el),
            landmark: hints::tag_landmark(el),
            tag_sig: signature::tag_signature(el),
            custom: el.name.local.bytes().any(|b| b == b'-'),
            excluded: EXCLUDE.matches_tag(&el.name.local),
            forced: FORCE_INCLUDE.matches_tag(&el.name.local),
            stripped: crate::clean::is_stripped(&el.name.local),
        }
    }
}

/// Slots of the table (a power of two).
const SLOTS: usize = 64;

/// The slot of a tag: the top bits of its name's atom hash times a large odd number (the
/// low bits of static atoms' hashes put `p` and `a`, `div` and `img`, `li` and `ul` in one
/// slot of 64).
fn slot_of(local: &LocalName) -> usize {
    ((local.get_hash() as u32).wrapping_mul(0x9e37_79b9) >> (32 - SLOTS.trailing_zeros())) as usize
}

/// The facts of the tags met, by the hash of the tag's local name.
pub(super) struct TagMemo {
    slots: Vec<Option<(LocalName, Namespace, TagFacts)>>,
}

impl Default for TagMemo {
    fn default() -> Self {
        TagMemo {
            slots: vec![None; SLOTS],
        }
    }
}

impl TagMemo {
    /// The facts of `el`'s tag.
    pub(super) fn facts(&mut self, el: &Element) -> TagFacts {
        let slot = &mut self.slots[slot_of(&el.name.local)];
        if let Some((local, ns, facts)) = slot
            && *local == el.name.local
            && *ns == el.name.ns
        {
            return *facts;
        }
        let facts = TagFacts::of(el);
        *slot = Some((el.name.local.clone(), el.name.ns.clone(), facts));
        facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    #[test]
    fn memoised_facts_are_the_facts_read_per_element() {
        // More tags than slots (so slots are shared), custom elements, SVG and MathML
        // names that are also HTML names, listed tags, case in the source.
        let mut html = String::new();
        for i in 0..150 {
            html.push_str(&format!("<x-tag{i}>a</x-tag{i}><tag{i}>b</tag{i}>"));
        }
        html.push_str(
            "<header>h</header><NAV>n</NAV><main><article><aside>s</aside><footer>f</footer>\
             <svg><a>l</a><title>t</title><main>m</main></svg><math><mi>x</mi><nav>v</nav></math>\
             <p>p</p><span>s</span><a href=x>l</a><app-root>r</app-root><form>f</form>\
             <noscript>n</noscript><svg><style>s</style><script>x</script></svg></article></main>",
        );
        let doc = parse(&html);
        let mut memo = TagMemo::default();
        let mut seen = 0;
        for _ in 0..2 {
            for node in doc.root().descendants() {
                let Some(fresh) = crate::dom::with_element(&doc.tree, node.id, TagFacts::of) else {
                    continue;
                };
                let memo_facts = crate::dom::with_element(&doc.tree, node.id, |el| memo.facts(el)).unwrap();
                let key = |f: TagFacts| {
                    (
                        f.kind, f.landmark, f.tag_sig, f.custom, f.excluded, f.forced, f.stripped,
                    )
                };
                assert_eq!(key(memo_facts), key(fresh));
                seen += 1;
            }
        }
        assert!(seen > 600);
    }

    #[test]
    fn the_most_common_tags_do_not_share_a_slot() {
        // With the atom hash's low bits as the slot, each pair shared one.
        for (x, y) in [
            ("p", "a"),
            ("div", "img"),
            ("li", "ul"),
            ("div", "span"),
            ("a", "span"),
        ] {
            assert_ne!(
                slot_of(&LocalName::from(x)),
                slot_of(&LocalName::from(y)),
                "{x} {y}"
            );
        }
    }
}
