//! The insertion modes around the body: initial, before html, before head, in head, after
//! head, text (raw text elements), after body and after after body.

use html5ever::interface::QuirksMode;
use html5ever::local_name;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{EndTag, StartTag, Tag};

use super::entries::{Ns, Open};
use super::tag_sets::head_names;
use super::{Builder, Flow, Mode, Step, Tok, split_ws};

/// Whether `tag` is an end tag named `</head>`, `</body>`, `</html>` or `</br>` (the end
/// tags the modes before the body treat as anything else).
fn end_passing(tag: &Tag) -> bool {
    matches!(
        tag.name,
        local_name!("head") | local_name!("body") | local_name!("html") | local_name!("br")
    )
}

impl Builder {
    pub(super) fn initial(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(t) => match split_ws(t).1 {
                None => Ok(Flow::Done),
                Some(rest) => {
                    self.set_quirks(QuirksMode::Quirks);
                    Ok(Flow::Again(Mode::BeforeHtml, Tok::Chars(rest)))
                }
            },
            Tok::Comment(t) => {
                self.comment_into(self.doc, t);
                Ok(Flow::Done)
            }
            tok => {
                self.set_quirks(QuirksMode::Quirks);
                Ok(Flow::Again(Mode::BeforeHtml, tok))
            }
        }
    }

    fn create_root(&mut self, tag: Option<Tag>) {
        let (attrs, dup) = tag.map_or((Vec::new(), false), |t| (t.attrs, t.had_duplicate_attributes));
        let id = self.create(Ns::Html, local_name!("html"), attrs, dup);
        self.open.push(Open {
            id,
            ns: Ns::Html,
            name: local_name!("html"),
        });
        self.sink.doc.tree.append_child_of(&self.doc, &id);
    }

    pub(super) fn before_html(&mut self, tok: Tok) -> Step {
        let tok = match tok {
            Tok::Comment(t) => {
                self.comment_into(self.doc, t);
                return Ok(Flow::Done);
            }
            Tok::Chars(t) => match split_ws(t).1 {
                None => return Ok(Flow::Done),
                Some(rest) => Tok::Chars(rest),
            },
            Tok::Tag(tag) if tag.kind == StartTag && tag.name == local_name!("html") => {
                self.create_root(Some(tag));
                self.mode = Mode::BeforeHead;
                return Ok(Flow::Done);
            }
            Tok::Tag(tag) if tag.kind == EndTag && !end_passing(&tag) => return Ok(Flow::Done),
            tok => tok,
        };
        self.create_root(None);
        Ok(Flow::Again(Mode::BeforeHead, tok))
    }

    pub(super) fn before_head(&mut self, tok: Tok) -> Step {
        let tok = match tok {
            Tok::Chars(t) => match split_ws(t).1 {
                None => return Ok(Flow::Done),
                Some(rest) => Tok::Chars(rest),
            },
            Tok::Comment(t) => {
                self.append_comment(t);
                return Ok(Flow::Done);
            }
            Tok::Tag(tag) if tag.kind == StartTag && tag.name == local_name!("html") => {
                return self.in_body(Tok::Tag(tag));
            }
            Tok::Tag(tag) if tag.kind == StartTag && tag.name == local_name!("head") => {
                self.head = Some(self.insert_tag(tag));
                self.mode = Mode::InHead;
                return Ok(Flow::Done);
            }
            Tok::Tag(tag) if tag.kind == EndTag && !end_passing(&tag) => return Ok(Flow::Done),
            tok => tok,
        };
        self.head = Some(self.insert_phantom(local_name!("head")));
        Ok(Flow::Again(Mode::InHead, tok))
    }

    pub(super) fn in_head(&mut self, tok: Tok) -> Step {
        let tok = match tok {
            Tok::Chars(t) => {
                let (ws, rest) = split_ws(t);
                if let Some(ws) = ws {
                    self.append_text(ws);
                }
                match rest {
                    None => return Ok(Flow::Done),
                    Some(rest) => Tok::Chars(rest),
                }
            }
            Tok::Comment(t) => {
                self.append_comment(t);
                return Ok(Flow::Done);
            }
            Tok::Tag(tag) if tag.kind == StartTag => match tag.name {
                local_name!("html") => return self.in_body(Tok::Tag(tag)),
                local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("link")
                | local_name!("meta") => {
                    self.insert_void(tag);
                    return Ok(Flow::Done);
                }
                local_name!("title") => return self.raw(tag, RawKind::Rcdata),
                local_name!("noframes") | local_name!("style") | local_name!("noscript") => {
                    return self.raw(tag, RawKind::Rawtext);
                }
                local_name!("script") => return self.raw(tag, RawKind::ScriptData),
                local_name!("template") => return self.start_template(tag),
                local_name!("head") => return Ok(Flow::Done),
                _ => Tok::Tag(tag),
            },
            Tok::Tag(tag) if tag.kind == EndTag => match tag.name {
                local_name!("head") => {
                    self.open.pop();
                    self.mode = Mode::AfterHead;
                    return Ok(Flow::Done);
                }
                local_name!("body") | local_name!("html") | local_name!("br") => Tok::Tag(tag),
                local_name!("template") => return self.end_template(),
                _ => return Ok(Flow::Done),
            },
            tok => tok,
        };
        self.open.pop();
        Ok(Flow::Again(Mode::AfterHead, tok))
    }

    pub(super) fn after_head(&mut self, tok: Tok) -> Step {
        let tok = match tok {
            Tok::Chars(t) => {
                let (ws, rest) = split_ws(t);
                if let Some(ws) = ws {
                    self.append_text(ws);
                }
                match rest {
                    None => return Ok(Flow::Done),
                    Some(rest) => Tok::Chars(rest),
                }
            }
            Tok::Comment(t) => {
                self.append_comment(t);
                return Ok(Flow::Done);
            }
            Tok::Tag(tag) if tag.kind == StartTag => match tag.name {
                local_name!("html") => return self.in_body(Tok::Tag(tag)),
                local_name!("body") => {
                    self.insert_tag(tag);
                    self.mode = Mode::InBody;
                    return Ok(Flow::Done);
                }
                local_name!("frameset") => return Err("frameset"),
                head_names!() => {
                    let Some(head) = self.head else {
                        return Err("no head");
                    };
                    self.open.push(Open {
                        id: head,
                        ns: Ns::Html,
                        name: local_name!("head"),
                    });
                    let step = self.in_head(Tok::Tag(tag));
                    self.remove_from_stack(head);
                    return step;
                }
                local_name!("head") => return Ok(Flow::Done),
                _ => Tok::Tag(tag),
            },
            Tok::Tag(tag) if tag.kind == EndTag => match tag.name {
                local_name!("body") | local_name!("html") | local_name!("br") => Tok::Tag(tag),
                local_name!("template") => return self.end_template(),
                _ => return Ok(Flow::Done),
            },
            tok => tok,
        };
        self.insert_phantom(local_name!("body"));
        Ok(Flow::Again(Mode::InBody, tok))
    }

    pub(super) fn text_mode(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(t) => {
                self.append_text(t);
                Ok(Flow::Done)
            }
            Tok::Eof => {
                self.open.pop();
                Ok(Flow::Again(self.orig, Tok::Eof))
            }
            Tok::Tag(tag) if tag.kind == EndTag => {
                self.open.pop();
                self.mode = self.orig;
                Ok(Flow::Done)
            }
            _ => Err("token in text mode"),
        }
    }

    pub(super) fn after_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(t) => {
                let (ws, rest) = split_ws(t);
                if let Some(ws) = ws {
                    self.in_body(Tok::Chars(ws))?;
                }
                match rest {
                    None => Ok(Flow::Done),
                    Some(rest) => Ok(Flow::Again(Mode::InBody, Tok::Chars(rest))),
                }
            }
            Tok::Comment(t) => {
                let html = self.open[0].id;
                self.comment_into(html, t);
                Ok(Flow::Done)
            }
            Tok::Tag(tag) if tag.name == local_name!("html") => {
                if tag.kind == StartTag {
                    self.in_body(Tok::Tag(tag))
                } else {
                    self.mode = Mode::AfterAfterBody;
                    Ok(Flow::Done)
                }
            }
            Tok::Eof => Ok(Flow::Done),
            tok => Ok(Flow::Again(Mode::InBody, tok)),
        }
    }

    pub(super) fn after_after_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(t) => {
                let (ws, rest) = split_ws(t);
                if let Some(ws) = ws {
                    self.in_body(Tok::Chars(ws))?;
                }
                match rest {
                    None => Ok(Flow::Done),
                    Some(rest) => Ok(Flow::Again(Mode::InBody, Tok::Chars(rest))),
                }
            }
            Tok::Comment(t) => {
                self.comment_into(self.doc, t);
                Ok(Flow::Done)
            }
            Tok::Tag(tag) if tag.kind == StartTag && tag.name == local_name!("html") => {
                self.in_body(Tok::Tag(tag))
            }
            Tok::Eof => Ok(Flow::Done),
            tok => Ok(Flow::Again(Mode::InBody, tok)),
        }
    }
}
