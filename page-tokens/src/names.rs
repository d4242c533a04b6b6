//! The element and attribute names that travel as one-byte ids. The lists
//! are sorted and fixed for format version 1 (a later version may only
//! append); a name not listed travels as text.

/// HTML element names with an id: `TAGS[id - 1]`.
#[rustfmt::skip]
pub const TAGS: &[&str] = &[
    "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo",
    "big", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code",
    "col", "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div",
    "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font", "footer", "form",
    "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr",
    "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link",
    "listing", "main", "map", "mark", "math", "menu", "meta", "meter", "nav", "nobr", "noembed",
    "noframes", "noscript", "object", "ol", "optgroup", "option", "output", "p", "param",
    "picture", "plaintext", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script",
    "search", "section", "select", "slot", "small", "source", "span", "strike", "strong",
    "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea",
    "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video",
    "wbr", "xmp",
];

/// Attribute names with an id: `ATTRS[id - 1]`.
#[rustfmt::skip]
pub const ATTRS: &[&str] = &[
    "alt", "alttext", "aria-hidden", "aria-label", "checked", "class", "colspan", "content",
    "data-lang", "data-language", "data-src", "datetime", "dir", "height", "hidden", "href",
    "id", "lang", "name", "rel", "reversed", "role", "rowspan", "sizes", "span", "src",
    "srcset", "start", "style", "target", "title", "type", "value", "width",
];

fn id_in(list: &[&str], name: &str) -> u8 {
    list.binary_search(&name).map_or(0, |i| (i + 1) as u8)
}

/// The id of an element name as written (0: not listed, send the name).
pub fn tag_id(name: &str) -> u8 {
    id_in(TAGS, name)
}

/// The id of an attribute name as written (0: not listed, send the name).
pub fn attr_id(name: &str) -> u8 {
    id_in(ATTRS, name)
}

/// The name for a non-zero id.
pub(crate) fn name_of(list: &'static [&'static str], id: u8) -> Option<&'static str> {
    list.get((id as usize).wrapping_sub(1)).copied()
}
