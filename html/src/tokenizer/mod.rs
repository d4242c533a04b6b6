//! A byte-oriented HTML tokenizer (WHATWG "tokenization") that feeds a tree builder: our
//! own ([`crate::tree_builder`]) or html5ever's `TreeBuilder` (when ours gives up, the page
//! is tokenized again into html5ever's), so the `dom_query` tree is the one
//! `parse_document` builds. Text runs and attribute values without character references
//! are handed over as sub-tendrils of one shared copy of the input (no per-character pushes);
//! markup is found with `memchr` scans. The tree builder's answers (`RawData`, `Plaintext`)
//! switch the text mode, or stop the tokenizer (ours giving up); `[CDATA[` is honoured only
//! where the tree builder allows it.
//!
//! Split by job: this file drives the tokens and text modes, [`tag`] reads tags and
//! attributes, [`markup`] comments, doctypes and CDATA, [`script`] the script-data escape
//! states, [`charref`] character references, [`names`] the atoms of long names, [`scan`] the
//! searches for the next markup byte and a value's closing quote, [`sink`] the tree builder's sink (the
//! `Document` behind handles that carry their element's name), [`node_list`] its appends
//! straight into `dom_query`'s node list.

mod charref;
mod markup;
mod names;
mod node_list;
mod scan;
mod script;
mod sink;
mod tag;
#[cfg(test)]
mod tests;

use dom_query::{Document, NodeId};
use html5ever::ParseOpts;
use html5ever::tendril::StrTendril;
pub(crate) use html5ever::tokenizer::Token;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{TokenSink, TokenSinkResult};
use html5ever::tree_builder::TreeBuilder;
#[cfg(test)]
use html5ever::tree_builder::TreeBuilderOpts;
pub(crate) use sink::Sink;

/// Parses a full HTML document with `opts` (html5ever's tree builder, this tokenizer).
#[cfg(test)]
pub(crate) fn parse_document(html: &str, opts: ParseOpts) -> Document {
    parse_document_noting(html, opts).0
}

/// What the tokenizer saw in a page's tags, so that later passes can skip a walk of the
/// tree that could not find anything (the tree builder makes elements and attributes only
/// from the tags it is handed: no tag, no element).
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// A `<base>` start tag.
    pub base: bool,
    /// An `id` attribute whose value starts with `S:` or `B:`: what streamed segments and
    /// their placeholders are made of (`main_content::reveal_deferred`).
    pub segments: bool,
    /// Every element named `noscript` the tree builder made (noted by its sink).
    pub noscripts: Vec<NodeId>,
    /// The tree went over its node budget, so the tokenizer stopped: the document holds
    /// only the page's beginning.
    pub over: bool,
}

/// [`parse_document`], and what the tokenizer [`Seen`] in the tags.
pub(crate) fn parse_document_noting(html: &str, opts: ParseOpts) -> (Document, Seen) {
    let buf = input(html);
    let builder = TreeBuilder::new(Sink::for_page(buf.len()), opts.tree_builder);
    let (builder, seen) = tokenize(&buf, builder);
    finished(seen, builder.sink)
}

/// The tendril the tokens are cut from: the input (without a byte order mark) copied once,
/// normalised on the way when it has carriage returns.
pub(crate) fn input(html: &str) -> StrTendril {
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    if memchr::memchr(b'\r', html.as_bytes()).is_some() {
        normalise_newlines(html)
    } else {
        StrTendril::from_slice(html)
    }
}

/// [`input`] of a page already in a tendril with its line ends normalised
/// ([`crate::PageHtml`]): the same text, without a copy.
pub(crate) fn input_normalised(html: StrTendril) -> StrTendril {
    const BOM: char = '\u{feff}';
    if html.starts_with(BOM) {
        let bom = BOM.len_utf8() as u32;
        html.subtendril(bom, html.len32() - bom)
    } else {
        html
    }
}

/// Runs the tokenizer over `buf` into `builder`; returns it with what was [`Seen`].
pub(crate) fn tokenize<B: Construct>(buf: &StrTendril, builder: B) -> (B, Seen) {
    let html: &str = buf;
    let mut tok = Tokenizer {
        text: html,
        src: html.as_bytes(),
        buf,
        pos: 0,
        mode: Mode::Data,
        last_start: None,
        seen: Seen::default(),
        stopped: false,
        long_names: names::LongNames::kept(),
        attrs: Vec::new(),
        builder,
    };
    tok.run();
    let Tokenizer {
        builder,
        seen,
        long_names,
        ..
    } = tok;
    long_names.keep();
    (builder, seen)
}

