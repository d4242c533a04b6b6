//! The long names of one page's tags and attributes, remembered: a name of more than seven
//! bytes is not an inline atom, so `LocalName::from` hashes it (the static set's hash) and,
//! for a name outside the static set (`data-*`, `aria-*` and most others), looks it up in
//! the global dynamic set as well. Pages repeat their long names, so a small table keyed
//! by a cheap hash of the bytes hands back the atom made for the same bytes before. Pages
//! repeat one another's long names too (`hreflang`, `aria-label`, `data-src`), so each
//! thread keeps its table from one page to the next ([`LongNames::kept`]).

use std::cell::Cell;

use html5ever::LocalName;

/// Slots in the table (a power of two).
const SLOTS: usize = 64;

/// Atoms of long names met so far, one per slot (a later name that maps to the same slot
/// replaces it).
#[derive(Default)]
pub(super) struct LongNames {
    slots: Vec<Option<LocalName>>,
}

thread_local! {
    /// The table of the last page tokenized on this thread (at most [`SLOTS`] atoms held).
    static KEPT: Cell<LongNames> = const { Cell::new(LongNames::new()) };
}

impl LongNames {
    pub(super) const fn new() -> LongNames {
        LongNames { slots: Vec::new() }
    }

    /// The table this thread kept from its last page (empty at first): taken, so a
    /// tokenizer owns it while it runs.
    pub(super) fn kept() -> LongNames {
        KEPT.with(Cell::take)
    }

    /// Keeps the table for this thread's next page.
    pub(super) fn keep(self) {
        KEPT.with(|kept| kept.set(self));
    }

    /// The atom of `name` (what `LocalName::from(name)` makes), from the table when a
    /// name with the same bytes was seen before.
    pub(super) fn atom(&mut self, name: &str) -> LocalName {
        if self.slots.is_empty() {
            self.slots = vec![None; SLOTS];
        }
        let slot = &mut self.slots[slot_of(name.as_bytes())];
        match slot {
            Some(atom) if atom.as_bytes() == name.as_bytes() => atom.clone(),
            _ => {
                let atom = LocalName::from(name);
                *slot = Some(atom.clone());
                atom
            }
        }
    }
}

/// The slot of a name of at least 8 bytes: its length and its first and last eight bytes
/// mixed by one multiply.
fn slot_of(name: &[u8]) -> usize {
    let word = |at: usize| {
        name.get(at..at + 8)
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
    };
    let mixed = (word(0) ^ word(name.len().saturating_sub(8)).rotate_left(29) ^ name.len() as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> 58) as usize & (SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    #[test]
    fn remembered_atoms_are_the_atoms_of_their_bytes() {
        let mut names = LongNames::new();
        let mut rng = TestRng::new(7);
        let parts = [
            "data-", "aria-", "item", "label", "src", "x", "prop", "-", "ty", "ñ",
        ];
        for _ in 0..50_000 {
            let mut name = String::new();
            while name.len() < 8 || rng.below(4) != 0 {
                name.push_str(parts[rng.below(parts.len())]);
            }
            let atom = names.atom(&name);
            assert_eq!(atom, LocalName::from(name.as_str()));
            assert_eq!(&*atom, name.as_str());
        }
    }

    #[test]
    fn a_kept_table_hands_its_atoms_to_the_next_page() {
        let mut names = LongNames::kept();
        let atom = names.atom("data-kept-name");
        names.keep();
        let next = LongNames::kept();
        let held = next.slots.iter().flatten().any(|a| *a == atom);
        next.keep();
        assert!(held, "the next page's table holds the atom made before");
        // Another thread starts with a table of its own.
        let other = std::thread::spawn(|| LongNames::kept().slots.is_empty()).join();
        assert_eq!(other.ok(), Some(true));
    }

    #[test]
    fn names_in_one_slot_each_get_their_own_atom() {
        let mut names = LongNames::new();
        let all: Vec<String> = (0..500).map(|i| format!("data-name-{i}")).collect();
        for round in 0..3 {
            for name in &all {
                assert_eq!(&*names.atom(name), name.as_str(), "round {round}");
            }
        }
    }
}
