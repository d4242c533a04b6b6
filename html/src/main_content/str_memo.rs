//! A per-page memo keyed by attribute strings (an element's `class` value) without an
//! allocation per key: the keys' bytes sit one after another in one buffer, a map from
//! each key's hash leads to its entry, and keys with the same hash are chained and
//! compared byte for byte (a collision never changes an answer).

use std::hash::{BuildHasher, BuildHasherDefault};

use super::str_hash::{StrHasher, StrMap};

const NONE: u32 = u32::MAX;

struct Entry<V> {
    /// The key: `text[start..start + len]`.
    start: u32,
    len: u32,
    /// The next entry whose key has the same hash.
    next: u32,
    value: V,
}

pub(super) struct StrMemo<V> {
    /// Hash of a key → its first entry.
    index: StrMap<u64, u32>,
    entries: Vec<Entry<V>>,
    text: String,
}

/// Where [`StrMemo::get_or_vacant`] found no value: the key's hash.
pub(super) struct Vacant(u64);

impl<V> StrMemo<V> {
    /// Room for `n` keys of about 32 bytes without growing.
    pub(super) fn with_capacity(n: usize) -> Self {
        StrMemo {
            index: StrMap::with_capacity_and_hasher(n, Default::default()),
            entries: Vec::with_capacity(n),
            text: String::with_capacity(n * 32),
        }
    }

    fn hash(key: &str) -> u64 {
        BuildHasherDefault::<StrHasher>::default().hash_one(key)
    }

    /// The entry of `key`, whose hash is `h`.
    fn find(&self, key: &str, h: u64) -> Option<usize> {
        let mut at = self.index.get(&h).copied().unwrap_or(NONE);
        while at != NONE {
            let e = &self.entries[at as usize];
            if self.text.as_bytes()[e.start as usize..(e.start + e.len) as usize] == *key.as_bytes() {
                return Some(at as usize);
            }
            at = e.next;
        }
        None
    }

    #[cfg(test)]
    pub(super) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        let at = self.find(key, Self::hash(key));
        at.map(|i| &mut self.entries[i].value)
    }

    /// The value of `key`, or a [`Vacant`] place to put one (the key hashed once for both).
    pub(super) fn get_or_vacant(&mut self, key: &str) -> Result<&mut V, Vacant> {
        let h = Self::hash(key);
        match self.find(key, h) {
            Some(i) => Ok(&mut self.entries[i].value),
            None => Err(Vacant(h)),
        }
    }

    /// Puts the value of a key [`Self::get_or_vacant`] did not find (nothing put since).
    pub(super) fn fill(&mut self, key: &str, vacant: Vacant, value: V) {
        self.add_new(key, vacant.0, value);
    }

    /// Sets the value of `key` (added, or replacing the one it had).
    #[cfg(test)]
    pub(super) fn insert(&mut self, key: &str, value: V) {
        self.insert_hashed(key, Self::hash(key), value);
    }

    #[cfg(test)]
    fn insert_hashed(&mut self, key: &str, h: u64, value: V) {
        if let Some(i) = self.find(key, h) {
            self.entries[i].value = value;
            return;
        }
        self.add_new(key, h, value);
    }

    /// Adds `key`, which is not in the memo, with its hash `h`.
    fn add_new(&mut self, key: &str, h: u64, value: V) {
        let (Ok(start), Ok(len), Ok(new)) = (
            u32::try_from(self.text.len()),
            u32::try_from(key.len()),
            u32::try_from(self.entries.len()),
        ) else {
            // Past 4 GiB of keys a page is not worth memoising further.
            return;
        };
        if new == NONE || start.checked_add(len).is_none() {
            return;
        }
        self.text.push_str(key);
        let next = self.index.insert(h, new).unwrap_or(NONE);
        self.entries.push(Entry {
            start,
            len,
            next,
            value,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_a_map_of_owned_keys_finds() {
        let mut rng = crate::test_rng::TestRng::new(23);
        let alphabet = ["a", "b", " ", "é", "nav", "-"];
        let mut memo = StrMemo::with_capacity(4);
        let mut reference = std::collections::HashMap::new();
        for i in 0..20_000 {
            let key: String = (0..rng.below(6))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            assert_eq!(
                memo.get_mut(&key).copied(),
                reference.get(&key).copied(),
                "{key:?}"
            );
            match rng.below(4) {
                0 => {
                    memo.insert(&key, i);
                    reference.insert(key, i);
                }
                // A miss filled in place, a hit updated through the same look-up.
                1 => {
                    match memo.get_or_vacant(&key) {
                        Ok(v) => *v = i,
                        Err(vacant) => memo.fill(&key, vacant, i),
                    }
                    reference.insert(key, i);
                }
                _ => {}
            }
        }
        assert!(reference.len() > 100);
    }

    #[test]
    fn keys_with_one_hash_are_told_apart() {
        let mut memo: StrMemo<usize> = StrMemo::with_capacity(2);
        let keys = ["x", "y", "xy", "", "yx"];
        for (i, k) in keys.iter().enumerate() {
            memo.insert_hashed(k, 7, i);
        }
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(memo.find(k, 7).map(|at| memo.entries[at].value), Some(i), "{k:?}");
        }
        assert_eq!(memo.find("z", 7), None);
        assert_eq!(memo.find("x", 8), None);
        memo.insert_hashed("xy", 7, 40);
        assert_eq!(memo.find("xy", 7).map(|at| memo.entries[at].value), Some(40));
        assert_eq!(memo.entries.len(), keys.len(), "replaced, not added");
    }
}