pub(crate) fn finished(mut seen: Seen, sink: Sink) -> (Document, Seen) {
    seen.over = sink.over();
    let Sink { doc, noscripts, .. } = sink;
    seen.noscripts = noscripts.into_inner();
    (doc, seen)
}

/// What the tokenizer feeds: html5ever's tree builder or ours ([`crate::tree_builder`]).
pub(crate) trait Construct {
    /// Takes one token; the answer may switch the text mode or stop the tokenizer.
    fn token(&mut self, token: Token) -> Answer;
    /// Takes a character token: [`Self::token`] of it, unless the builder takes the
    /// text straight (no `Token` built and matched again).
    #[inline]
    fn chars(&mut self, text: StrTendril) -> Answer {
        self.token(Token::CharacterTokens(text))
    }
    /// Takes a tag token: [`Self::token`] of it, unless the builder takes the tag
    /// straight.
    #[inline]
    fn tag(&mut self, tag: html5ever::tokenizer::Tag) -> Answer {
        self.token(Token::TagToken(tag))
    }
    /// Whether the adjusted current node is outside the HTML namespace (`[CDATA[` allowed).
    fn in_foreign(&self) -> bool;
    /// Whether the tree made so far is over its node budget ([`Sink::over`]): the
    /// tokenizer then stops.
    fn over(&self) -> bool {
        false
    }
    /// After the end-of-file token.
    fn end(&mut self);
}

/// A tree builder's answer to a token.
pub(crate) enum Answer {
    Continue,
    Plaintext,
    Raw(RawKind),
    /// Our tree builder gave up: tokenizing stops.
    Stop,
}

impl Construct for TreeBuilder<sink::Handle, Sink> {
    fn token(&mut self, token: Token) -> Answer {
        match self.process_token(token, 1) {
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => Answer::Continue,
            TokenSinkResult::Plaintext => Answer::Plaintext,
            TokenSinkResult::RawData(kind) => Answer::Raw(kind),
        }
    }

    fn in_foreign(&self) -> bool {
        self.adjusted_current_node_present_but_not_in_html_namespace()
    }

    fn over(&self) -> bool {
        self.sink.over()
    }

    fn end(&mut self) {
        TokenSink::end(self);
    }
}

/// [`parse_document`] with a default tree builder but `scripting_enabled`.
#[cfg(test)]
pub(crate) fn parse_scripting(html: &str) -> Document {
    parse_document(
        html,
        ParseOpts {
            tree_builder: TreeBuilderOpts {
                scripting_enabled: true,
                ..Default::default()
            },
            ..Default::default()
        },
    )
}

/// CR LF and lone CR become LF (the input stream's preprocessing).
fn normalise_newlines(html: &str) -> StrTendril {
    crate::newlines::normalised(html, |_, _| {})
}

/// The text-producing state the tokenizer returns to between tags.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Data,
    Rcdata,
    Rawtext,
    Script,
    Plaintext,
}

pub(super) struct Tokenizer<'a, B: Construct> {
    /// The (newline-normalised) input.
    text: &'a str,
    /// Its bytes.
    src: &'a [u8],
    /// The same bytes as one tendril, so text and values can be sub-tendrils of it.
    buf: &'a StrTendril,
    pos: usize,
    mode: Mode,
    /// Where the name of the last start tag read is in the input, as it is written there
    /// ("appropriate end tag" checks): noted as two offsets, not an atom cloned per start
    /// tag, for the few raw text elements that ask.
    last_start: Option<(usize, usize)>,
    /// What the tags held (see [`Seen`]).
    seen: Seen,
    /// The tree builder gave up: tokens are no longer handed on.
    stopped: bool,
    /// The atoms of the page's long names (see [`names`]).
    long_names: names::LongNames,
    /// The attributes of the tag being read from its second on (empty between tags; see
    /// `tag_rest`).
    attrs: Vec<html5ever::Attribute>,
    builder: B,
}

