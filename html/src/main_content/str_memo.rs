//! A per-page memo keyed by attribute strings (an element's `class` value) without an
//! allocation per key: the keys' bytes sit one after another in one buffer, and an
//! open-addressing table of entry numbers, probed from each key's hash, leads to its entry;
//! entries hold their key's hash, and keys with the same hash are compared byte for byte
//! (a collision never changes an answer). (The table was a `HashMap` from hashes to
//! chains of entries: hashing the hash again, and its insertion, cost more than the rest
//! of a look-up.)

use std::hash::Hasher;

use super::str_hash::StrHasher;

const NONE: u32 = u32::MAX;

struct Entry<V> {
    /// The key's hash.
    hash: u64,
    /// The key: `text[start..start + len]`.
    start: u32,
    len: u32,
    value: V,
}

pub(super) struct StrMemo<V> {
    /// Entry numbers (`NONE`: an empty slot); a power of two long, at most half full.
    slots: Vec<u32>,
    entries: Vec<Entry<V>>,
    text: String,
}

/// Where [`StrMemo::get_or_vacant`] found no value: the key's hash.
pub(super) struct Vacant(u64);

impl<V> StrMemo<V> {
    /// Room for `n` keys of about 32 bytes without growing.
    pub(super) fn with_capacity(n: usize) -> Self {
        StrMemo {
            slots: vec![NONE; (2 * n).next_power_of_two().max(8)],
            entries: Vec::with_capacity(n),
            text: String::with_capacity(n * 32),
        }
    }

    fn hash(key: &str) -> u64 {
        let mut h = StrHasher::default();
        h.write(key.as_bytes());
        h.finish()
    }

    /// The first slot a key of hash `h` is looked for in.
    fn home(&self, h: u64) -> usize {
        h as usize & (self.slots.len() - 1)
    }

    /// The entry of `key`, whose hash is `h`.
    fn find(&self, key: &str, h: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(h);
        loop {
            let at = self.slots[i];
            if at == NONE {
                return None;
            }
            let e = &self.entries[at as usize];
            if e.hash == h
                && self.text.as_bytes()[e.start as usize..(e.start + e.len) as usize] == *key.as_bytes()
            {
                return Some(at as usize);
            }
            i = (i + 1) & mask;
        }
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
        if 2 * (self.entries.len() + 1) > self.slots.len() {
            self.grow();
        }
        self.text.push_str(key);
        self.entries.push(Entry {
            hash: h,
            start,
            len,
            value,
        });
        self.place(h, new);
    }

    /// Puts entry `at`, whose key's hash is `h`, in the first empty slot from its home.
    fn place(&mut self, h: u64, at: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(h);
        while self.slots[i] != NONE {
            i = (i + 1) & mask;
        }
        self.slots[i] = at;
    }

    /// Twice the slots, every entry placed again.
    #[cold]
    fn grow(&mut self) {
        self.slots = vec![NONE; self.slots.len() * 2];
        for at in 0..self.entries.len() {
            self.place(self.entries[at].hash, at as u32);
        }
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
