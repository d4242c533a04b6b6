//! The vocabulary's table (see [`super::entry_of`]): a word is held as a [`WordKey`] (its bytes
//! in three 8-byte words, compared without a `memcmp` call) in an open-addressing table. The
//! key is also what tells two words of a class apart in `hints::words` (each word counts
//! once per element).

/// A word of up to 24 bytes, exactly: its length and reads of its bytes that cover all of
/// them (overlapping unless the length is a multiple of eight). A longer word (never one of
/// a class's words, which the splitter caps at 24 bytes) is its FNV-1a hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct WordKey {
    // (The length first: most keys compared differ in it, and the derived `==` stops there.)
    len: usize,
    k: [u64; 3],
}

impl WordKey {
    pub(crate) fn new(w: &str) -> WordKey {
        let b = w.as_bytes();
        let n = b.len();
        let r8 = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        let r4 = |i: usize| u64::from(u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or_default()));
        let k = match n {
            0 => [0; 3],
            1..=3 => [
                u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
                0,
                0,
            ],
            4..=7 => [r4(0) | r4(n - 4) << 32, 0, 0],
            8..=24 => [r8(0), r8(n - 8), r8(8.min(n - 8))],
            _ => [
                b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
                    (h ^ u64::from(c)).wrapping_mul(0x0000_0100_0000_01b3)
                }),
                0,
                0,
            ],
        };
        WordKey { len: n, k }
    }
}

/// Slots of the table: a power of two, about four times the number of words (~250; at most
/// 5/8 of the slots may fill): a word that is not in it, most words of a page, is ruled out
/// after a probe or two.
const BITS: u32 = 10;

/// Bits of the key's hash that pick its bit in [`Table`]'s filter: 4,096 bits for ~250
/// words, one in sixteen set.
const FILTER_BITS: u32 = 12;

/// Words of 1–16 bytes by key, with what they say (`V`; `none` for any other word); with a
/// filter of the words' hashes: most words of a page (~94 % of those not in the table) are
/// ruled out by one bit before the table is probed. (It was a table of the lengths of the
/// words per first byte, which let three words in four through to the probe.)
pub(super) struct Table<V> {
    slots: Vec<(WordKey, V)>,
    none: V,
    used: usize,
    /// Bit `h` set: a word whose hash's top [`FILTER_BITS`] bits are `h` is in the table.
    filter: [u64; 1 << (FILTER_BITS - 6)],
}

impl<V: Copy> Table<V> {
    pub(super) fn new(none: V) -> Table<V> {
        Table {
            slots: vec![(WordKey::default(), none); 1 << BITS],
            none,
            used: 0,
            filter: [0; 1 << (FILTER_BITS - 6)],
        }
    }

    /// The key's hash: its top [`BITS`] bits are its home slot, its top [`FILTER_BITS`]
    /// its filter bit.
    fn hash(key: &WordKey) -> u64 {
        (key.k[0] ^ key.k[1].rotate_left(29) ^ key.len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn home(h: u64) -> usize {
        (h >> (64 - BITS)) as usize
    }

    /// Whether the filter lets a key of hash `h` through.
    fn may_hold(&self, h: u64) -> bool {
        let bit = h >> (64 - FILTER_BITS);
        self.filter[(bit >> 6) as usize] >> (bit & 63) & 1 != 0
    }

    /// The entry of `word`, added as `none` if it is not in the table yet.
    pub(super) fn slot(&mut self, word: &str) -> &mut V {
        assert!((1..=16).contains(&word.len()), "{word}");
        let key = WordKey::new(word);
        let h = Self::hash(&key);
        let bit = h >> (64 - FILTER_BITS);
        self.filter[(bit >> 6) as usize] |= 1 << (bit & 63);
        let mask = self.slots.len() - 1;
        let mut i = Self::home(h);
        while self.slots[i].0.len != 0 && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        if self.slots[i].0.len == 0 {
            self.used += 1;
            assert!(
                self.used * 8 <= self.slots.len() * 5,
                "too many words for the table"
            );
            self.slots[i].0 = key;
        }
        &mut self.slots[i].1
    }

    pub(super) fn get(&self, key: &WordKey) -> V {
        let h = Self::hash(key);
        if !self.may_hold(h) {
            return self.none;
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::home(h);
        loop {
            let (k, e) = &self.slots[i];
            if k == key {
                return *e;
            }
            if k.len == 0 {
                return self.none;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_lets_every_word_of_the_table_through_and_few_others() {
        let table = &*super::super::VOCABULARY;
        let listed: Vec<&str> = super::super::listed_words()
            .map(|(w, _)| w)
            .chain(
                super::super::roles::ROLES
                    .iter()
                    .flat_map(|(words, _)| words.iter().copied()),
            )
            .collect();
        for w in &listed {
            assert!(table.may_hold(Table::<()>::hash(&WordKey::new(w))), "{w}");
        }
        // Words of a page's classes that the vocabulary does not hold.
        let mut rng = crate::test_rng::TestRng::new(61);
        let (mut others, mut through) = (0, 0);
        for _ in 0..20_000 {
            let w: String = (0..rng.below(10) + 1)
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect();
            if listed.contains(&w.as_str()) {
                continue;
            }
            others += 1;
            through += usize::from(table.may_hold(Table::<()>::hash(&WordKey::new(&w))));
        }
        // One bit in sixteen is set: about 6 % get through to the probe.
        assert!(others > 19_000 && through * 10 < others, "{through} of {others}");
    }
}
