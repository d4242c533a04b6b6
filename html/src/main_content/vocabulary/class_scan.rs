//! One pass over the bytes of a `class` (or `id`) value for the word analysis: its classes
//! (runs between ASCII whitespace), whether each holds a `:` or a `[` (a variant utility),
//! what [`super::fragments`] finds in it and where its word parts are, all read in the same
//! loop. (It was four scans of each class: the split, the variant test, the fragment scan
//! and [`super::for_each_word`]'s.)

#[cfg(test)]
use super::{BOILER_FRAGMENTS, PAIRS, SCREEN_READER_MARKS};
use super::{DIGIT, LOWER, PAIR_FIRST, PAIR_SECOND, PART_CLASS};

/// One class of a value, as the scan read it.
pub(crate) struct Class<'v> {
    value: &'v str,
    /// The class's bytes in `value`.
    start: usize,
    end: usize,
    /// The class holds a `:` or a `[`.
    pub variant: bool,
    /// What [`super::fragments`] says of the class: a boilerplate fragment, a
    /// screen-reader mark.
    pub boiler: bool,
    pub reader: bool,
    /// Its word parts (runs of ASCII letters and digits): where they end in `value`, where
    /// they start, the [`PART_CLASS`] bits of their bytes; `parts` of them, or more than
    /// [`MAX_PARTS`] (the class is split again).
    ends: [u32; MAX_PARTS],
    starts: [u32; MAX_PARTS],
    seen: [u8; MAX_PARTS],
    parts: usize,
}

/// Word parts kept per class (a class has a handful; one with more is split again).
const MAX_PARTS: usize = 16;

impl<'v> Class<'v> {
    /// The class.
    pub(crate) fn text(&self) -> &'v str {
        &self.value[self.start..self.end]
    }

    /// The class's words, as [`super::for_each_word`] hands them over.
    pub(crate) fn for_each_word(&self, mut f: impl FnMut(&str)) {
        if self.parts > MAX_PARTS {
            return super::for_each_word(self.text(), f);
        }
        for k in 0..self.parts {
            let (from, to, seen) = (self.starts[k] as usize, self.ends[k] as usize, self.seen[k]);
            if to - from > 24 || seen & DIGIT != 0 {
                continue;
            }
            // ASCII letters: both ends are character boundaries.
            let part = &self.value[from..to];
            if seen == LOWER {
                f(part);
            } else {
                super::humps(part.as_bytes(), &mut f);
            }
        }
    }
}

/// Bits of [`SCAN`]: a byte's [`PART_CLASS`] (the low three), ASCII whitespace (as
/// `u8::is_ascii_whitespace`), `:` or `[`, and from bit 8 and bit 16 its [`PAIR_FIRST`] and
/// [`PAIR_SECOND`] bits (a byte's first bits moved up by 8 meet the next byte's second bits).
const PART: u32 = 7;
const SPACE: u32 = 8;
const VARIANT: u32 = 16;
const SECOND: u32 = 0xff << 16;
const SCAN: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut bits = PART_CLASS[c] as u32 | (PAIR_FIRST[c] as u32) << 8 | (PAIR_SECOND[c] as u32) << 16;
        if b.is_ascii_whitespace() {
            bits |= SPACE;
        }
        if b == b':' || b == b'[' {
            bits |= VARIANT;
        }
        table[c] = bits;
        c += 1;
    }
    table
};

/// Calls `f` on each class of `value` in order (a value of 4 GiB or more: nothing).
pub(crate) fn for_each_class(value: &str, mut f: impl FnMut(&Class)) {
    let b = value.as_bytes();
    if u32::try_from(b.len()).is_err() {
        return;
    }
    let mut c = Class {
        value,
        start: 0,
        end: 0,
        variant: false,
        boiler: false,
        reader: false,
        ends: [0; MAX_PARTS],
        starts: [0; MAX_PARTS],
        seen: [0; MAX_PARTS],
        parts: 0,
    };
    let mut i = 0;
    loop {
        // The whitespace before the class.
        while let Some(&byte) = b.get(i) {
            if SCAN[byte as usize] & SPACE == 0 {
                break;
            }
            i += 1;
        }
        if i == b.len() {
            return;
        }
        c.start = i;
        c.parts = 0;
        c.boiler = false;
        c.reader = false;
        // The or of the bits of the class's bytes outside its parts.
        let mut between = 0u32;
        while let Some(&byte) = b.get(i) {
            let bits = SCAN[byte as usize];
            if bits & PART == 0 {
                if bits & SPACE != 0 {
                    break;
                }
                between |= bits;
                i += 1;
                continue;
            }
            // A part: its bytes' bits, the previous byte's. (Every pair is two letters or
            // digits: one starts only inside a part.)
            let from = i;
            let (mut part, mut prev) = (bits, bits);
            i += 1;
            while let Some(&byte) = b.get(i) {
                let bits = SCAN[byte as usize];
                if bits & PART == 0 {
                    break;
                }
                if (prev << 8) & bits & SECOND != 0 {
                    c.fragment_at(i - 1, ((prev << 8) & bits & SECOND) >> 16);
                }
                part |= bits;
                prev = bits;
                i += 1;
            }
            c.push_part(from, i, part);
        }
        c.end = i;
        c.variant = between & VARIANT != 0;
        f(&c);
    }
}

impl Class<'_> {
    /// The part `from..to` whose bytes' bits are `bits` (kept while there is room).
    fn push_part(&mut self, from: usize, to: usize, bits: u32) {
        if self.parts < MAX_PARTS {
            self.starts[self.parts] = from as u32;
            self.ends[self.parts] = to as u32;
            self.seen[self.parts] = (bits & PART) as u8;
        }
        self.parts += 1;
    }

    /// The fragments and marks that start at `at` with the pairs of `pairs`
    /// ([`PAIRS`](super::PAIRS)' bits). (Read in the whole value: none holds whitespace, so none matches past the class.)
    /// Only the needles of the pairs found are compared, past their first two bytes.
    #[cold]
    fn fragment_at(&mut self, at: usize, pairs: u32) {
        let h = &self.value.as_bytes()[at..];
        let found = |needles: &[&str]| {
            needles.iter().any(|n| {
                let n = n.as_bytes();
                h.len() >= n.len() && h[2..n.len()].eq_ignore_ascii_case(&n[2..])
            })
        };
        let mut p = pairs;
        while p != 0 {
            let (boiler, reader) = BY_PAIR[p.trailing_zeros() as usize];
            self.boiler |= found(boiler);
            self.reader |= found(reader);
            p &= p - 1;
        }
    }
}

/// [`BOILER_FRAGMENTS`](super::BOILER_FRAGMENTS) and
/// [`SCREEN_READER_MARKS`](super::SCREEN_READER_MARKS) by their first two bytes, in
/// [`PAIRS`](super::PAIRS)' order (a test checks the lists against them).
const BY_PAIR: [(&[&str], &[&str]); 7] = [
    (&["cookie", "consent"], &[]),
    (&["gdpr"], &[]),
    (&["newsletter"], &[]),
    (&[], &["sr-only", "sr_only"]),
    (&[], &["visually-hidden", "visuallyhidden"]),
    (&[], &["screen-reader", "screenreader"]),
    (&[], &["a11ytext"]),
];

#[cfg(test)]
mod tests;
