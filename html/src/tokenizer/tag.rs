//! Tags: the tag open states, tag names and the attribute states (names case-folded,
//! duplicates dropped, values decoded only when they hold `&` or NUL).

use super::{Construct, Mode, REPLACEMENT, Tokenizer, is_ws};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{EndTag, StartTag, Tag, TagKind};
use html5ever::{Attribute, LocalName, QualName, ns};

/// Classes of the bytes of a tag or attribute name: what ends a name (whitespace, `/`,
/// `>`), `=` (ends an attribute name after its first byte), what [`fold_name`] changes
/// (ASCII upper case, NUL); 0 is any other byte.
const NAME_END: u8 = 1;
const NAME_EQ: u8 = 2;
const NAME_FOLD: u8 = 4;
const NAME_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if is_ws(c) || c == b'/' || c == b'>' {
            NAME_END
        } else if c == b'=' {
            NAME_EQ
        } else if c.is_ascii_uppercase() || c == 0 {
            NAME_FOLD
        } else {
            0
        };
        b += 1;
    }
    table
};

/// `s` with ASCII upper case folded and NUL replaced; borrowed when nothing changes.
fn fold_name(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase() || b == 0) {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            match c {
                '\0' => out.push_str(REPLACEMENT),
                c => out.push(c.to_ascii_lowercase()),
            }
        }
        out.into()
    } else {
        s.into()
    }
}

/// Longest name `LocalName::from` stores inside the atom (`string_cache`'s inline atoms:
/// no hash of the name, no look-up in the static set).
const INLINE_ATOM_MAX: usize = 7;

/// The inline atom `LocalName::from` makes of `src[start..end]` (1 to
/// [`INLINE_ATOM_MAX`] bytes; little-endian targets), built from the bytes directly: the
/// name's bytes above the atom's tag-and-length byte. Read as one 8-byte word when the
/// input has 8 bytes from `start`.
pub(super) fn inline_atom(src: &[u8], start: usize, end: usize) -> LocalName {
    let len = end - start;
    debug_assert!((1..=INLINE_ATOM_MAX).contains(&len));
    let bytes = match src.get(start..start + 8) {
        Some(word) => u64::from_le_bytes(word.try_into().unwrap_or_default()) & ((1u64 << (8 * len)) - 1),
        None => src[start..end]
            .iter()
            .rev()
            .fold(0u64, |n, &b| (n << 8) | u64::from(b)),
    };
    LocalName::pack_inline(bytes << 8, len as u8)
}

/// The end of a name in `src` that goes on at `from` (the first byte whose class is in
/// `stop`, or the end of the input), and whether a byte before it needs [`fold_name`].
fn name_end(src: &[u8], from: usize, stop: u8) -> (usize, bool) {
    let mut classes = 0;
    let mut end = from;
    while let Some(&b) = src.get(end) {
        let class = NAME_CLASS[b as usize];
        if class & stop != 0 {
            break;
        }
        classes |= class;
        end += 1;
    }
    (end, classes & NAME_FOLD != 0)
}

/// The first index from `pos` of `src` that is not ASCII whitespace (or its end).
fn skip_ws(src: &[u8], mut pos: usize) -> usize {
    while let Some(&b) = src.get(pos) {
        if !is_ws(b) {
            break;
        }
        pos += 1;
    }
    pos
}

impl<'a, B: Construct> Tokenizer<'a, B> {
    /// At `<` in the data state. Reads the markup that starts here and returns true, or
    /// returns false when the `<` is text.
    pub(super) fn tag_open(&mut self) -> bool {
        let lt = self.pos;
        match self.src.get(lt + 1).copied() {
            Some(b'!') => {
                self.pos = lt + 2;
                self.markup_declaration();
                true
            }
            Some(b'/') => match self.src.get(lt + 2).copied() {
                Some(b) if b.is_ascii_alphabetic() => {
                    self.pos = lt + 2;
                    let name = self.tag_name();
                    self.tag_after_name(name, EndTag);
                    true
                }
                Some(b'>') => {
                    self.pos = lt + 3;
                    true
                }
                None => false,
                Some(_) => {
                    self.pos = lt + 2;
                    self.bogus_comment();
                    true
                }
            },
            Some(b) if b.is_ascii_alphabetic() => {
                self.pos = lt + 1;
                let name = self.tag_name();
                // Noted before the attributes are read: a start tag cut off by the end of
                // the input, never emitted, is the last tag read anyway.
                self.last_start = Some((lt + 1, self.pos));
                self.tag_after_name(name, StartTag);
                true
            }
            Some(b'?') => {
                self.pos = lt + 1;
                self.bogus_comment();
                true
            }
            _ => false,
        }
    }

