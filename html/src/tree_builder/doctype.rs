//! The doctype in the initial mode: appended to the document, and the quirks mode it sets
//! for the doctypes pages use (`<!DOCTYPE html>`, HTML 4.01 and XHTML 1.x ones); any other
//! public identifier gives up rather than carry the spec's long list of quirky ones.

use html5ever::interface::{QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::Doctype;

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

impl Builder {
    pub(super) fn doctype(&mut self, d: Doctype) -> Result<(), Bail> {
        let quirks = quirks_of(&d).ok_or("doctype")?;
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
