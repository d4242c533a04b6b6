//! A format's value as JSON text, with a fast path for the common case of a
//! string value (markdown, HTML, summaries): the bytes that need escaping are
//! found with a wide scan (16 bytes per step, 64 per loop iteration with
//! SIMD128 in a plugin) and the runs between them copied whole, where
//! `serde_json` steps byte by byte.
//! The output is byte for byte `serde_json::to_string`'s.

use serde_json::Value;

/// `serde_json::to_string(value)`, faster for a string value.
pub fn to_json(value: &Value) -> serde_json::Result<String> {
    match value {
        Value::String(s) => Ok(quote(s)),
        other => serde_json::to_string(other),
    }
}

/// `s` as a JSON string literal, escaped as `serde_json` escapes it: `\"`,
/// `\\`, `\b \t \n \f \r`, other control characters as `\u00xx`.
pub fn quote(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(b.len() + b.len() / 16 + 2);
    out.push('"');
    // Everything before `copied` is written; the scan resumes there.
    let mut copied = 0;
    while let Some(found) = find_escape(&b[copied..]) {
        let at = copied + found;
        out.push_str(&s[copied..at]);
        push_escape(&mut out, b[at]);
        copied = at + 1;
    }
    out.push_str(&s[copied..]);
    out.push('"');
    out
}

fn push_escape(out: &mut String, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match c {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'\n' => "\\n",
        b'\t' => "\\t",
        b'\r' => "\\r",
        0x08 => "\\b",
        0x0c => "\\f",
        _ => {
            out.push_str("\\u00");
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
            return;
        }
    };
    out.push_str(short);
}

fn needs_escape(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\'
}

/// Index of the first byte of `hay` that JSON escapes.
fn find_escape(hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: SIMD128 is part of the wasm features wasmtime enables by
        // default (a runtime without it refuses the component); loads stay
        // within `hay`.
        let at = unsafe { simd::find_escape(hay) };
        (at < hay.len()).then_some(at)
    }
    #[cfg(not(target_arch = "wasm32"))]
    hay.iter().position(|&c| needs_escape(c))
}

#[cfg(target_arch = "wasm32")]
mod simd {
    use super::needs_escape;
    use core::arch::wasm32::*;

    /// Index of the first byte of `hay` that JSON escapes, or `hay.len()`.
    #[target_feature(enable = "simd128")]
    pub unsafe fn find_escape(hay: &[u8]) -> usize {
        let (control, quote, backslash) = (u8x16_splat(0x20), u8x16_splat(b'"'), u8x16_splat(b'\\'));
        let hits = |v| {
            v128_or(
                u8x16_lt(v, control),
                v128_or(u8x16_eq(v, quote), u8x16_eq(v, backslash)),
            )
        };
        // SAFETY: this function enables simd128; loads stay within `hay`.
        unsafe { crate::simd_scan::first_hit(hay, hits, needs_escape) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_serde_json() {
        let mut every_byte = String::new();
        for c in 0..128u8 {
            every_byte.push(c as char);
        }
        for s in [
            "",
            "plain",
            "a \"quoted\" \\ back\nslash\ttab\r\x08\x0c\x01\x1f\x7f end",
            "é ü \u{2028} 😀 \n\n",
            every_byte.as_str(),
            &"long line with a newline at the end of each\n".repeat(50),
            &"x".repeat(200),
            &format!("{}\"{}", "y".repeat(70), "z".repeat(9)),
        ] {
            let value = Value::String(s.to_string());
            assert_eq!(
                to_json(&value).unwrap(),
                serde_json::to_string(&value).unwrap(),
                "{s:?}"
            );
        }
        let object = serde_json::json!({"a": [1, "x\n"]});
        assert_eq!(to_json(&object).unwrap(), serde_json::to_string(&object).unwrap());
    }
}
