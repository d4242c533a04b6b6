//! The input stream's preprocessing of line ends (CR LF and lone CR become LF) in one copy
//! of a page: the page is copied once into its buffer and the lines after each CR are
//! moved down in place, a `memchr` search and one move a line. (Pushing each line and each
//! LF onto the tendril instead cost ~300 instructions a line: a third of the decode of a
//! page served with CR LF line ends, as most real pages with scripts are.)

use html5ever::tendril::{ByteTendril, StrTendril};

/// `text` in a new buffer with its line ends normalised; `noted` is told of each one made
/// LF: its index in the buffer and whether it was CR LF (else a lone CR), in order.
pub(crate) fn normalised(text: &str, mut noted: impl FnMut(u32, bool)) -> StrTendril {
    let src = text.as_bytes();
    let Some(first) = memchr::memchr(b'\r', src) else {
        return StrTendril::from_slice(text);
    };
    let mut buf = ByteTendril::from_slice(src);
    let out: &mut [u8] = &mut buf;
    // Bytes `read..` of the page are still to be moved to `write..` of the buffer.
    let mut read = first;
    let mut write = first;
    // Every CR is a line end (only an LF after one is dropped, never a CR), so each CR the
    // search finds from `first` on starts one.
    for cr in memchr::memchr_iter(b'\r', &src[first..]).map(|i| first + i) {
        if cr > read {
            out.copy_within(read..cr, write);
            write += cr - read;
        }
        let crlf = src.get(cr + 1) == Some(&b'\n');
        noted(write as u32, crlf);
        out[write] = b'\n';
        write += 1;
        read = cr + 1 + usize::from(crlf);
    }
    out.copy_within(read.., write);
    write += src.len() - read;
    buf.pop_back((src.len() - write) as u32);
    // SAFETY: the buffer holds `text` (valid UTF-8) with ASCII bytes only changed (CR made
    // LF) or taken out (the LF after a CR): every other byte kept, in order, so every
    // multi-byte sequence is kept whole and the bytes are still valid UTF-8.
    unsafe { buf.reinterpret_without_validating() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    /// The former way: each line and each LF pushed onto a new tendril.
    fn pushed(text: &str) -> (String, Vec<(u32, bool)>) {
        let mut out = StrTendril::new();
        let mut ends = Vec::new();
        let mut rest = text;
        while let Some(i) = memchr::memchr(b'\r', rest.as_bytes()) {
            out.push_slice(&rest[..i]);
            let crlf = rest.as_bytes().get(i + 1) == Some(&b'\n');
            ends.push((out.len32(), crlf));
            out.push_char('\n');
            rest = &rest[i + 1 + usize::from(crlf)..];
        }
        out.push_slice(rest);
        (out.to_string(), ends)
    }

    fn check(text: &str) {
        let mut ends = Vec::new();
        let got = normalised(text, |at, crlf| ends.push((at, crlf)));
        assert_eq!((got.to_string(), ends), pushed(text), "{text:?}");
    }

    #[test]
    fn line_ends_at_the_boundaries() {
        for text in [
            "",
            "a",
            "\r",
            "\n",
            "\r\n",
            "\n\r",
            "\r\r",
            "\r\n\r\n",
            "\r\r\n",
            "\n\r\n",
            "x\r",
            "\ry",
            "x\r\n",
            "\r\ny",
            "a\rb\r\nc\n\rd",
            "12345678\r\n",
            "<p>short</p>\r\n<p>a longer line than a tendril holds inline</p>\r\n",
            "é\r\nü\rß\r\n\u{2028}\r€",
            "\r\n日本語\r\r\n",
        ] {
            check(text);
            check(&text.repeat(3));
        }
    }

    #[test]
    fn random_pages_as_the_lines_pushed_one_by_one() {
        let pieces = [
            "\r",
            "\n",
            "\r\n",
            "a",
            "<p>",
            " ",
            "é",
            "日本",
            "\u{fffd}",
            "\t",
            "xyzxyzxyzxyz",
        ];
        let mut rng = TestRng::new(0x6e65_776c_696e);
        for _ in 0..2000 {
            check(&rng.string_of(&pieces, 60));
        }
    }
}