    /// The name `src[start..end]` as an atom, folded when `fold` says it must be. The
    /// common short name is built here, in line; the rest out of line.
    #[inline(always)]
    fn name_atom(&mut self, start: usize, end: usize, fold: bool) -> LocalName {
        if !fold && end - start <= INLINE_ATOM_MAX && cfg!(target_endian = "little") {
            return inline_atom(self.src, start, end);
        }
        self.name_atom_slow(start, end, fold)
    }

    /// [`Self::name_atom`] of a name that is folded or longer than an inline atom.
    #[inline(never)]
    fn name_atom_slow(&mut self, start: usize, end: usize, fold: bool) -> LocalName {
        let name = self.slice(start, end);
        if fold {
            LocalName::from(&*fold_name(name))
        } else {
            self.long_names.atom(name)
        }
    }

    /// The atom of the last start tag's name (see `last_start`), for the end tag that
    /// closes a raw text element.
    pub(super) fn last_start_name(&mut self) -> LocalName {
        let Some((start, end)) = self.last_start else {
            return LocalName::from("");
        };
        let fold = self.src[start..end]
            .iter()
            .any(|&b| NAME_CLASS[b as usize] & NAME_FOLD != 0);
        self.name_atom(start, end, fold)
    }

    /// Reads a tag name from `pos` (its first byte is a letter). In line in `tag_open`.
    #[inline(always)]
    fn tag_name(&mut self) -> LocalName {
        let start = self.pos;
        let (end, fold) = name_end(self.src, start, NAME_END);
        self.pos = end;
        self.name_atom(start, end, fold)
    }

    /// [`Self::tag_attributes_kind`] in line in `tag_open`: most tags end at their name
    /// (`<p>`, `</div>`), and those are emitted here, as the attribute loop would emit
    /// them (no attribute, not self-closing), without a call into that loop's function
    /// and its set-up (its frame saves the registers the loop holds its state in).
    #[inline(always)]
    fn tag_after_name(&mut self, name: LocalName, kind: TagKind) {
        if self.src.get(self.pos) == Some(&b'>') {
            self.pos += 1;
            self.emit_tag(name, kind, false, Vec::new(), false);
            return;
        }
        self.tag_attributes_kind(name, kind);
    }

    /// The states after a tag name: attributes, `/>`, `>`. Emits the tag, or drops it at EOF.
    pub(super) fn tag_attributes_kind(&mut self, name: LocalName, kind: TagKind) {
        // Most tags end at their name (`<p>`, `</div>`): emitted without the attribute
        // loop's set-up, as it would emit them (no attribute, not self-closing).
        if self.src.get(self.pos) == Some(&b'>') {
            self.pos += 1;
            self.emit_tag(name, kind, false, Vec::new(), false);
            return;
        }
        if self.tag_rest(name, kind).is_none() {
            // EOF inside the tag: no token, the input is consumed.
            self.pos = self.src.len();
        }
    }

    /// [`Self::tag_attributes_kind`]; None at EOF. The input and the read position are
    /// held in locals through the attribute loop (`self.pos` is written once, at the `>`),
    /// so the loop does not reload them after each call it makes.
    fn tag_rest(&mut self, name: LocalName, kind: TagKind) -> Option<()> {
        // A tag's attributes are handed on in a vector of their exact number: the element
        // keeps it for the life of the tree, and most tags with attributes have one or two
        // (a block of four, what a first `push` reserves, is a larger allocation class to
        // make and to free). The first waits in `first`; at a second both go into the
        // tokenizer's scratch vector (its room kept from tag to tag: no growth), copied out
        // at the end. The scratch is empty here: every tag emitted leaves it so, and after
        // EOF inside a tag (a `None` return, which may leave some) no tag is read again;
        // cleared all the same (when not empty: no call otherwise), so a tag never
        // inherits another's attributes.
        debug_assert!(self.attrs.is_empty());
        if !self.attrs.is_empty() {
            self.attrs.clear();
        }
        let src: &'a [u8] = self.src;
        let mut pos = self.pos;
        let mut first: Option<Attribute> = None;
        let mut duplicate = false;
        let mut self_closing = false;
        loop {
            // Before attribute name.
            pos = skip_ws(src, pos);
            let b = *src.get(pos)?;
            match b {
                b'>' => {
                    pos += 1;
                    break;
                }
                b'/' => {
                    // Self-closing start tag state.
                    pos += 1;
                    match src.get(pos) {
                        None => return None,
                        Some(b'>') => {
                            pos += 1;
                            self_closing = true;
                            break;
                        }
                        Some(_) => continue,
                    }
                }
                _ => {}
            }
            // Attribute name: a leading `=` belongs to the name.
            let start = pos;
            let first_folds = NAME_CLASS[b as usize] & NAME_FOLD != 0;
            let (end, fold) = name_end(src, start + 1, NAME_END | NAME_EQ);
            let attr_name = self.name_atom(start, end, first_folds || fold);
            // After attribute name.
            pos = skip_ws(src, end);
            let value = if src.get(pos) == Some(&b'=') {
                let (value, next) = self.attribute_value(skip_ws(src, pos + 1))?;
                pos = next;
                value
            } else {
                StrTendril::new()
            };
            self.seen.segments |= attr_name == html5ever::local_name!("id")
                && (value.starts_with("S:") || value.starts_with("B:"));
            let seen_name = |a: &Attribute| a.name.local == attr_name;
            if first.as_ref().is_some_and(seen_name) || self.attrs.iter().any(seen_name) {
                duplicate = true;
            } else {
                let attr = Attribute {
                    name: QualName::new(None, ns!(), attr_name),
                    value,
                };
                match first.take() {
                    // `first` is `None` here: the `None` `replace` hands back is forgotten
                    // rather than dropped (an assignment would call its drop glue).
                    None if self.attrs.is_empty() => std::mem::forget(first.replace(attr)),
                    None => self.attrs.push(attr),
                    Some(one) => {
                        self.attrs.push(one);
                        self.attrs.push(attr);
                    }
                }
            }
            if pos >= src.len() {
                return None;
            }
            // After a quoted value the next byte must separate; otherwise it starts the
            // next attribute (a parse error) -- both read as "before attribute name".
        }
        self.pos = pos;
        let attrs = match first {
            Some(one) => vec![one],
            None if self.attrs.is_empty() => Vec::new(),
            None => {
                let mut all = Vec::with_capacity(self.attrs.len());
                all.append(&mut self.attrs);
                all
            }
        };
        self.emit_tag(name, kind, self_closing, attrs, duplicate);
        Some(())
    }

