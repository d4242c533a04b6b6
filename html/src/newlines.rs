//! The input stream's preprocessing of line ends (CR LF and lone CR become LF) in one copy
//! of a page. The CR LFs are counted first, so the buffer is made at its final length; then
//! the page is copied into it. On x86-64 both go sixteen bytes a step (SSE2, part of the
//! architecture): the count compares each byte and the next, and the copy stores each
//! sixteen bytes as they are, then, when a CR is among them, moves on from it (~60
//! instructions a line). Elsewhere a `memchr` search finds each line, copied on its own.
//! (Pushing each line and each LF onto a tendril instead cost ~300 instructions a line: a
//! third of the decode of a page served with CR LF line ends, as most real pages with
//! scripts are.)

use html5ever::tendril::{ByteTendril, StrTendril};

/// `text` in a new buffer with its line ends normalised; `noted` is told of each one made
/// LF: its index in the buffer and whether it was CR LF (else a lone CR), in order.
pub(crate) fn normalised(text: &str, mut noted: impl FnMut(u32, bool)) -> StrTendril {
    let src = text.as_bytes();
    let Some(first) = memchr::memchr(b'\r', src) else {
        return StrTendril::from_slice(text);
    };
    let len = src.len() - crlf_count(&src[first..]);
    let mut buf = ByteTendril::new();
    // SAFETY: the buffer grows to `len` bytes not yet written; `copy_lines` writes each of
    // them before anything reads the buffer.
    unsafe { buf.push_uninitialized(u32::try_from(len).expect("a page under 4 GiB")) };
    let out: &mut [u8] = &mut buf;
    copy_lines(src, first, out, &mut noted);
    // SAFETY: the buffer holds `text` (valid UTF-8) with ASCII bytes only changed (CR made
    // LF) or taken out (the LF after a CR): every other byte kept, in order, so every
    // multi-byte sequence is kept whole and the bytes are still valid UTF-8.
    unsafe { buf.reinterpret_without_validating() }
}

/// How many CR LF pairs `s` holds.
fn crlf_count(s: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; each load reads `s[i..i + 17]`, in bounds.
        unsafe {
            let (cr, lf) = (_mm_set1_epi8(b'\r' as i8), _mm_set1_epi8(b'\n' as i8));
            while i + 17 <= s.len() {
                let here = _mm_loadu_si128(s.as_ptr().add(i).cast());
                let next = _mm_loadu_si128(s.as_ptr().add(i + 1).cast());
                let pairs = _mm_and_si128(_mm_cmpeq_epi8(here, cr), _mm_cmpeq_epi8(next, lf));
                n += (_mm_movemask_epi8(pairs) as u32).count_ones() as usize;
                i += 16;
            }
        }
    }
    n + s[i..].windows(2).filter(|w| w == b"\r\n").count()
}

/// Copies `src` into `out` (its length: `src` less its CR LFs), each line end as one LF;
/// `first` is where the first CR is.
fn copy_lines(src: &[u8], first: usize, out: &mut [u8], noted: &mut impl FnMut(u32, bool)) {
    out[..first].copy_from_slice(&src[..first]);
    let (mut read, mut write) = (first, first);
    while read < src.len() {
        // The bytes before the next CR, `read..cr`, copied to `write..`; `None` at the end.
        let cr = next_line(src, read, out, write);
        let Some(cr) = cr else {
            out[write..].copy_from_slice(&src[read..]);
            return;
        };
        write += cr - read;
        let crlf = src.get(cr + 1) == Some(&b'\n');
        noted(write as u32, crlf);
        out[write] = b'\n';
        write += 1;
        read = cr + 1 + usize::from(crlf);
    }
    debug_assert_eq!(write, out.len());
}

/// Copies `src[read..]` up to the next CR to `out[write..]` and returns where that CR is;
/// `None` (nothing copied) when there is none. On x86-64 sixteen bytes a step: each
/// sixteen are stored whole, CR and after included (the bytes after the CR are written
/// again at their own places later), while the buffer has room for them.
fn next_line(src: &[u8], mut read: usize, out: &mut [u8], mut write: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; each load reads `src[read..read + 16]` and each
        // store writes `out[write..write + 16]`, both checked in bounds first.
        unsafe {
            let cr = _mm_set1_epi8(b'\r' as i8);
            while read + 16 <= src.len() && write + 16 <= out.len() {
                let chunk = _mm_loadu_si128(src.as_ptr().add(read).cast());
                _mm_storeu_si128(out.as_mut_ptr().add(write).cast(), chunk);
                let found = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, cr));
                if found != 0 {
                    return Some(read + found.trailing_zeros() as usize);
                }
                read += 16;
                write += 16;
            }
        }
    }
    let cr = read + memchr::memchr(b'\r', &src[read..])?;
    out[write..write + cr - read].copy_from_slice(&src[read..cr]);
    Some(cr)
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
    fn line_ends_at_every_place_of_a_sixteen_byte_step() {
        // A CR (or CR LF) at each offset of long lines, the last bytes of the page included.
        let line = "0123456789abcdéf0123456789ABCDEF0123456789abcdef!";
        for at in 0..line.len() + 1 {
            if !line.is_char_boundary(at) {
                continue;
            }
            for end in ["\r", "\r\n", "\r\r\n", "\n\r"] {
                let text = format!("{}{end}{}", &line[..at], &line[at..]);
                check(&text);
                check(&text.repeat(5));
                check(&format!("{line}{text}"));
            }
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