/// Longest tendril held inline (tendril's `MAX_INLINE_LEN`).
const INLINE_MAX: usize = 8;

/// The replacement character, for NUL bytes outside the data state.
const REPLACEMENT: &str = "\u{fffd}";

const fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b' ')
}

impl<'a, B: Construct> Tokenizer<'a, B> {
    fn run(&mut self) {
        while self.pos < self.src.len() && !self.stopped {
            match self.mode {
                Mode::Data => self.text_with_refs(false),
                Mode::Rcdata => self.text_with_refs(true),
                Mode::Rawtext => self.rawtext(),
                Mode::Script => self.script_data(),
                Mode::Plaintext => self.plaintext(),
            }
        }
        self.emit(Token::EOFToken);
        if !self.stopped {
            self.builder.end();
        }
    }

    /// Hands a token to the tree builder and follows its answer.
    fn emit(&mut self, token: Token) {
        if self.stopped {
            return;
        }
        let answer = self.builder.token(token);
        self.follow(answer);
    }

    /// Hands text to the tree builder (as a character token) and follows its answer.
    fn emit_chars(&mut self, text: StrTendril) {
        if self.stopped {
            return;
        }
        let answer = self.builder.chars(text);
        self.follow(answer);
    }

    /// Hands a tag to the tree builder (as a tag token) and follows its answer.
    fn emit_tag_token(&mut self, tag: html5ever::tokenizer::Tag) {
        if self.stopped {
            return;
        }
        let answer = self.builder.tag(tag);
        self.follow(answer);
    }

    /// Follows the tree builder's answer to a token.
    #[inline]
    fn follow(&mut self, answer: Answer) {
        match answer {
            Answer::Continue => self.stopped = self.builder.over(),
            Answer::Stop => self.stopped = true,
            Answer::Plaintext => self.mode = Mode::Plaintext,
            Answer::Raw(kind) => {
                self.mode = match kind {
                    RawKind::Rcdata => Mode::Rcdata,
                    RawKind::Rawtext => Mode::Rawtext,
                    RawKind::ScriptData | RawKind::ScriptDataEscaped(_) => Mode::Script,
                }
            }
        }
    }

    /// Emits `src[start..end]` as characters (no NUL in it), if not empty.
    fn text(&mut self, start: usize, end: usize) {
        if end > start {
            let t = self.piece(start, end);
            self.emit_chars(t);
        }
    }

    /// `src[start..end]` (cut before or after ASCII bytes) as a tendril: up to 8 bytes a
    /// copy held inline, as a sub-tendril would hold it too; longer, a sub-tendril of the
    /// shared input. The ends are checked as `str` checks a slice (in bounds, each on a
    /// character boundary: one byte read each), not by the tendril's own check, which
    /// classifies the UTF-8 sequence around both ends.
    fn piece(&self, start: usize, end: usize) -> StrTendril {
        if end - start <= INLINE_MAX {
            self.inline_piece(start, end)
        } else if self.text.get(start..end).is_some() {
            // SAFETY: `self.text` is the text of `self.buf` (see `tokenize`), and
            // `start..end` is in bounds and on character boundaries of that valid UTF-8
            // (checked just above), so the piece is valid UTF-8 too: what
            // `unsafe_subtendril` leaves to its caller.
            unsafe { self.buf.unsafe_subtendril(start as u32, (end - start) as u32) }
        } else {
            self.buf.subtendril(start as u32, (end - start) as u32)
        }
    }

    /// [`Self::piece`] of at most [`INLINE_MAX`] bytes: the tendril's inline copy, made
    /// with a copy of constant size per length (one or two moves) rather than the `memcpy`
    /// call a copy of a length known only at run time compiles to.
    #[inline(always)]
    fn inline_piece(&self, start: usize, end: usize) -> StrTendril {
        let s = self.slice(start, end);
        macro_rules! sized {
            ($($n:literal)*) => {
                match s.len() {
                    $($n => StrTendril::from_slice(&s[..$n]),)*
                    _ => StrTendril::from_slice(s),
                }
            };
        }
        sized!(1 2 3 4 5 6 7 8)
    }

    fn chars(&mut self, s: &str) {
        self.emit_chars(StrTendril::from_slice(s));
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        // Callers cut only before or after ASCII bytes, so these are character boundaries.
        &self.text[start..end]
    }

