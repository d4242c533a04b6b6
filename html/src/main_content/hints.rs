//! What an element's markup says about its role, before looking at its text: the tag, ARIA
//! role, `itemprop`, `hidden`/`aria-hidden`/inline `display:none`, and words in `class`/`id`
//! (split on punctuation and camelCase: `site-header__navWrap` → site, header, nav, wrap;
//! the word analysis is in [`words`]).
//!
//! Word lists are generic web vocabulary (WAI-ARIA landmarks, CMS and framework naming
//! habits), never site-specific names.

use dom_query::Element;
use html5ever::ns;

use crate::dom::local_name;

mod words;
#[cfg(test)]
pub(super) use words::words;
pub(super) use words::{ElementWords, WordCache, Words, words_and_listed_classes};
#[cfg(test)]
use words::{HidingClasses, class_hides, post_term};

/// What a tag is for the extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Removed with its subtree: form controls, embedded objects, graphics.
    Drop,
    /// A block that owns the text of its inline descendants.
    Block,
    /// Paragraph-like block: text here is prose when it is long enough.
    Para,
    /// `h1`–`h6`.
    Heading,
    /// `li`, `dt`, `dd`.
    Item,
    /// `ul`, `ol`, `dl`, `menu`.
    List,
    /// Table cells.
    Cell,
    /// `table` and its row groups.
    Table,
    /// `a` (with `href`).
    Link,
    /// `img`, `picture`.
    Image,
    /// `iframe`, `video` and other embedded media: kept where they stand, text not scored.
    Media,
    /// `br`, `hr` and other empty separators.
    Break,
    /// Text-level element: its text belongs to the nearest block ancestor.
    Inline,
    /// `pre` (code and preformatted text: content when inside the main area).
    Pre,
    /// `button`.
    Button,
}

/// Role of an element from tag, ARIA role and attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Landmark {
    #[default]
    None,
    /// `main`, `role=main`.
    Main,
    /// `article`, `role=article`, `itemprop=articleBody` and the like.
    Article,
    /// `nav`, `role=navigation|menu|menubar|toolbar|tablist`.
    Nav,
    /// Page `header`, `role=banner`.
    Banner,
    /// Page `footer`, `role=contentinfo`.
    Footer,
    /// `aside`, `role=complementary`.
    Aside,
    /// `form`, `role=search|form`.
    Form,
    /// `role=dialog|alertdialog` (the `dialog` element is dropped outright).
    Dialog,
}

pub(super) fn kind(el: &Element) -> Kind {
    let n = &el.name.local;
    if el.name.ns != ns!(html) {
        // SVG and MathML: icons, charts and formulas. Their text is scored like any other
        // (a broken page can end up with its content inside an unclosed `<svg>`).
        return if el.name.ns == ns!(svg) {
            Kind::Block
        } else {
            Kind::Inline
        };
    }
    match *n {
        local_name!("p")
        | local_name!("blockquote")
        | local_name!("figcaption")
        | local_name!("address")
        | local_name!("summary")
        | local_name!("caption") => Kind::Para,
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6") => Kind::Heading,
        local_name!("li") | local_name!("dt") | local_name!("dd") => Kind::Item,
        local_name!("ul") | local_name!("ol") | local_name!("dl") | local_name!("menu") => Kind::List,
        local_name!("td") | local_name!("th") => Kind::Cell,
        local_name!("table")
        | local_name!("tbody")
        | local_name!("thead")
        | local_name!("tfoot")
        | local_name!("tr") => Kind::Table,
        local_name!("a") => Kind::Link,
        local_name!("img") | local_name!("picture") => Kind::Image,
        local_name!("br") | local_name!("hr") | local_name!("wbr") => Kind::Break,
        local_name!("pre") => Kind::Pre,
        local_name!("button") => Kind::Button,
        local_name!("input")
        | local_name!("select")
        | local_name!("option")
        | local_name!("optgroup")
        | local_name!("textarea")
        | local_name!("datalist")
        | local_name!("progress")
        | local_name!("meter")
        | local_name!("dialog")
        | local_name!("link")
        | local_name!("title") => Kind::Drop,
        // Embedded media: no text of their own (fallback text inside is not shown).
        local_name!("iframe")
        | local_name!("object")
        | local_name!("embed")
        | local_name!("canvas")
        | local_name!("audio")
        | local_name!("video") => Kind::Media,
        local_name!("span")
        | local_name!("b")
        | local_name!("strong")
        | local_name!("em")
        | local_name!("i")
        | local_name!("u")
        | local_name!("s")
        | local_name!("small")
        | local_name!("code")
        | local_name!("kbd")
        | local_name!("samp")
        | local_name!("var")
        | local_name!("abbr")
        | local_name!("cite")
        | local_name!("q")
        | local_name!("sub")
        | local_name!("sup")
        | local_name!("mark")
        | local_name!("time")
        | local_name!("font")
        | local_name!("label")
        | local_name!("del")
        | local_name!("ins")
        | local_name!("dfn")
        | local_name!("bdi")
        | local_name!("bdo")
        | local_name!("data")
        | local_name!("nobr")
        | local_name!("tt")
        | local_name!("big")
        | local_name!("strike")
        | local_name!("output") => Kind::Inline,
        _ => Kind::Block,
    }
}

