//! A string written as a JSON string, byte for byte as `serde_json` writes it (`"` and
//! `\` escaped, control characters as `\b \t \n \f \r` or `\u00xx` in lowercase hex,
//! everything else as it is), found sixteen bytes at a time: a long string (a page's
//! markdown) is mostly runs that need no escape, copied whole. [`write_json_value`] writes
//! a whole value as `serde_json::to_writer` does, its strings and keys this way.

const ONES: u64 = 0x0101_0101_0101_0101;
const TOP: u64 = ONES * 0x80;

/// Appends `s` to `out` as a JSON string, quotes included.
pub fn write_json_string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    // `b[run..i]` needs no escape and is not written yet.
    let (mut run, mut i) = (0, 0);
    // Two words a step, tested together (one branch and one bounds check for sixteen
    // bytes); the first word's marks are exact when it has any, else the second's.
    while let Some(step) = b.get(i..i + 16) {
        let low = needs_escape(u64::from_le_bytes(step[..8].try_into().expect("eight bytes")));
        let high = needs_escape(u64::from_le_bytes(step[8..].try_into().expect("eight bytes")));
        if low | high == 0 {
            i += 16;
            continue;
        }
        let first = if low != 0 {
            low.trailing_zeros() / 8
        } else {
            8 + high.trailing_zeros() / 8
        };
        run = escape_at(out, b, run, i + first as usize);
        i = run;
    }
    while let Some(word) = b.get(i..i + 8) {
        let marks = needs_escape(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        if marks == 0 {
            i += 8;
            continue;
        }
        run = escape_at(out, b, run, i + (marks.trailing_zeros() / 8) as usize);
        i = run;
    }
    for (at, &byte) in b.iter().enumerate().skip(i) {
        if byte < 0x20 || byte == b'"' || byte == b'\\' {
            run = escape_at(out, b, run, at);
        }
    }
    out.extend_from_slice(&b[run..]);
    out.push(b'"');
}

/// Appends `value` as `serde_json::to_writer` writes it (compact), byte for byte: every
/// string and key through [`write_json_string`], numbers by `serde_json` itself.
pub fn write_json_value(out: &mut Vec<u8>, value: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => serde_json::to_writer(out, n).expect("numbers serialise"),
        Value::String(s) => write_json_string(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(fields) => write_json_object(out, fields, |out, _, value| write_json_value(out, value)),
    }
}

/// A generous guess at the length of `data` as JSON, to size a buffer once rather than
/// grow it by doubling (a string's escapes counted as a sixteenth of it).
pub fn json_size_hint(data: &serde_json::Value) -> usize {
    use serde_json::Value;
    match data {
        Value::String(s) => s.len() + s.len() / 16 + 2,
        Value::Array(items) => items.iter().map(|v| json_size_hint(v) + 1).sum::<usize>() + 2,
        Value::Object(fields) => {
            fields
                .iter()
                .map(|(k, v)| k.len() + 4 + json_size_hint(v))
                .sum::<usize>()
                + 2
        }
        _ => 24,
    }
}

/// Appends an object as `serde_json` writes it, each field's value written by `field`
/// (given the field's name and value).
pub fn write_json_object(
    out: &mut Vec<u8>,
    fields: &serde_json::Map<String, serde_json::Value>,
    field: impl FnMut(&mut Vec<u8>, &str, &serde_json::Value),
) {
    write_json_fields(out, fields, field);
    out.push(b'}');
}

/// [`write_json_object`] of `fields` in the order given, without the closing brace
/// (for a caller that notes where the fields end).
pub fn write_json_fields<'a>(
    out: &mut Vec<u8>,
    fields: impl IntoIterator<Item = (&'a String, &'a serde_json::Value)>,
    mut field: impl FnMut(&mut Vec<u8>, &str, &serde_json::Value),
) {
    out.push(b'{');
    for (i, (name, value)) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_json_string(out, name);
        out.push(b':');
        field(out, name, value);
    }
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

/// Appends the run `b[run..at]`, which needs no escape, and the escape of `b[at]`, which
/// needs one; the next run starts after it.
#[inline(always)]
fn escape_at(out: &mut Vec<u8>, b: &[u8], run: usize, at: usize) -> usize {
    out.extend_from_slice(&b[run..at]);
    escape(out, b[at]);
    at + 1
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
    use super::{write_json_string, write_json_value};
    use serde_json::{Value, json};

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

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        const STRINGS: &[&str] = &[
            "",
            "a",
            "\"q\"",
            "\\",
            "\n\r\t\u{0}\u{1f}\u{7f}",
            "é€😀\u{2028}",
            "k\"ey\n",
        ];
        let numbers = [
            json!(0),
            json!(-1),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(0.1),
            json!(-0.0),
            json!(1.0),
            json!(1e300),
            json!(5e-324),
            json!(123_456.789),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as usize
        };
        // Random nested documents of every kind of value, strings as keys too.
        fn build(depth: usize, next: &mut dyn FnMut(u64) -> usize, numbers: &[Value]) -> Value {
            match next(if depth > 3 { 5 } else { 7 }) {
                0 => Value::Null,
                1 => Value::Bool(next(2) == 0),
                2 => numbers[next(numbers.len() as u64)].clone(),
                3 | 4 => Value::String(
                    (0..next(4))
                        .map(|_| STRINGS[next(STRINGS.len() as u64)])
                        .collect(),
                ),
                5 => Value::Array((0..next(4)).map(|_| build(depth + 1, next, numbers)).collect()),
                _ => Value::Object(
                    (0..next(5))
                        .map(|_| {
                            let key: String = (0..next(3))
                                .map(|_| STRINGS[next(STRINGS.len() as u64)])
                                .collect();
                            (key, build(depth + 1, next, numbers))
                        })
                        .collect(),
                ),
            }
        }
        for _ in 0..20_000 {
            let value = build(0, &mut next, &numbers);
            let mut out = Vec::new();
            write_json_value(&mut out, &value);
            assert_eq!(out, serde_json::to_vec(&value).unwrap(), "{value}");
        }
    }
}
