//! Counting a text's visible characters (those `char::is_whitespace` is false for) in its
//! lossy decoding, eight bytes at a time, without decoding it: in valid UTF-8 a character
//! is a byte that is not a continuation byte, and a whitespace character past ASCII is one
//! of a dozen sequences, each led by 0xC2, 0xE1, 0xE2 or 0xE3. Invalid text is decoded.

const ONES: u64 = 0x0101_0101_0101_0101;
const TOP: u64 = ONES * 0x80;

/// Non-whitespace characters of `text` decoded lossily (invalid sequences replaced).
pub(crate) fn visible_chars(text: &[u8]) -> usize {
    let mut words = text.chunks_exact(8);
    let (mut shown, mut high, mut wide_spaces) = (0u64, 0u64, 0usize);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if x & TOP == 0 {
            shown += count(not_ascii_space(x));
        } else {
            shown += count(first_bytes_not_ascii_space(x));
            high |= x;
            wide_spaces += wide_spaces_led_in(text, at, x);
        }
        at += 8;
    }
    let rest = words.remainder();
    if rest.is_ascii() {
        shown += rest
            .iter()
            .map(|&b| u64::from(!b.is_ascii_whitespace() && b != 0x0b))
            .sum::<u64>();
    } else {
        // Padded with continuation bytes, which are no character's first byte.
        let mut pad = [0x80u8; 8];
        pad[..rest.len()].copy_from_slice(rest);
        let x = u64::from_le_bytes(pad);
        shown += count(first_bytes_not_ascii_space(x));
        high |= TOP;
        wide_spaces += wide_spaces_led_in(text, at, x);
    }
    if high & TOP == 0 {
        return shown as usize;
    }
    if std::str::from_utf8(text).is_ok() {
        shown as usize - wide_spaces
    } else {
        String::from_utf8_lossy(text)
            .chars()
            .filter(|c| !c.is_whitespace())
            .count()
    }
}

/// Per byte of `x`, its top bit set when the byte starts a character (it is not a
/// continuation byte, 0b10xxxxxx) and is not ASCII whitespace (tab to carriage return,
/// space); the spaces are found on the low seven bits.
fn first_bytes_not_ascii_space(x: u64) -> u64 {
    let ascii_space = !not_ascii_space(x & (ONES * 0x7f)) & !x & TOP;
    let continuation = x & !(x << 1) & TOP;
    !(ascii_space | continuation) & TOP
}

/// Per byte of `x`, seven-bit bytes only, its top bit set when the byte is not ASCII
/// whitespace. No sum carries into the next byte.
fn not_ascii_space(x: u64) -> u64 {
    let not_space = ((x ^ (ONES * u64::from(b' '))) + ONES * 0x7f) & TOP;
    let from_tab = (x + ONES * (0x80 - 9)) & TOP;
    let past_return = (x + ONES * (0x80 - 14)) & TOP;
    not_space & !(from_tab & !past_return) & TOP
}

/// How many top bits `bits` has (at most one per byte).
fn count(bits: u64) -> u64 {
    ((bits >> 7).wrapping_mul(ONES)) >> 56
}

/// How many whitespace characters past ASCII start in the word `x` read at `text[at..]`
/// (their lead bytes have the two top bits set; the rest of a sequence may lie in the
/// next word).
fn wide_spaces_led_in(text: &[u8], at: usize, x: u64) -> usize {
    let mut leads = x & (x << 1) & TOP;
    let mut found = 0;
    while leads != 0 {
        let i = at + (leads.trailing_zeros() / 8) as usize;
        leads &= leads - 1;
        found += usize::from(text.get(i..).is_some_and(is_wide_space));
    }
    found
}

/// Whether `s` starts with a whitespace character past ASCII (U+0085, U+00A0, U+1680,
/// U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
fn is_wide_space(s: &[u8]) -> bool {
    matches!(
        s,
        [0xc2, 0x85 | 0xa0, ..]
            | [0xe1, 0x9a, 0x80, ..]
            | [0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf, ..]
            | [0xe2, 0x81, 0x9f, ..]
            | [0xe3, 0x80, 0x80, ..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_alone_and_among_others_is_counted_as_decoded() {
        for c in (0..=0x10_ffffu32).filter_map(char::from_u32) {
            let expected = usize::from(!c.is_whitespace());
            let mut buf = [0u8; 4];
            let alone = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(visible_chars(alone), expected, "{c:?}");
            if c.is_whitespace() || (c as u32).is_multiple_of(97) {
                // At every offset across a word boundary, with text around it.
                for pad in 0..9 {
                    let text = format!("{}{c} x", " ".repeat(pad));
                    assert_eq!(visible_chars(text.as_bytes()), expected + 1, "{c:?} at {pad}");
                }
            }
        }
    }

    #[test]
    fn invalid_sequences_count_as_their_replacements() {
        for text in [
            &b"\xe2\x80"[..],
            b"ab \xe2\x80 cd",
            b"\xe3\x80",
            b"\xc2",
            b"\xff\xfe  \x80",
            b"       \xe2\x80\x80\xe2",
            b"\xed\xa0\x80 \xe2\x80\x8a",
        ] {
            let expected = String::from_utf8_lossy(text)
                .chars()
                .filter(|c| !c.is_whitespace())
                .count();
            assert_eq!(visible_chars(text), expected, "{text:?}");
        }
    }
}
