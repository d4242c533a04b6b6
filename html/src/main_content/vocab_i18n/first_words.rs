//! The filter that rules most texts out before they are normalised: a text can match a
//! phrase only if its first word (from its first letter to the first character that is
//! not a letter, an apostrophe or a hyphen), lower-cased as the module above normalises, is the
//! first word of one. The first two bytes of that word are looked up in a bit table
//! first (most words stop there), then the word in a set.

use std::sync::LazyLock;

use super::tables::{FAMILIES, Use};
use crate::main_content::vocabulary::FnvSet;

/// The first words of the phrases of some uses.
pub(super) struct FirstWords {
    /// Bit `(b0 << 8) | b1`: a first word opens with the bytes `b0`, `b1` (`b1` 0 for a
    /// one-letter word).
    pairs: Vec<u64>,
    /// Bit `n` of entry `b`: a first word of `n` bytes opens with the byte `b`.
    lens: [u64; 256],
    words: FnvSet<&'static [u8]>,
}

/// The first words of the phrases matched against short texts (furniture, pointer titles).
pub(super) static SHORT: LazyLock<FirstWords> =
    LazyLock::new(|| FirstWords::of(Use::EXACT | Use::PREFIX | Use::POINTER));
/// The first words of the comment titles.
pub(super) static COMMENTS: LazyLock<FirstWords> =
    LazyLock::new(|| FirstWords::of(Use::COMMENT | Use::COMMENT_NOUN | Use::COUNTED | Use::COUNTED_ON));

/// Bytes of a first word looked at.
const WORD_CAP: usize = 40;

/// Whether `c` continues a first word (`j'aime`, `cadastre-se`, `件のコメント`).
fn word_char(c: char) -> bool {
    c.is_alphabetic() || c == '\'' || c == '-'
}

/// `c` as the normalisation writes it before lower-casing.
fn mapped(c: char) -> char {
    match c {
        '\u{2019}' | '\u{2bc}' | '`' => '\'',
        '\u{130}' => 'i',
        c => c,
    }
}

impl FirstWords {
    fn of(uses: u16) -> FirstWords {
        let mut out = FirstWords {
            pairs: vec![0; 1 << 10],
            lens: [0; 256],
            words: FnvSet::default(),
        };
        for family in FAMILIES.iter().filter(|f| f.uses & uses != 0) {
            for p in family.phrases {
                let end = p.find(|c: char| !word_char(c)).unwrap_or(p.len());
                let word = &p[..end];
                let k = pair(word.as_bytes());
                out.pairs[k >> 6] |= 1 << (k & 63);
                assert!((1..=WORD_CAP).contains(&word.len()), "{word}");
                out.words.insert(word.as_bytes());
                out.lens[usize::from(word.as_bytes()[0])] |= 1 << word.len();
            }
        }
        out
    }

    /// Whether the first word of `text` is one of these first words.
    pub(super) fn known(&self, text: &str) -> bool {
        // Most texts open with an ASCII word: read as bytes.
        let b = text.as_bytes();
        let Some(start) = b.iter().position(|&c| c.is_ascii_alphabetic() || c >= 0x80) else {
            return false;
        };
        if b[start] >= 0x80 {
            return self.known_slow(text);
        }
        let mut buf = [0u8; WORD_CAP];
        let mut len = 0;
        for &c in &b[start..] {
            match c {
                c if c.is_ascii_alphabetic() || c == b'\'' || c == b'-' => {
                    if len == WORD_CAP {
                        return false;
                    }
                    buf[len] = c.to_ascii_lowercase();
                    len += 1;
                    if len == 2 && !self.has_pair(&buf[..2]) {
                        return false;
                    }
                }
                0x80.. => return self.known_slow(text),
                _ => break,
            }
        }
        (len > 1 || self.has_pair(&buf[..len])) && self.has(&buf[..len])
    }

    /// [`Self::known`], character by character.
    fn known_slow(&self, text: &str) -> bool {
        let mut buf = [0u8; WORD_CAP];
        let mut len = 0;
        let mut paired = false;
        let mut chars = text.chars().skip_while(|c| !c.is_alphabetic());
        for c in chars.by_ref() {
            let c = mapped(c);
            if !word_char(c) {
                break;
            }
            if c.is_ascii() {
                if len == WORD_CAP {
                    return false;
                }
                buf[len] = c.to_ascii_lowercase() as u8;
                len += 1;
            } else {
                for l in c.to_lowercase() {
                    if len + l.len_utf8() > WORD_CAP {
                        return false;
                    }
                    len += l.encode_utf8(&mut buf[len..]).len();
                }
            }
            // The first two bytes are known: most words stop here.
            if !paired && len >= 2 {
                paired = true;
                if !self.has_pair(&buf[..len]) {
                    return false;
                }
            }
        }
        if len == 0 {
            return false;
        }
        self.has_pair(&buf[..len]) && self.has(&buf[..len])
    }
}

impl FirstWords {
    /// Whether `word` (1 to [`WORD_CAP`] bytes) is a first word: its first byte and length
    /// first.
    fn has(&self, word: &[u8]) -> bool {
        self.lens[usize::from(word[0])] >> word.len() & 1 != 0 && self.words.contains(word)
    }

    /// Whether a first word opens with the first two bytes of `word`.
    fn has_pair(&self, word: &[u8]) -> bool {
        let k = pair(word);
        self.pairs[k >> 6] & (1 << (k & 63)) != 0
    }
}

/// The bit of a word's first two bytes.
fn pair(word: &[u8]) -> usize {
    let b0 = word.first().copied().unwrap_or(0);
    let b1 = word.get(1).copied().unwrap_or(0);
    usize::from(b0) << 8 | usize::from(b1)
}
