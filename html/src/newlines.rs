//! The input stream's preprocessing of line ends (CR LF and lone CR become LF) in one copy
//! of a page: the line ends are found first (a `memchr` search each), so the buffer is made
//! at its final length, then each line is copied into it once, from the page. (Pushing each
//! line and each LF onto a tendril instead cost ~300 instructions a line: a third of the
//! decode of a page served with CR LF line ends, as most real pages with scripts are. Copying
//! the whole page and moving the lines down in place costs a second copy of the page.)

use html5ever::tendril::{ByteTendril, StrTendril};

/// `text` in a new buffer with its line ends normalised; `noted` is told of each one made
/// LF: its index in the buffer and whether it was CR LF (else a lone CR), in order.
pub(crate) fn normalised(text: &str, mut noted: impl FnMut(u32, bool)) -> StrTendril {
    let src = text.as_bytes();
    let Some(first) = memchr::memchr(b'\r', src) else {
        return StrTendril::from_slice(text);
    };
    // Every CR is a line end (only an LF after one is dropped, never a CR), so each CR the
    // search finds from `first` on ends a line. Two searches (one to size the buffer, one to
    // copy) rather than a list of the line ends: a page of nothing but CRs would make that
    // list many times the page's size.
    let crlf_at = |cr: usize| src.get(cr + 1) == Some(&b'\n');
    let crlfs = memchr::memchr_iter(b'\r', &src[first..])
        .filter(|&i| crlf_at(first + i))
        .count();
    let len = src.len() - crlfs;
    let mut buf = ByteTendril::new();
    // SAFETY: the buffer grows to `len` bytes not yet written; the loop below writes each of
    // them (the page's bytes between line ends, an LF for each), through a pointer, before
    // anything reads the buffer.
    unsafe { buf.push_uninitialized(u32::try_from(len).expect("a page under 4 GiB")) };
    let out = buf.as_mut_ptr();
    let (mut read, mut write) = (0, 0);
    for cr in memchr::memchr_iter(b'\r', &src[first..]).map(|i| first + i) {
        let crlf = crlf_at(cr);
        let line = cr - read;
        // SAFETY: `read..cr` is in the page and `write..write + line + 1` in the buffer (the
        // buffer is the page less one byte per CR LF: `write` stays at most `read` less the
        // CR LFs passed), and the two do not overlap (a new allocation).
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr().add(read), out.add(write), line);
            out.add(write + line).write(b'\n');
        }
        write += line;
        noted(write as u32, crlf);
        write += 1;
        read = cr + 1 + usize::from(crlf);
    }
    let tail = src.len() - read;
    assert_eq!(write + tail, len);
    // SAFETY: as above, the page's last line into the buffer's last bytes.
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr().add(read), out.add(write), tail) };
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
