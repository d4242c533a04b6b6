//! Markup declarations: comments (with the spec's `<!-->`, `--!>` and EOF endings), bogus
//! comments, CDATA sections (only where the tree builder allows them) and DOCTYPE tokens
//! with their public/system identifiers and force-quirks flag.

use super::{Construct, REPLACEMENT, Tokenizer, is_ws};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{Doctype, Token};

/// `s` with NUL replaced, as a tendril.
fn replace_nul(s: &str) -> StrTendril {
    if memchr::memchr(0, s.as_bytes()).is_some() {
        StrTendril::from_slice(&s.replace('\0', REPLACEMENT))
    } else {
        StrTendril::from_slice(s)
    }
}

/// Lower-cased, NUL-replaced doctype name.
fn doctype_name(s: &str) -> StrTendril {
    let folded = s.to_ascii_lowercase();
    replace_nul(&folded)
}

impl<B: Construct> Tokenizer<'_, B> {
    /// After `<!`.
    pub(super) fn markup_declaration(&mut self) {
        let rest = &self.src[self.pos..];
        if rest.starts_with(b"--") {
            self.pos += 2;
            self.comment();
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            self.pos += 7;
            self.doctype();
        } else if rest.starts_with(b"[CDATA[") && self.builder.in_foreign() {
            self.pos += 7;
            self.cdata();
        } else {
            self.bogus_comment();
        }
    }

    /// `src[start..end]` (cut before or after ASCII bytes) as a comment token: without NUL a
    /// piece of the shared input, as text is (real pages carry dozens of comments: no copy
    /// and allocation each).
    fn emit_comment(&mut self, start: usize, end: usize) {
        let text = if memchr::memchr(0, &self.src[start..end]).is_some() {
            replace_nul(self.slice(start, end))
        } else {
            self.piece(start, end)
        };
        self.emit(Token::CommentToken(text));
    }

    /// From `pos` to the next `>` (or EOF) is a comment.
    pub(super) fn bogus_comment(&mut self) {
        let start = self.pos;
        let end = memchr::memchr(b'>', &self.src[start..]).map_or(self.src.len(), |i| start + i);
        self.pos = (end + 1).min(self.src.len());
        self.emit_comment(start, end);
    }

    /// After `<!--`.
    fn comment(&mut self) {
        let start = self.pos;
        let rest = &self.src[start..];
        if rest.starts_with(b">") {
            self.pos += 1;
            return self.emit_comment(start, start);
        }
        if rest.starts_with(b"->") {
            self.pos += 2;
            return self.emit_comment(start, start);
        }
        let mut at = start;
        while let Some(i) = memchr::memchr(b'-', &self.src[at..]) {
            let i = at + i;
            let tail = &self.src[i..];
            if tail.starts_with(b"-->") {
                self.pos = i + 3;
                return self.emit_comment(start, i);
            }
            if tail.starts_with(b"--!>") {
                self.pos = i + 4;
                return self.emit_comment(start, i);
            }
            at = i + 1;
        }
        // EOF: a trailing `-`, `--` or `--!` is the unfinished end, not data.
        let mut end = self.src.len();
        let data = &self.src[start..end];
        if data.ends_with(b"--!") {
            end -= 3;
        } else if data.ends_with(b"--") {
            end -= 2;
        } else if data.ends_with(b"-") {
            end -= 1;
        }
        self.pos = self.src.len();
        self.emit_comment(start, end.max(start));
    }

    /// After `<![CDATA[` in foreign content: text up to `]]>`.
    fn cdata(&mut self) {
        let start = self.pos;
        let end = memchr::memmem::find(&self.src[start..], b"]]>").map(|i| start + i);
        let stop = end.unwrap_or(self.src.len());
        self.pos = end.map_or(self.src.len(), |e| e + 3);
        if stop > start {
            let text = StrTendril::from_slice(self.slice(start, stop));
            self.emit_chars(text);
        }
    }

    fn skip_ws(&mut self) {
        while self.pos < self.src.len() && is_ws(self.src[self.pos]) {
            self.pos += 1;
        }
    }

    fn emit_doctype(&mut self, doctype: Doctype) {
        self.emit(Token::DoctypeToken(doctype));
    }

    /// After `<!DOCTYPE` (any case).
    fn doctype(&mut self) {
        let len = self.src.len();
        let mut d = Doctype::default();
        self.skip_ws();
        match self.src.get(self.pos) {
            None => {
                d.force_quirks = true;
                return self.emit_doctype(d);
            }
            Some(b'>') => {
                self.pos += 1;
                d.force_quirks = true;
                return self.emit_doctype(d);
            }
            Some(_) => {}
        }
        // Doctype name.
        let start = self.pos;
        let mut end = start + 1;
        while end < len && !is_ws(self.src[end]) && self.src[end] != b'>' {
            end += 1;
        }
        d.name = Some(doctype_name(self.slice(start, end)));
        self.pos = end;
        self.skip_ws();
        match self.src.get(self.pos) {
            None => {
                d.force_quirks = true;
                return self.emit_doctype(d);
            }
            Some(b'>') => {
                self.pos += 1;
                return self.emit_doctype(d);
            }
            Some(_) => {}
        }
        let keyword = self.src.get(self.pos..self.pos + 6);
        let public = keyword.is_some_and(|k| k.eq_ignore_ascii_case(b"public"));
        let system = keyword.is_some_and(|k| k.eq_ignore_ascii_case(b"system"));
        if !public && !system {
            d.force_quirks = true;
            return self.bogus_doctype(d);
        }
        self.pos += 6;
        // After the keyword and before the identifier.
        let Some(id) = self.doctype_identifier(&mut d, public) else {
            return;
        };
        if !public {
            d.system_id = Some(id);
            return self.after_system_id(d);
        }
        d.public_id = Some(id);
        // After the public identifier / between the identifiers.
        self.skip_ws();
        match self.src.get(self.pos) {
            None => {
                d.force_quirks = true;
                self.emit_doctype(d)
            }
            Some(b'>') => {
                self.pos += 1;
                self.emit_doctype(d)
            }
            Some(b'"' | b'\'') => {
                if let Some(id) = self.quoted_identifier(&mut d, false) {
                    d.system_id = Some(id);
                    self.after_system_id(d)
                }
            }
            Some(_) => {
                d.force_quirks = true;
                self.bogus_doctype(d)
            }
        }
    }

    /// After PUBLIC/SYSTEM: whitespace, then a quoted identifier. None when the doctype
    /// was already emitted (missing identifier, `>`, EOF).
    fn doctype_identifier(&mut self, d: &mut Doctype, public: bool) -> Option<StrTendril> {
        self.skip_ws();
        match self.src.get(self.pos) {
            Some(b'"' | b'\'') => self.quoted_identifier(d, public),
            None => {
                d.force_quirks = true;
                self.emit_doctype(std::mem::take(d));
                None
            }
            Some(b'>') => {
                self.pos += 1;
                d.force_quirks = true;
                self.emit_doctype(std::mem::take(d));
                None
            }
            Some(_) => {
                d.force_quirks = true;
                self.bogus_doctype(std::mem::take(d));
                None
            }
        }
    }

    /// At a quote: the identifier up to the same quote. A `>` or EOF inside ends the
    /// doctype (force-quirks, the identifier read so far kept) and gives None.
    fn quoted_identifier(&mut self, d: &mut Doctype, public: bool) -> Option<StrTendril> {
        let quote = self.src[self.pos];
        let start = self.pos + 1;
        let stop = self.src[start..]
            .iter()
            .position(|&b| b == quote || b == b'>')
            .map(|i| start + i);
        let end = stop.unwrap_or(self.src.len());
        let id = replace_nul(self.slice(start, end));
        self.pos = (end + 1).min(self.src.len());
        if stop.is_some_and(|i| self.src[i] == quote) {
            return Some(id);
        }
        let mut done = std::mem::take(d);
        done.force_quirks = true;
        if public {
            done.public_id = Some(id);
        } else {
            done.system_id = Some(id);
        }
        self.emit_doctype(done);
        None
    }

    fn after_system_id(&mut self, d: Doctype) {
        self.skip_ws();
        match self.src.get(self.pos) {
            None => {
                let mut d = d;
                d.force_quirks = true;
                self.emit_doctype(d)
            }
            Some(b'>') => {
                self.pos += 1;
                self.emit_doctype(d)
            }
            Some(_) => self.bogus_doctype(d),
        }
    }

    /// Up to `>` or EOF is ignored; the doctype is emitted as it stands.
    fn bogus_doctype(&mut self, d: Doctype) {
        let end = memchr::memchr(b'>', &self.src[self.pos..]).map_or(self.src.len(), |i| self.pos + i + 1);
        self.pos = end;
        self.emit_doctype(d);
    }
}