    /// Emits a tag read to its `>`, noting a `<base>` start tag, back in the data state.
    #[inline(always)]
    fn emit_tag(
        &mut self,
        name: LocalName,
        kind: TagKind,
        self_closing: bool,
        attrs: Vec<Attribute>,
        duplicate: bool,
    ) {
        if kind == StartTag {
            self.seen.base |= name == html5ever::local_name!("base");
        }
        self.mode = Mode::Data;
        self.emit_tag_token(Tag {
            kind,
            name,
            self_closing,
            attrs,
            had_duplicate_attributes: duplicate,
        });
    }

    /// Before attribute value at `pos` (whitespace skipped): reads a quoted or unquoted
    /// value, and returns it with the index after it. None at EOF (the tag is dropped).
    /// In line: its one caller is the attribute loop.
    #[inline(always)]
    fn attribute_value(&self, pos: usize) -> Option<(StrTendril, usize)> {
        let src = self.src;
        match src.get(pos).copied() {
            None => None,
            Some(q @ (b'"' | b'\'')) => {
                let start = pos + 1;
                // The closing quote, unless a `&` or NUL comes first: then the value
                // needs decoding, and its quote is looked for from there.
                let first = super::scan::find_quote_or_ref(q, &src[start..])? + start;
                if src[first] == q {
                    return Some((self.piece(start, first), first + 1));
                }
                let close = super::scan::find_byte(q, &src[first..])? + first;
                Some((self.value(start, close), close + 1))
            }
            Some(b'>') => Some((StrTendril::new(), pos)),
            Some(_) => {
                let mut end = pos;
                while end < src.len() && !is_ws(src[end]) && src[end] != b'>' {
                    end += 1;
                }
                if end >= src.len() {
                    return None;
                }
                Some((self.value(pos, end), end))
            }
        }
    }

    /// The attribute value `src[start..end]` with character references decoded.
    fn value(&self, start: usize, end: usize) -> StrTendril {
        let raw = &self.src[start..end];
        // Short values (most) by a plain loop: a `memchr2` call costs more than their bytes.
        let plain = if raw.len() < 16 {
            !raw.iter().any(|&b| b == b'&' || b == 0)
        } else {
            memchr::memchr2(b'&', 0, raw).is_none()
        };
        if plain {
            return self.piece(start, end);
        }
        let mut out = String::with_capacity(end - start);
        let mut run = start;
        let mut at = start;
        while let Some(i) = memchr::memchr2(b'&', 0, &self.src[at..end]) {
            let i = at + i;
            if self.src[i] == 0 {
                out.push_str(self.slice(run, i));
                out.push_str(REPLACEMENT);
                run = i + 1;
                at = i + 1;
                continue;
            }
            match self.char_ref_bounded(i, end, true) {
                Some((decoded, next)) => {
                    out.push_str(self.slice(run, i));
                    out.push_str(decoded.as_str());
                    run = next;
                    at = next;
                }
                None => at = i + 1,
            }
        }
        out.push_str(self.slice(run, end));
        StrTendril::from_slice(&out)
    }
}
