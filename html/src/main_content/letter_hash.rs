//! A hash of a text's letters for comparing short texts: lower-cased, every run of other
//! characters (spaces, punctuation, digits) one separator, so texts that differ only in
//! those hash alike (FNV-1a, 64 bits). The passes that look for one text repeated
//! ([`super::repeated_labels`], [`super::reaction_lists`]) share it.

/// FNV-1a's offset basis and prime.
const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x100_0000_01b3;

/// The hash of the characters pushed so far, and how many words they hold.
pub(super) struct LetterHash {
    h: u64,
    gap: bool,
    words: usize,
}

impl LetterHash {
    pub(super) fn new() -> Self {
        LetterHash {
            h: OFFSET,
            gap: true,
            words: 0,
        }
    }

    /// Adds one character: a letter goes in lower-cased, anything else ends the word.
    pub(super) fn push(&mut self, c: char) {
        if !c.is_alphabetic() {
            self.gap = true;
            return;
        }
        if self.gap {
            self.words += 1;
            self.mix(u32::from(b' '));
            self.gap = false;
        }
        for l in c.to_lowercase() {
            self.mix(u32::from(l));
        }
    }

    fn mix(&mut self, v: u32) {
        self.h = (self.h ^ u64::from(v)).wrapping_mul(PRIME);
    }

    /// Words pushed so far (runs of letters).
    pub(super) fn words(&self) -> usize {
        self.words
    }

    pub(super) fn value(&self) -> u64 {
        self.h
    }
}
