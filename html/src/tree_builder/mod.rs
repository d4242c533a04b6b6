//! Our own tree construction (the WHATWG HTML "tree construction" stage), driven by our
//! tokenizer straight into the same sink and `Document` html5ever's tree builder fills, and
//! building the same nodes in the same order. It is a fast path: it knows the insertion
//! modes and constructs real pages use (head and body, implied end tags, the list of active
//! formatting elements and the adoption agency, tables with implied bodies and rows, inline
//! SVG and MathML, templates, `<select>`, foster parenting) and gives up ([`Bail`]) on the
//! rest (framesets, `<plaintext>`): the caller then parses the page again from the
//! start with html5ever's tree builder, so the tree is always html5ever's.
//!
//! Split by job: this file holds the state, the dispatch and the parse entry points,
//! [`head`] the modes around the body, [`body`] the "in body" mode, [`formatting`] the
//! active formatting elements, [`table`] the table modes, [`template`] templates,
//! [`foreign`] SVG and MathML, [`stack`] the stack of open elements and its scopes,
//! [`open_stack`] that stack's storage, [`tag_sets`] the spec's lists of tag names,
//! [`place`] where new nodes go (foster parenting included), [`entries`] the entries of
//! that stack and of the formatting list, [`doctype`] the quirks mode a doctype sets.

mod body;
mod doctype;
mod entries;
mod foreign;
mod formatting;
mod head;
mod open_stack;
mod place;
#[cfg(test)]
mod route_tests;
mod stack;
mod table;
mod tag_sets;
mod template;

use dom_query::NodeId;
use html5ever::interface::tree_builder::create_element_with_flags;
use html5ever::interface::{QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::Tag;
use html5ever::tokenizer::states::RawKind;
use html5ever::{Attribute, LocalName, QualName};

use crate::tokenizer::{Answer, Construct, Seen, Sink, Token, finished, input, tokenize};
use dom_query::Document;
use entries::{Entry, Ns, Open};
use html5ever::ParseOpts;
use html5ever::tree_builder::TreeBuilder;
use open_stack::OpenStack;
use place::Place;

/// Why our tree builder gave up on a page (a short fixed phrase, counted by the tools).
pub(crate) type Bail = &'static str;

/// The insertion modes we build in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    AfterAfterBody,
}

/// A token as the modes see it (doctypes and parse errors are dealt with before).
enum Tok {
    Chars(StrTendril),
    Null,
    Tag(Tag),
    Comment(StrTendril),
    Eof,
}

/// What a mode did with a token.
enum Flow {
    Done,
    /// Switch to the mode and process the token again.
    Again(Mode, Tok),
    /// An element of raw text was opened: the tokenizer switches its text mode.
    Raw(RawKind),
}

type Step = Result<Flow, Bail>;

/// The tree builder's state (the spec's, less what the modes we bail on need).
pub(crate) struct Builder {
    sink: Sink,
    doc: NodeId,
    mode: Mode,
    /// The original insertion mode (text and table text modes).
    orig: Mode,
    open: OpenStack,
    active: Vec<Entry>,
    head: Option<NodeId>,
    form: Option<NodeId>,
    quirks: bool,
    /// Foster parenting is on (see [`place`]).
    foster: bool,
    /// A newline opening the next character token is dropped (`<pre>`, `<textarea>`).
    ignore_lf: bool,
    /// The stack of template insertion modes.
    templates: Vec<Mode>,
    /// Character tokens met in the table text mode.
    pending: Vec<StrTendril>,
    bail: Option<Bail>,
}

impl Builder {
    pub(crate) fn new(sink: Sink) -> Builder {
        let doc = sink.doc.get_document();
        Builder {
            sink,
            doc,
            mode: Mode::Initial,
            orig: Mode::Initial,
            open: OpenStack::with_capacity(32),
            active: Vec::new(),
            head: None,
            form: None,
            quirks: false,
            foster: false,
            ignore_lf: false,
            templates: Vec::new(),
            pending: Vec::new(),
            bail: None,
        }
    }

    /// The sink holding the built tree, or why the builder gave up.
    pub(crate) fn into_sink(self) -> Result<Sink, Bail> {
        match self.bail {
            Some(b) => Err(b),
            None => Ok(self.sink),
        }
    }

    fn run(&mut self, tok: Tok) -> Answer {
        let step = if self.is_foreign(&tok) {
            self.foreign(tok)
        } else {
            self.step(self.mode, tok)
        };
        self.answer(step)
    }

    /// What the tokenizer is told after a step (a token processed again first).
    fn answer(&mut self, step: Step) -> Answer {
        match step {
            Ok(Flow::Done) => Answer::Continue,
            Ok(Flow::Again(mode, tok)) => {
                self.mode = mode;
                self.run(tok)
            }
            Ok(Flow::Raw(kind)) => Answer::Raw(kind),
            Err(b) => {
                self.bail = Some(b);
                Answer::Stop
            }
        }
    }

