//! The tree from a host's token stream (ABI 0.4 `page.cleaned-tokens`,
//! read with `distill_sdk::tokens`) instead of from HTML: the tree builder
//! is fed the stream's tokens, with what the tokenizer itself does to them
//! redone here so the document is the one the serialised HTML gives — the
//! content of `script`, `style`, `title`, ... dropped with the element, the
//! newline right after `<pre>` dropped, only the attributes the renderer
//! reads kept. Names come as ids, each mapped to a [`Tag`] once per page.

use super::Document;
use super::tags::{AttrName, RawText, Tag};
use super::tokenizer::{Attr, tag_of};
use super::tree::Builder;
use distill_sdk::tokens::{Token, Tokens};
use std::borrow::Cow;

/// Parses a token stream; `None` if it is not a complete stream (the
/// caller then parses the HTML instead).
pub fn parse_stream<'a>(ops: &'a [u8], text: &'a str) -> Option<Document<'a>> {
    // Ids mapped to the parser's enums on first sight (a page uses a few
    // dozen of the lists' names).
    let mut tags: [Option<Tag>; 256] = [None; 256];
    let mut attr_names: [Option<Option<AttrName>>; 256] = [None; 256];
    let mut tag_for = |id: u8, name: &str| match id {
        0 => tag_of(name),
        id => *tags[id as usize].get_or_insert_with(|| Tag::from_lowercase(name.as_bytes())),
    };
    let mut b = Builder::new(text.len() + ops.len() * 2);
    let mut tokens = Tokens::new(ops, text);
    // Inside an element whose content the tokenizer skips: its name.
    let mut skip_until: Option<&str> = None;
    // Just after `<pre>` / `<listing>`: a leading newline of the next text is dropped.
    let mut after_pre = false;
    loop {
        // A start tag's attributes, as the decoder reads them: the known
        // ones (the first of each name) go on the document's list, and are
        // taken off again when the tag is dropped.
        let first_attr = b.doc.attrs.len();
        let attrs = &mut b.doc.attrs;
        let Some(token) = tokens.next_with_attrs(|a| {
            let known = match a.id {
                0 => AttrName::parse(a.name.as_bytes()),
                id => *attr_names[id as usize].get_or_insert_with(|| AttrName::parse(a.name.as_bytes())),
            };
            if let Some(known) = known
                && !attrs[first_attr..].iter().any(|x| x.name == known)
            {
                attrs.push(Attr {
                    name: known,
                    value: Cow::Borrowed(a.value),
                });
            }
        }) else {
            break;
        };
        match token {
            Token::Text(mut t) => {
                if skip_until.is_some() {
                    continue;
                }
                if std::mem::take(&mut after_pre) {
                    t = t.strip_prefix('\n').unwrap_or(t);
                }
                if !t.is_empty() {
                    b.on_text(Cow::Borrowed(t));
                }
            }
            Token::Start { tag, name, .. } => {
                after_pre = false;
                if skip_until.is_some() {
                    b.doc.attrs.truncate(first_attr);
                    continue;
                }
                let tag = tag_for(tag, name);
                match tag.raw_text() {
                    RawText::Skip => {
                        b.doc.attrs.truncate(first_attr);
                        skip_until = Some(name);
                        continue;
                    }
                    RawText::No => after_pre = matches!(tag, Tag::Pre | Tag::Listing),
                    RawText::Keep | RawText::Rest => {}
                }
                b.on_start(tag, name, first_attr, false);
            }
            Token::End { tag, name } => {
                after_pre = false;
                if let Some(open) = skip_until {
                    // As the tokenizer: the first end tag of that name ends it.
                    if open.eq_ignore_ascii_case(name) {
                        skip_until = None;
                    }
                    continue;
                }
                b.on_end(tag_for(tag, name), name);
            }
        }
    }
    tokens.is_complete().then_some(b.doc)
}
