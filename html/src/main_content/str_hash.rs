//! A hasher for the per-page memo maps keyed by attribute strings (an element's `class`
//! value): eight bytes per step where FNV takes one. Like FNV it is not keyed, so a page
//! built to collide only slows its own analysis; the maps compare keys, so a collision
//! never changes an answer.

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default)]
pub(super) struct StrHasher(u64);

/// An odd multiplier with well-spread bits (the golden ratio's fraction).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl StrHasher {
    fn eat(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(K);
    }
}

impl Hasher for StrHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.eat(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let r = chunks.remainder();
        let n = r.len();
        // The last 1–7 bytes in one step: two overlapping 4-byte reads, or the first,
        // middle and last byte (the length keeps overlapping reads apart).
        let tail = if n >= 4 {
            let lo = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
            let hi = u32::from_le_bytes([r[n - 4], r[n - 3], r[n - 2], r[n - 1]]);
            u64::from(lo) | u64::from(hi) << 32
        } else if n > 0 {
            u64::from(r[0]) | u64::from(r[n / 2]) << 8 | u64::from(r[n - 1]) << 16
        } else {
            return;
        };
        self.eat(tail ^ (n as u64) << 59);
    }

    fn write_u8(&mut self, b: u8) {
        self.eat(u64::from(b));
    }

    fn finish(&self) -> u64 {
        // The multiplication leaves its best bits on top; the table indexes by the low ones.
        self.0.rotate_left(26)
    }
}

pub(super) type StrSet<K> = std::collections::HashSet<K, BuildHasherDefault<StrHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, BuildHasherDefault};

    #[test]
    fn different_short_strings_hash_apart_and_maps_find_their_keys() {
        let build = BuildHasherDefault::<StrHasher>::default();
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "ba",
            "cba",
        ];
        let hashes: Vec<u64> = words.iter().map(|w| build.hash_one(w)).collect();
        for i in 0..hashes.len() {
            for j in i + 1..hashes.len() {
                assert_ne!(hashes[i], hashes[j], "{} {}", words[i], words[j]);
            }
        }
        let mut map: std::collections::HashMap<String, usize, BuildHasherDefault<StrHasher>> =
            Default::default();
        for (i, w) in words.iter().enumerate() {
            map.insert(w.to_string(), i);
        }
        for (i, w) in words.iter().enumerate() {
            assert_eq!(map.get(*w), Some(&i));
        }
    }
}