    /// Whether a token goes straight to the in body rules ([`Self::in_body_direct`]): in
    /// body, an HTML current node (no foreign content rules to consult), no newline to drop.
    fn direct(&self) -> bool {
        self.mode == Mode::InBody && !self.ignore_lf && self.open.last().is_some_and(|o| o.ns == Ns::Html)
    }

    /// The common case, straight to its rules (when [`Self::direct`]): text and tags in
    /// body. Any other token takes the general path.
    fn in_body_direct(&mut self, token: Token) -> Answer {
        match token {
            Token::CharacterTokens(text) if !text.is_empty() => self.text_in_body(text),
            Token::TagToken(tag) => self.tag_in_body(tag),
            token => self.general(token, false),
        }
    }

    /// Text (not empty) by the in body rules, on the direct path.
    #[inline]
    fn text_in_body(&mut self, text: StrTendril) -> Answer {
        self.reconstruct();
        // `append_text` in line: the direct path's one text insertion.
        let place = self.place_for(self.current());
        self.put_text(place, text);
        Answer::Continue
    }

    /// A tag by the in body rules, on the direct path.
    #[inline]
    fn tag_in_body(&mut self, tag: Tag) -> Answer {
        let step = if tag.kind == html5ever::tokenizer::StartTag {
            self.start_in_body(tag)
        } else {
            self.end_in_body(tag)
        };
        self.answer(step)
    }

