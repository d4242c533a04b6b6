//! The doctype in the initial mode: appended to the document, and the quirks mode it sets:
//! worked out here for the doctypes pages use (`<!DOCTYPE html>`, HTML 4.01 and XHTML 1.x
//! ones); any other public identifier is handed to html5ever's own tree builder on its own
//! (its list of quirky identifiers), so the mode is always the one it would set.

use dom_query::Document;
use html5ever::interface::{QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{Doctype, Token, TokenSink};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};

use super::{Bail, Builder, Mode};

/// The quirks mode of a doctype, or `None` when its public identifier is not one we know.
fn quirks_of(d: &Doctype) -> Option<QuirksMode> {
    if d.force_quirks || d.name.as_deref() != Some("html") {
        return Some(QuirksMode::Quirks);
    }
    let system = d.system_id.as_deref().map(str::to_ascii_lowercase);
    if system.as_deref() == Some("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") {
        return Some(QuirksMode::Quirks);
    }
    let Some(public) = d.public_id.as_deref().map(str::to_ascii_lowercase) else {
        return Some(QuirksMode::NoQuirks);
    };
    let starts = |p: &str| public.starts_with(p);
    if starts("-//w3c//dtd xhtml 1.0 frameset//") || starts("-//w3c//dtd xhtml 1.0 transitional//") {
        return Some(QuirksMode::LimitedQuirks);
    }
    if starts("-//w3c//dtd html 4.01 frameset//") || starts("-//w3c//dtd html 4.01 transitional//") {
        return Some(if system.is_none() {
            QuirksMode::Quirks
        } else {
            QuirksMode::LimitedQuirks
        });
    }
    match public.as_str() {
        "-//w3c//dtd xhtml 1.0 strict//en" | "-//w3c//dtd xhtml 1.1//en" | "-//w3c//dtd html 4.01//en" => {
            Some(QuirksMode::NoQuirks)
        }
        _ => None,
    }
}

/// The quirks mode html5ever's tree builder sets for the doctype `d`.
fn html5ever_quirks(d: Doctype) -> QuirksMode {
    let builder = TreeBuilder::new(Document::default(), TreeBuilderOpts::default());
    let _ = builder.process_token(Token::DoctypeToken(d), 1);
    builder.sink.quirks_mode.get()
}

impl Builder {
    pub(super) fn doctype(&mut self, d: Doctype) -> Result<(), Bail> {
        let quirks = match quirks_of(&d) {
            Some(q) => q,
            None => html5ever_quirks(d.clone()),
        };
        let Doctype {
            name,
            public_id,
            system_id,
            ..
        } = d;
        self.sink.doc.append_doctype_to_document(
            name.unwrap_or_else(StrTendril::new),
            public_id.unwrap_or_else(StrTendril::new),
            system_id.unwrap_or_else(StrTendril::new),
        );
        self.set_quirks(quirks);
        self.mode = Mode::BeforeHtml;
        Ok(())
    }
}
