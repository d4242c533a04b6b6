//! Script data: text up to `</script`, following the spec's escape states so that
//! `<!-- <script> ... </script> -->` inside a script does not end it early. All bytes are
//! emitted as text (NUL as U+FFFD); the states only decide where the end tag is.

use super::{Construct, REPLACEMENT, Tokenizer, is_ws};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// Script data state.
    None,
    /// After `<!--`: script data escaped states.
    Escaped,
    /// After `<script` inside an escaped section: double escaped states.
    Double,
}

impl<B: Construct> Tokenizer<'_, B> {
    /// Index after the run of `-` starting at `i`.
    fn skip_dashes(&self, mut i: usize) -> usize {
        while self.src.get(i) == Some(&b'-') {
            i += 1;
        }
        i
    }

    /// At the letters after `<` (or `</`): true when they spell `script` (any case) and a
    /// whitespace, `/` or `>` follows. Also returns the index after the letters.
    fn script_word(&self, start: usize) -> (bool, usize) {
        let mut end = start;
        while end < self.src.len() && self.src[end].is_ascii_alphabetic() {
            end += 1;
        }
        let next = self.src.get(end).copied();
        let ends = next.is_some_and(|b| is_ws(b) || b == b'/' || b == b'>');
        (ends && self.src[start..end].eq_ignore_ascii_case(b"script"), end)
    }

    pub(super) fn script_data(&mut self) {
        let mut run = self.pos;
        let mut i = self.pos;
        let mut escape = Escape::None;
        loop {
            let found = match escape {
                Escape::None => memchr::memchr2(b'<', 0, &self.src[i..]),
                _ => memchr::memchr3(b'-', b'<', 0, &self.src[i..]),
            };
            let Some(k) = found else { break };
            let k = i + k;
            match self.src[k] {
                0 => {
                    self.text(run, k);
                    self.chars(REPLACEMENT);
                    run = k + 1;
                    i = k + 1;
                }
                b'-' => {
                    let j = self.skip_dashes(k);
                    if j - k >= 2 && self.src.get(j) == Some(&b'>') {
                        escape = Escape::None;
                        i = j + 1;
                    } else {
                        i = j;
                    }
                }
                _ => {
                    // `<`
                    if escape != Escape::Double && self.raw_end_tag(run, k) {
                        return;
                    }
                    let next = self.src.get(k + 1).copied();
                    i = k + 1;
                    match (escape, next) {
                        (Escape::None, Some(b'!')) if self.src[k + 2..].starts_with(b"--") => {
                            // Escaped dash dash: `<!-->` returns at once.
                            let j = self.skip_dashes(k + 2);
                            if self.src.get(j) == Some(&b'>') {
                                i = j + 1;
                            } else {
                                escape = Escape::Escaped;
                                i = j;
                            }
                        }
                        (Escape::Escaped, Some(b)) if b.is_ascii_alphabetic() => {
                            let (is_script, end) = self.script_word(k + 1);
                            if is_script {
                                escape = Escape::Double;
                            }
                            i = end;
                        }
                        (Escape::Double, Some(b'/')) => {
                            let (is_script, end) = self.script_word(k + 2);
                            if is_script {
                                escape = Escape::Escaped;
                            }
                            i = end;
                        }
                        _ => {}
                    }
                }
            }
        }
        self.text(run, self.src.len());
        self.pos = self.src.len();
    }
}
