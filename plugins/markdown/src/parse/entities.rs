//! Character references (`&amp;`, `&#233;`, `&#x1F600;`, legacy `&copy` without
//! `;`) decoded as the HTML standard's tokenizer does, with the full named table.

use super::entity_table::{LEGACY, NAMED};
use std::borrow::Cow;

/// Decodes the character references in `s`, and normalises `\r\n` / `\r` to
/// `\n`. `in_attr` applies the attribute-value rule: a legacy reference without
/// `;` followed by `=` or an alphanumeric stays as written.
pub fn decode(s: &str, in_attr: bool) -> Cow<'_, str> {
    if crate::scan::find3(s.as_bytes(), b'&', b'\r', b'&').is_none() {
        return Cow::Borrowed(s);
    }
    Cow::Owned(decode_all(s, in_attr))
}

/// [`decode`] for text known to hold a `&` or `\r`.
pub fn decode_all(s: &str, in_attr: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut copied = 0;
    // Jumps from one `&` or `\r` to the next (a wide scan, not a loop per byte).
    while let Some(found) = crate::scan::find3(&bytes[i..], b'&', b'\r', b'&') {
        i += found;
        match bytes[i] {
            b'\r' => {
                out.push_str(&s[copied..i]);
                out.push('\n');
                i += if bytes.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                copied = i;
            }
            _ => {
                // `&`
                if let Some((len, a, b)) = reference(&s[i + 1..], in_attr) {
                    out.push_str(&s[copied..i]);
                    out.push(a);
                    if let Some(b) = b {
                        out.push(b);
                    }
                    i += 1 + len;
                    copied = i;
                } else {
                    i += 1;
                }
            }
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// The reference at the start of `s` (just after `&`): bytes consumed and the
/// character(s) it stands for.
fn reference(s: &str, in_attr: bool) -> Option<(usize, char, Option<char>)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        return numeric(s);
    }
    let run = b
        .iter()
        .take(40)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if run == 0 {
        return None;
    }
    if b.get(run) == Some(&b';')
        && let Some((a, c)) = lookup(&s[..run])
    {
        return Some((run + 1, a, c));
    }
    // Legacy names match without `;`, longest first.
    for len in (2..=run.min(6)).rev() {
        let name = &s[..len];
        if LEGACY.binary_search(&name).is_ok() {
            let next = b.get(len).copied();
            if in_attr && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric()) {
                return None;
            }
            let (a, c) = lookup(name)?;
            return Some((len, a, c));
        }
    }
    None
}

/// `#123;` / `#x1f;` (the `;` is optional).
fn numeric(s: &str) -> Option<(usize, char, Option<char>)> {
    let b = s.as_bytes();
    let (hex, start) = match b.get(1) {
        Some(b'x' | b'X') => (true, 2),
        _ => (false, 1),
    };
    let digits = b[start..]
        .iter()
        .take_while(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        })
        .count();
    if digits == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &c in &b[start..start + digits] {
        let d = (c as char).to_digit(16).unwrap_or(0);
        value = value.saturating_mul(if hex { 16 } else { 10 }).saturating_add(d);
    }
    let mut len = start + digits;
    if b.get(len) == Some(&b';') {
        len += 1;
    }
    Some((len, numeric_char(value), None))
}

/// The character a numeric reference stands for (with the standard's
/// windows-1252 remapping of 0x80–0x9F and U+FFFD for invalid values).
fn numeric_char(value: u32) -> char {
    const C1: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    let value = match value {
        0 => 0xFFFD,
        0x80..=0x9F => C1[(value - 0x80) as usize] as u32,
        v => v,
    };
    char::from_u32(value).unwrap_or('\u{FFFD}')
}

/// Binary search of the packed table for `name` (without `&`/`;`).
fn lookup(name: &str) -> Option<(char, Option<char>)> {
    // The common ones without a search.
    match name {
        "amp" => return Some(('&', None)),
        "lt" => return Some(('<', None)),
        "gt" => return Some(('>', None)),
        "quot" => return Some(('"', None)),
        "nbsp" => return Some(('\u{a0}', None)),
        "apos" => return Some(('\'', None)),
        _ => {}
    }
    let data = NAMED.as_bytes();
    let (mut lo, mut hi) = (0usize, data.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let mut start = mid;
        while start > lo && data[start - 1] != b' ' {
            start -= 1;
        }
        let end = data[start..hi]
            .iter()
            .position(|&c| c == b' ')
            .map_or(hi, |p| start + p);
        let record = &NAMED[start..end];
        let eq = record.bytes().position(|c| c == b'=')?;
        let (key, value) = (&record[..eq], &record[eq + 1..]);
        match key.cmp(name) {
            std::cmp::Ordering::Equal => {
                let mut parts = value.split('+').map(|h| {
                    u32::from_str_radix(h, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .unwrap_or('\u{FFFD}')
                });
                return Some((parts.next()?, parts.next()));
            }
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start.saturating_sub(1).max(lo),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn named_numeric_and_legacy() {
        assert_eq!(decode("a &amp; b", false), "a & b");
        assert_eq!(
            decode("&AElig;&zwnj;&yuml;&Aacute;", false),
            "\u{c6}\u{200c}\u{ff}\u{c1}"
        );
        assert_eq!(decode("&#233;&#xE9;&#X41", false), "ééA");
        assert_eq!(
            decode("&#150; &#0; &#x110000;", false),
            "\u{2013} \u{FFFD} \u{FFFD}"
        );
        assert_eq!(
            decode("&copy 2024 &notit; &nosuch;", false),
            "© 2024 ¬it; &nosuch;"
        );
        assert_eq!(decode("?a=1&copy=2&amp;x", true), "?a=1&copy=2&x");
        assert_eq!(decode("&acE;", false), "\u{223E}\u{333}");
        assert_eq!(decode("a\r\nb\rc", false), "a\nb\nc");
        assert_eq!(decode("& &; &#; &#x;", false), "& &; &#; &#x;");
    }

    #[test]
    fn every_table_entry_is_found() {
        for record in super::NAMED.split(' ').filter(|r| !r.is_empty()) {
            let name = record.split('=').next().unwrap();
            assert!(super::lookup(name).is_some(), "{name}");
        }
    }
}