    /// Processes `tok` by the rules of `mode` (the current mode is not changed).
    fn step(&mut self, mode: Mode, tok: Tok) -> Step {
        match mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text_mode(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InTableText => self.in_table_text(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::InTemplate => self.in_template(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
        }
    }

    fn set_quirks(&mut self, mode: QuirksMode) {
        self.quirks = mode == QuirksMode::Quirks;
        self.sink.set_quirks_mode(mode);
    }

    /// Creates an element (not inserted).
    fn create(&self, ns: Ns, name: LocalName, attrs: Vec<Attribute>, dup: bool) -> NodeId {
        let qname = QualName::new(None, ns.namespace(), name);
        create_element_with_flags(&self.sink, qname, attrs, dup).id
    }

    /// Inserts an element for a token at the current node (pushed when `push`).
    fn insert(&mut self, ns: Ns, name: LocalName, attrs: Vec<Attribute>, dup: bool, push: bool) -> NodeId {
        let place = self.place_for(self.current());
        let id = match place {
            // Made and appended in one step: the same node, id and links as below.
            Place::Last(parent) if !needs_flags(ns, &name) => {
                let qname = QualName::new(None, ns.namespace(), name.clone());
                self.sink.append_element(parent, qname, attrs)
            }
            place => {
                let id = self.create(ns, name.clone(), attrs, dup);
                self.put_node(place, id);
                id
            }
        };
        if push {
            self.open.push(Open { id, ns, name });
        }
        id
    }

    fn insert_tag(&mut self, tag: Tag) -> NodeId {
        self.insert(Ns::Html, tag.name, tag.attrs, tag.had_duplicate_attributes, true)
    }

    /// Inserts an element for a void tag: not pushed.
    fn insert_void(&mut self, tag: Tag) -> NodeId {
        self.insert(Ns::Html, tag.name, tag.attrs, tag.had_duplicate_attributes, false)
    }

    /// Inserts an element no tag asked for.
    fn insert_phantom(&mut self, name: LocalName) -> NodeId {
        self.insert(Ns::Html, name, Vec::new(), false, true)
    }

    /// Where nodes go in `o`: `o`, or a template's contents.
    #[inline]
    fn parent_for(&self, o: &Open) -> NodeId {
        if o.is(&html5ever::local_name!("template")) {
            self.sink.doc.get_template_contents(&o.id)
        } else {
            o.id
        }
    }

    fn append_text(&mut self, text: StrTendril) {
        let place = self.place_for(self.current());
        self.put_text(place, text);
    }

    fn comment_into(&mut self, parent: NodeId, text: StrTendril) {
        let comment = self.sink.create_comment(text).id;
        self.sink.doc.tree.append_child_of(&parent, &comment);
    }

    fn append_comment(&mut self, text: StrTendril) {
        let place = self.place_for(self.current());
        let comment = self.sink.create_comment(text).id;
        self.put_node(place, comment);
    }

    /// Inserts an element whose text the tokenizer reads raw, and enters the text mode.
    fn raw(&mut self, tag: Tag, kind: RawKind) -> Step {
        self.insert_tag(tag);
        self.orig = self.mode;
        self.mode = Mode::Text;
        Ok(Flow::Raw(kind))
    }
}

/// Whether an element named so is made with a flag (`create_element_with_flags`): a
/// template (its contents fragment), MathML `annotation-xml` (an integration point).
fn needs_flags(ns: Ns, name: &LocalName) -> bool {
    match ns {
        Ns::Html => *name == html5ever::local_name!("template"),
        Ns::MathMl => *name == html5ever::local_name!("annotation-xml"),
        Ns::Svg => false,
    }
}

/// The leading ASCII whitespace of `text` and the rest, either empty as `None`.
fn split_ws(text: StrTendril) -> (Option<StrTendril>, Option<StrTendril>) {
    let n = text
        .as_bytes()
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r'))
        .count();
    let len = text.len();
    if n == 0 {
        (None, Some(text))
    } else if n == len {
        (Some(text), None)
    } else {
        let (n, len) = (n as u32, len as u32);
        (Some(text.subtendril(0, n)), Some(text.subtendril(n, len - n)))
    }
}

/// Whether `text` holds anything but ASCII whitespace.
fn any_not_ws(text: &str) -> bool {
    text.bytes()
        .any(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r'))
}

impl Builder {
    /// A token by the general path: doctypes and parse errors, then the current mode's
    /// rules (or the foreign content rules), `ignore_lf` dropping a leading newline.
    fn general(&mut self, token: Token, ignore_lf: bool) -> Answer {
        let tok = match token {
            Token::ParseError(_) => return Answer::Continue,
            Token::DoctypeToken(d) => {
                if self.mode == Mode::Initial
                    && let Err(b) = self.doctype(d)
                {
                    self.bail = Some(b);
                    return Answer::Stop;
                }
                return Answer::Continue;
            }
            Token::TagToken(t) => Tok::Tag(t),
            Token::CommentToken(t) => Tok::Comment(t),
            Token::NullCharacterToken => Tok::Null,
            Token::EOFToken => Tok::Eof,
            Token::CharacterTokens(mut x) => {
                if ignore_lf && x.starts_with('\n') {
                    x.pop_front(1);
                }
                if x.is_empty() {
                    return Answer::Continue;
                }
                Tok::Chars(x)
            }
        };
        self.run(tok)
    }
}

impl Construct for Builder {
    fn token(&mut self, token: Token) -> Answer {
        if self.direct() {
            return self.in_body_direct(token);
        }
        let ignore_lf = std::mem::take(&mut self.ignore_lf);
        self.general(token, ignore_lf)
    }

    /// Text straight to the in body rules when [`Builder::direct`] (what
    /// `in_body_direct` does with a character token), without a `Token` around it.
    fn chars(&mut self, text: StrTendril) -> Answer {
        if self.direct() && !text.is_empty() {
            return self.text_in_body(text);
        }
        self.token(Token::CharacterTokens(text))
    }

    /// A tag straight to the in body rules when [`Builder::direct`] (what
    /// `in_body_direct` does with a tag token), without a `Token` around it.
    fn tag(&mut self, tag: Tag) -> Answer {
        if self.direct() {
            return self.tag_in_body(tag);
        }
        self.token(Token::TagToken(tag))
    }

    fn in_foreign(&self) -> bool {
        self.open.last().is_some_and(|o| o.ns != Ns::Html)
    }

    fn over(&self) -> bool {
        self.sink.over()
    }

    fn end(&mut self) {
        self.open.clear();
    }
}

/// The page parsed by our tokenizer feeding our own tree builder (scripting enabled), or
/// why that builder gave up on it.
pub(crate) fn parse_own_noting(html: &str) -> Result<(Document, Seen), Bail> {
    let buf = input(html);
    let (builder, seen) = tokenize(&buf, Builder::new(Sink::for_page(buf.len())));
    let sink = builder.into_sink()?;
    Ok(finished(seen, sink))
}

/// [`parse_own_noting`], and where it gives up, the parse again with html5ever's tree
/// builder from the start (the same tree either way).
pub(crate) fn parse_fast_noting(html: &str, opts: ParseOpts) -> (Document, Seen) {
    parse_fast_noting_input(input(html), opts, usize::MAX)
}

/// [`parse_fast_noting`] of the tokenizer's input as it is (see `tokenizer::input`),
/// stopping once the tree has more than `most` elements and comments ([`Seen::over`]).
pub(crate) fn parse_fast_noting_input(buf: StrTendril, opts: ParseOpts, most: usize) -> (Document, Seen) {
    let sink = || Sink::for_page(buf.len()).at_most(most);
    let (builder, seen) = tokenize(&buf, Builder::new(sink()));
    match builder.into_sink() {
        Ok(sink) => finished(seen, sink),
        Err(_) => {
            let builder = TreeBuilder::new(sink(), opts.tree_builder);
            let (builder, seen) = tokenize(&buf, builder);
            finished(seen, builder.sink)
        }
    }
}
