//! A string written as a JSON string, byte for byte as `serde_json` writes it (`"` and
//! `\` escaped, control characters as `\b \t \n \f \r` or `\u00xx` in lowercase hex,
//! everything else as it is), found eight bytes at a time: a long string (a page's
//! markdown) is mostly runs that need no escape, copied whole.

const ONES: u64 = 0x0101_0101_0101_0101;
const TOP: u64 = ONES * 0x80;

/// Appends `s` to `out` as a JSON string, quotes included.
pub fn write_json_string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    // `b[run..i]` needs no escape and is not written yet.
    let (mut run, mut i) = (0, 0);
    while let Some(word) = b.get(i..i + 8) {
        let marks = needs_escape(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        if marks == 0 {
            i += 8;
            continue;
        }
        let at = i + (marks.trailing_zeros() / 8) as usize;
        out.extend_from_slice(&b[run..at]);
        escape(out, b[at]);
        (run, i) = (at + 1, at + 1);
    }
    for (at, &byte) in b.iter().enumerate().skip(i) {
        if byte < 0x20 || byte == b'"' || byte == b'\\' {
            out.extend_from_slice(&b[run..at]);
            escape(out, byte);
            run = at + 1;
        }
    }
    out.extend_from_slice(&b[run..]);
    out.push(b'"');
}

/// Per byte of `x`, its top bit set when the byte needs an escape (a control character,
/// `"` or `\`). Exact for the lowest byte set; bytes above one that needs an escape may
/// be set wrongly (a borrow), and are looked at again.
fn needs_escape(x: u64) -> u64 {
    let control = x.wrapping_sub(ONES * 0x20) & !x;
    let quote = x ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = x ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & TOP
}

/// Appends the escape of a byte that needs one.
fn escape(out: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x09 => b't',
        0x0a => b'n',
        0x0c => b'f',
        0x0d => b'r',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use super::write_json_string;

    fn written(s: &str) -> Vec<u8> {
        let mut out = b"x".to_vec();
        write_json_string(&mut out, s);
        out.remove(0);
        out
    }

    #[test]
    fn every_character_is_written_as_serde_json_writes_it() {
        for c in (0..0x3000u32)
            .chain([0xfeff, 0xffff, 0x1_f600, 0x10_ffff])
            .filter_map(char::from_u32)
        {
            for pad in 0..17 {
                let s = format!("{}{c}{}", "a".repeat(pad), "b".repeat(pad % 9));
                assert_eq!(written(&s), serde_json::to_vec(&s).unwrap(), "{c:?} at {pad}");
            }
        }
    }

    #[test]
    fn random_strings_are_written_as_serde_json_writes_them() {
        const PIECES: &[&str] = &[
            "a",
            "word ",
            "\"",
            "\\",
            "\n",
            "\r\n",
            "\t",
            "\u{0}",
            "\u{1}",
            "\u{8}",
            "\u{b}",
            "\u{c}",
            "\u{1f}",
            " ",
            "!",
            "#",
            "[",
            "]",
            "\u{7f}",
            "é",
            "€",
            "\u{2028}",
            "😀",
            "/",
            "\"\\\"",
            "a long run of plain text without anything to escape in it",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..50_000 {
            let mut s = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for k in 0..(state % 40) {
                s.push_str(PIECES[((state >> (k % 48)) as usize + k as usize * 7) % PIECES.len()]);
            }
            assert_eq!(written(&s), serde_json::to_vec(&s).unwrap(), "{s:?}");
        }
        assert_eq!(written(""), b"\"\"");
    }
}
