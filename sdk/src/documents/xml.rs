//! A small XML tree with limits (depth, node count), built on quick-xml.
//! Element names are local names (prefixes dropped): `w:p` → `p`. Attributes keep
//! their qualified name; [`Element::attr`] matches `r:id` exactly, or a local name
//! (`id`) when only one attribute has it.

use crate::PluginError;
use quick_xml::events::Event;

/// Deepest element nesting accepted.
pub const MAX_DEPTH: usize = 256;
/// Most nodes (elements + text runs) in one part.
pub const MAX_NODES: usize = 4_000_000;

#[derive(Debug, Default)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
}

#[derive(Debug)]
pub enum Node {
    Elem(Element),
    Text(String),
}

fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// Entities beyond XML's five that XHTML content commonly uses.
fn named_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "mdash" => "\u{2014}",
        "ndash" => "\u{2013}",
        "hellip" => "\u{2026}",
        "lsquo" => "\u{2018}",
        "rsquo" => "\u{2019}",
        "ldquo" => "\u{201c}",
        "rdquo" => "\u{201d}",
        "copy" => "\u{a9}",
        "reg" => "\u{ae}",
        "trade" => "\u{2122}",
        "shy" => "\u{ad}",
        "laquo" => "\u{ab}",
        "raquo" => "\u{bb}",
        "middot" => "\u{b7}",
        "bull" => "\u{2022}",
        "eacute" => "\u{e9}",
        "egrave" => "\u{e8}",
        "agrave" => "\u{e0}",
        "uuml" => "\u{fc}",
        "ouml" => "\u{f6}",
        "auml" => "\u{e4}",
        "szlig" => "\u{df}",
        "deg" => "\u{b0}",
        "times" => "\u{d7}",
        "euro" => "\u{20ac}",
        "pound" => "\u{a3}",
        _ => return None,
    })
}

fn bad(what: &str, e: impl std::fmt::Display) -> PluginError {
    PluginError::UnsupportedInput(format!("{what} is not well-formed XML: {e}"))
}

/// Parses `text` (named `what` in errors) into a tree whose root is a synthetic
/// element named "#document".
pub fn parse(text: &str, what: &str) -> Result<Element, PluginError> {
    parse_skipping(text, what, &[])
}

/// Like [`parse`], but elements named in `skip` (local names) are left out with
/// everything inside them (still checked for depth and well-formedness).
pub fn parse_skipping(text: &str, what: &str, skip: &[&str]) -> Result<Element, PluginError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    let mut stack: Vec<Element> = vec![Element {
        name: "#document".into(),
        ..Default::default()
    }];
    let mut nodes = 0usize;
    // Depth inside a skipped element (0: not skipping).
    let mut skipping = 0usize;
    loop {
        let event = reader.read_event().map_err(|e| bad(what, e))?;
        nodes += 1;
        if nodes > MAX_NODES {
            return Err(PluginError::UnsupportedInput(format!(
                "{what} has more than {MAX_NODES} XML nodes"
            )));
        }
        if skipping > 0 {
            match event {
                Event::Start(_) => {
                    skipping += 1;
                    if stack.len() + skipping > MAX_DEPTH + 1 {
                        return Err(PluginError::UnsupportedInput(format!(
                            "{what} nests XML elements deeper than {MAX_DEPTH} levels"
                        )));
                    }
                }
                Event::End(_) => skipping -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(e) if !skip.is_empty() && skip.contains(&local(e.name().as_ref())) => skipping = 1,
            Event::Empty(e) if !skip.is_empty() && skip.contains(&local(e.name().as_ref())) => {}
            Event::Start(e) => {
                if stack.len() > MAX_DEPTH {
                    return Err(PluginError::UnsupportedInput(format!(
                        "{what} nests XML elements deeper than {MAX_DEPTH} levels"
                    )));
                }
                stack.push(start(&e, what)?);
            }
            Event::Empty(e) => {
                let el = start(&e, what)?;
                stack.last_mut().unwrap().children.push(Node::Elem(el));
            }
            // An end tag with nothing open (stray `</x>` at the top) is ignored.
            Event::End(_) if stack.len() > 1 => {
                let el = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(Node::Elem(el));
            }
            Event::Text(t) => push_text(stack.last_mut().unwrap(), &t.xml10_content()),
            Event::CData(t) => {
                let s = t.into_inner().into_owned();
                push_text(stack.last_mut().unwrap(), &s)
            }
            Event::GeneralRef(r) => {
                let s = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => named_entity(&r).unwrap_or("").to_string(),
                };
                push_text(stack.last_mut().unwrap(), &s)
            }
            Event::Eof => break,
            _ => {}
        }
    }
    // Unclosed elements (truncated part): fold them up.
    while stack.len() > 1 {
        let el = stack.pop().unwrap();
        stack.last_mut().unwrap().children.push(Node::Elem(el));
    }
    Ok(stack.pop().unwrap())
}

fn start(e: &quick_xml::events::BytesStart, what: &str) -> Result<Element, PluginError> {
    let qname = e.name();
    let name = local(qname.as_ref()).to_string();
    let mut attrs = Vec::new();
    for a in e.attributes().with_checks(false) {
        let a = a.map_err(|err| bad(what, err))?;
        let key = a.key;
        let raw: &str = &a.value;
        let value = if raw.bytes().any(|b| matches!(b, b'&' | b'\t' | b'\n' | b'\r')) {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| raw.to_string())
        } else {
            raw.to_string()
        };
        attrs.push((key.as_ref().to_string(), value));
    }
    Ok(Element {
        name,
        attrs,
        children: Vec::new(),
    })
}

fn push_text(parent: &mut Element, s: &str) {
    if s.is_empty() {
        return;
    }
    if let Some(Node::Text(last)) = parent.children.last_mut() {
        last.push_str(s);
    } else {
        parent.children.push(Node::Text(s.to_string()));
    }
}

impl Element {
    /// The value of attribute `name` (local name).
    pub fn attr(&self, name: &str) -> Option<&str> {
        if let Some((_, v)) = self.attrs.iter().find(|(k, _)| k == name) {
            return Some(v);
        }
        let want = local(name);
        let mut found = self.attrs.iter().filter(|(k, _)| local(k) == want);
        let first = found.next()?;
        if found.next().is_some() {
            return None;
        }
        Some(&first.1)
    }

    /// Child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Elem(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// First child element named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.name == name)
    }

    /// Child elements named `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.elements().filter(move |e| e.name == name)
    }

    /// Follows a path of child names.
    pub fn path(&self, names: &[&str]) -> Option<&Element> {
        let mut cur = self;
        for n in names {
            cur = cur.child(n)?;
        }
        Some(cur)
    }

    /// First descendant (depth-first, self excluded) named `name`.
    pub fn find(&self, name: &str) -> Option<&Element> {
        for e in self.elements() {
            if e.name == name {
                return Some(e);
            }
            if let Some(found) = e.find(name) {
                return Some(found);
            }
        }
        None
    }

    /// All descendants named `name`, in document order (not descending into matches).
    pub fn find_all<'a>(&'a self, name: &str, out: &mut Vec<&'a Element>) {
        for e in self.elements() {
            if e.name == name {
                out.push(e);
            } else {
                e.find_all(name, out);
            }
        }
    }

    /// All text below this element, concatenated.
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.collect_text(&mut s);
        s
    }

    fn collect_text(&self, out: &mut String) {
        for n in &self.children {
            match n {
                Node::Text(t) => out.push_str(t),
                Node::Elem(e) => e.collect_text(out),
            }
        }
    }
}
