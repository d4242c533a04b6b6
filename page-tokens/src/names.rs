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

/// For each first byte, the range of a sorted list's entries that start
/// with it (the encoder looks names up once per tag and attribute).
const fn first_byte_ranges(list: &[&str]) -> [(u8, u8); 256] {
    let mut ranges = [(0u8, 0u8); 256];
    let mut i = 0;
    while i < list.len() {
        let b = list[i].as_bytes()[0] as usize;
        if ranges[b].1 == 0 {
            ranges[b].0 = i as u8;
        }
        ranges[b].1 = i as u8 + 1;
        i += 1;
    }
    ranges
}

static TAG_RANGES: [(u8, u8); 256] = first_byte_ranges(TAGS);
static ATTR_RANGES: [(u8, u8); 256] = first_byte_ranges(ATTRS);

#[inline]
fn id_in(list: &[&str], ranges: &[(u8, u8); 256], name: &str) -> u8 {
    let Some(&first) = name.as_bytes().first() else {
        return 0;
    };
    let (lo, hi) = ranges[first as usize];
    // Compared in line: names are a few bytes, a `memcmp` call each cost more.
    let name = name.as_bytes();
    for i in lo..hi {
        let entry = list[i as usize].as_bytes();
        if entry.len() == name.len() && entry.iter().zip(name).all(|(a, b)| a == b) {
            return i + 1;
        }
    }
    0
}

/// The id of an element name as written (0: not listed, send the name).
pub fn tag_id(name: &str) -> u8 {
    id_in(TAGS, &TAG_RANGES, name)
}

/// The id of an attribute name as written (0: not listed, send the name).
pub fn attr_id(name: &str) -> u8 {
    id_in(ATTRS, &ATTR_RANGES, name)
}

/// The name for a non-zero id.
pub(crate) fn name_of(list: &'static [&'static str], id: u8) -> Option<&'static str> {
    list.get((id as usize).wrapping_sub(1)).copied()
}