    /// Text with character references, up to markup: the data state (`<` may
    /// start a tag; NUL is a token of its own) or RCDATA (`<title>`,
    /// `<textarea>`: only the matching end tag ends it; NUL becomes U+FFFD).
    fn text_with_refs(&mut self, rcdata: bool) {
        let mut run = self.pos;
        let mut at = self.pos;
        while let Some(i) = scan::find_markup(&self.src[at..]) {
            let i = at + i;
            match self.src[i] {
                b'&' => match self.char_ref(i, false) {
                    Some((decoded, end)) => {
                        self.text(run, i);
                        self.chars(decoded.as_str());
                        run = end;
                        at = end;
                    }
                    None => at = i + 1,
                },
                0 => {
                    self.text(run, i);
                    if rcdata {
                        self.chars(REPLACEMENT);
                    } else {
                        self.emit(Token::NullCharacterToken);
                    }
                    run = i + 1;
                    at = i + 1;
                }
                _ if rcdata => {
                    if self.raw_end_tag(run, i) {
                        return;
                    }
                    at = i + 1;
                }
                _ => {
                    self.text(run, i);
                    self.pos = i;
                    if self.tag_open() {
                        // Markup read: still in the data state, scan on from here (what `run`
                        // would call next) without leaving this loop.
                        if self.mode != Mode::Data || self.stopped {
                            return;
                        }
                        run = self.pos;
                        at = self.pos;
                        continue;
                    }
                    // `<` was text: keep it in the run and go on after it.
                    run = i;
                    at = i + 1;
                }
            }
        }
        self.text(run, self.src.len());
        self.pos = self.src.len();
    }

    /// RAWTEXT (`<style>`, `<xmp>`, `<iframe>`, `<noscript>` when scripting, ...).
    fn rawtext(&mut self) {
        let mut run = self.pos;
        let mut at = self.pos;
        while let Some(i) = memchr::memchr2(b'<', 0, &self.src[at..]) {
            let i = at + i;
            if self.src[i] == 0 {
                self.text(run, i);
                self.chars(REPLACEMENT);
                run = i + 1;
            } else if self.raw_end_tag(run, i) {
                return;
            }
            at = i + 1;
        }
        self.text(run, self.src.len());
        self.pos = self.src.len();
    }

    /// PLAINTEXT: everything to the end is text.
    fn plaintext(&mut self) {
        let mut run = self.pos;
        let mut at = self.pos;
        while let Some(i) = memchr::memchr(0, &self.src[at..]) {
            let i = at + i;
            self.text(run, i);
            self.chars(REPLACEMENT);
            run = i + 1;
            at = i + 1;
        }
        self.text(run, self.src.len());
        self.pos = self.src.len();
    }

    /// At `<` (index `lt`) in a raw text mode: when an appropriate end tag starts here,
    /// emits the pending text `src[run..lt]`, reads the end tag and returns true.
    fn raw_end_tag(&mut self, run: usize, lt: usize) -> bool {
        let Some(after) = self.appropriate_end_tag(lt) else {
            return false;
        };
        self.text(run, lt);
        self.pos = after;
        let name = self.last_start_name();
        self.mode = Mode::Data;
        self.tag_attributes_kind(name, html5ever::tokenizer::EndTag);
        true
    }

    /// When `src[lt..]` is `</` + the last start tag's name (ASCII case-insensitive) + one of
    /// whitespace, `/`, `>`: the index just after the name.
    fn appropriate_end_tag(&self, lt: usize) -> Option<usize> {
        // The name as written: its folded atom matches a candidate that is all letters,
        // ignoring case, exactly when the bytes written do.
        let (from, to) = self.last_start?;
        let name = &self.src[from..to];
        let start = lt + 2;
        let end = start + name.len();
        if self.src.get(lt + 1) != Some(&b'/') || end >= self.src.len() {
            return None;
        }
        let candidate = &self.src[start..end];
        if !candidate.eq_ignore_ascii_case(name) || !candidate.iter().all(u8::is_ascii_alphabetic) {
            return None;
        }
        let next = self.src[end];
        (is_ws(next) || next == b'/' || next == b'>').then_some(end)
    }
}