/// The landmark of an element's tag alone.
pub(super) fn tag_landmark(el: &Element) -> Landmark {
    match el.name.local {
        local_name!("main") => Landmark::Main,
        local_name!("article") => Landmark::Article,
        local_name!("nav") => Landmark::Nav,
        local_name!("header") => Landmark::Banner,
        local_name!("footer") => Landmark::Footer,
        local_name!("aside") => Landmark::Aside,
        local_name!("form") => Landmark::Form,
        _ => Landmark::None,
    }
}

/// The landmark of an element (tag first, then `role`, then `itemprop`).
pub(super) fn landmark(el: &Element) -> Landmark {
    let tag = tag_landmark(el);
    if tag != Landmark::None {
        return tag;
    }
    for a in el.attrs.iter().filter(|a| a.name.ns == ns!()) {
        if a.name.local == local_name!("role") {
            let lm = match_ignore_case(
                a.value.trim(),
                &[
                    ("main", Landmark::Main),
                    ("article", Landmark::Article),
                    ("navigation", Landmark::Nav),
                    ("menu", Landmark::Nav),
                    ("menubar", Landmark::Nav),
                    ("toolbar", Landmark::Nav),
                    ("tablist", Landmark::Nav),
                    ("banner", Landmark::Banner),
                    ("contentinfo", Landmark::Footer),
                    ("complementary", Landmark::Aside),
                    ("search", Landmark::Form),
                    ("dialog", Landmark::Dialog),
                    ("alertdialog", Landmark::Dialog),
                ],
            );
            if lm != Landmark::None {
                return lm;
            }
        } else if a.name.local == local_name!("itemprop") {
            let lm = match_ignore_case(
                a.value.trim(),
                &[
                    ("articleBody", Landmark::Article),
                    ("text", Landmark::Article),
                    ("reviewBody", Landmark::Article),
                    ("description", Landmark::Article),
                ],
            );
            if lm != Landmark::None {
                return lm;
            }
        }
    }
    Landmark::None
}

fn match_ignore_case(v: &str, table: &[(&str, Landmark)]) -> Landmark {
    table
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(v))
        .map(|(_, l)| *l)
        .unwrap_or_default()
}

/// How an element is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hidden {
    No,
    /// `hidden` or an inline `display:none` / `visibility:hidden`: often shown later by a
    /// script (tabs, accordions, deferred blocks), so only a weak signal.
    Styled,
    /// `aria-hidden=true`: hidden from assistive technology too (decorative duplicates such
    /// as carousel clones, icons).
    Aria,
}

/// (Hiding classes are read with the other class words: [`Words::class_hidden`].)
pub(super) fn hidden(el: &Element) -> Hidden {
    let mut out = Hidden::No;
    for a in el.attrs.iter().filter(|a| a.name.ns == ns!()) {
        match a.name.local {
            local_name!("aria-hidden") if a.value.trim().eq_ignore_ascii_case("true") => {
                return Hidden::Aria;
            }
            local_name!("hidden") => out = Hidden::Styled,
            local_name!("style") if style_hides(&a.value) => out = Hidden::Styled,
            _ => {}
        }
    }
    out
}

fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let Some((prop, value)) = decl.split_once(':') else {
            return false;
        };
        let (prop, value) = (prop.trim(), value.trim());
        (prop.eq_ignore_ascii_case("display") && value.to_ascii_lowercase().starts_with("none"))
            || (prop.eq_ignore_ascii_case("visibility") && value.to_ascii_lowercase().starts_with("hidden"))
    })
}

#[cfg(test)]
mod tests;
