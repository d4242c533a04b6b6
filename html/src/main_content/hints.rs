//! What an element's markup says about its role, before looking at its text: the tag, ARIA
//! role, `itemprop`, `hidden`/`aria-hidden`/inline `display:none`, and words in `class`/`id`
//! (split on punctuation and camelCase: `site-header__navWrap` → site, header, nav, wrap).
//!
//! Word lists are generic web vocabulary (WAI-ARIA landmarks, CMS and framework naming
//! habits), never site-specific names.

use dom_query::Element;
use html5ever::ns;

use crate::dom::{LocalName, local_name};

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
    /// `form`, `role=search|form`, `dialog`, `role=dialog|alertdialog`.
    Form,
}

pub(super) fn kind(el: &Element) -> Kind {
    let n = &el.name.local;
    if el.name.ns != ns!(html) {
        // SVG and MathML: icons and formulas; formulas keep their text.
        return if el.name.ns == ns!(svg) { Kind::Drop } else { Kind::Inline };
    }
    match *n {
        local_name!("p") | local_name!("blockquote") | local_name!("figcaption")
        | local_name!("address") | local_name!("summary") | local_name!("caption") => Kind::Para,
        local_name!("h1") | local_name!("h2") | local_name!("h3") | local_name!("h4")
        | local_name!("h5") | local_name!("h6") => Kind::Heading,
        local_name!("li") | local_name!("dt") | local_name!("dd") => Kind::Item,
        local_name!("ul") | local_name!("ol") | local_name!("dl") | local_name!("menu") => Kind::List,
        local_name!("td") | local_name!("th") => Kind::Cell,
        local_name!("table") | local_name!("tbody") | local_name!("thead") | local_name!("tfoot")
        | local_name!("tr") => Kind::Table,
        local_name!("a") => Kind::Link,
        local_name!("img") | local_name!("picture") => Kind::Image,
        local_name!("br") | local_name!("hr") | local_name!("wbr") => Kind::Break,
        local_name!("pre") => Kind::Pre,
        local_name!("button") => Kind::Button,
        local_name!("input") | local_name!("select") | local_name!("option")
        | local_name!("optgroup") | local_name!("textarea") | local_name!("datalist")
        | local_name!("iframe") | local_name!("frame") | local_name!("frameset")
        | local_name!("object") | local_name!("embed") | local_name!("canvas")
        | local_name!("audio") | local_name!("video") | local_name!("map") | local_name!("area")
        | local_name!("progress") | local_name!("meter") | local_name!("dialog")
        | local_name!("source") | local_name!("track") | local_name!("param")
        | local_name!("link") | local_name!("title") => Kind::Drop,
        local_name!("span") | local_name!("b") | local_name!("strong") | local_name!("em")
        | local_name!("i") | local_name!("u") | local_name!("s") | local_name!("small")
        | local_name!("code") | local_name!("kbd") | local_name!("samp") | local_name!("var")
        | local_name!("abbr") | local_name!("cite") | local_name!("q") | local_name!("sub")
        | local_name!("sup") | local_name!("mark") | local_name!("time") | local_name!("font")
        | local_name!("label") | local_name!("del") | local_name!("ins") | local_name!("dfn")
        | local_name!("bdi") | local_name!("bdo") | local_name!("data") | local_name!("nobr")
        | local_name!("tt") | local_name!("big") | local_name!("strike") | local_name!("output") => {
            Kind::Inline
        }
        _ => Kind::Block,
    }
}

/// The landmark of an element (tag first, then `role`, then `itemprop`).
pub(super) fn landmark(el: &Element) -> Landmark {
    let tag = match el.name.local {
        local_name!("main") => Landmark::Main,
        local_name!("article") => Landmark::Article,
        local_name!("nav") => Landmark::Nav,
        local_name!("header") => Landmark::Banner,
        local_name!("footer") => Landmark::Footer,
        local_name!("aside") => Landmark::Aside,
        local_name!("form") => Landmark::Form,
        _ => Landmark::None,
    };
    if tag != Landmark::None {
        return tag;
    }
    for a in el.attrs.iter().filter(|a| a.name.ns == ns!()) {
        let v = a.value.trim();
        if a.name.local == local_name!("role") {
            let lm = match_ignore_case(v, &[
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
                ("dialog", Landmark::Form),
                ("alertdialog", Landmark::Form),
            ]);
            if lm != Landmark::None {
                return lm;
            }
        } else if a.name.local == local_name!("itemprop") {
            let lm = match_ignore_case(v, &[
                ("articleBody", Landmark::Article),
                ("text", Landmark::Article),
                ("reviewBody", Landmark::Article),
                ("description", Landmark::Article),
            ]);
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

/// Whether the element is hidden from readers: `hidden`, `aria-hidden=true`, or an inline
/// style with `display:none` / `visibility:hidden`.
pub(super) fn is_hidden(el: &Element) -> bool {
    el.attrs.iter().any(|a| {
        if a.name.ns != ns!() {
            return false;
        }
        match a.name.local {
            local_name!("hidden") => true,
            local_name!("aria-hidden") => a.value.trim().eq_ignore_ascii_case("true"),
            local_name!("style") => style_hides(&a.value),
            _ => false,
        }
    })
}

fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let Some((prop, value)) = decl.split_once(':') else {
            return false;
        };
        let (prop, value) = (prop.trim(), value.trim());
        (prop.eq_ignore_ascii_case("display") && value.to_ascii_lowercase().starts_with("none"))
            || (prop.eq_ignore_ascii_case("visibility")
                && value.to_ascii_lowercase().starts_with("hidden"))
    })
}

/// Weights of one class/id word. Positive: content containers; negative: page chrome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Words {
    /// Sum of word weights (positive = content-like).
    pub score: i32,
    /// A word naming comments or replies (content on forums, not on articles).
    pub comments: bool,
}

fn word_weight(w: &str) -> (i32, bool) {
    let weight = match w {
        // Page chrome: navigation, site header/footer, sidebars, overlays, ads, sharing.
        "nav" | "navbar" | "navigation" | "navlinks" | "menu" | "menubar" | "megamenu"
        | "submenu" | "menus" | "footer" | "sidebar" | "sidenav" | "sidebars" | "breadcrumb"
        | "breadcrumbs" | "crumbs" | "cookie" | "cookies" | "consent" | "gdpr" | "newsletter"
        | "subscribe" | "subscription" | "share" | "sharing" | "sharebar" | "social"
        | "socials" | "popup" | "modal" | "overlay" | "advert" | "advertisement" | "adverts"
        | "ads" | "ad" | "adsense" | "adslot" | "advertising" | "sponsor" | "sponsored"
        | "promo" | "promos" | "promotion" | "related" | "recommended" | "recommendations"
        | "recommendation" | "widget" | "widgets" | "toolbar" | "pagination" | "pager"
        | "login" | "signin" | "signup" | "skip" | "skiplink" | "offcanvas" | "masthead"
        | "topbar" | "copyright" | "disqus" | "outbrain" | "taboola" | "tagcloud" | "upsell"
        | "crosssell" | "carousel" | "newsletters" | "banner" | "cta" | "toc" => -3,
        "header" | "aside" | "meta" | "byline" | "dropdown" | "utility" | "utilities"
        | "search" | "filter" | "filters" | "facet" | "facets" | "sort" | "actions" | "tools"
        | "extra" | "extras" | "sr" | "hidden" | "tags" | "tag" | "author" | "share-buttons"
        | "badge" | "badges" | "rating" | "ratings" | "reviews" | "review" | "feedback"
        | "print" | "rss" | "more" | "subnav" | "secondary" | "complementary" | "links"
        | "legal" | "disclaimer" | "bottom" | "top" => -1,
        // Content containers.
        "content" | "article" | "entry" | "main" | "story" | "prose" | "markdown" | "post"
        | "posts" | "blog" | "description" | "thread" | "message" | "messages" | "topic"
        | "answer" | "answers" | "question" | "richtext" | "rte" | "editorial" | "wysiwyg"
        | "docs" | "documentation" | "body" | "text" | "copy" | "details" | "detail"
        | "specs" | "specifications" | "results" | "listing" | "listings" | "products"
        | "items" | "grid" => 2,
        "comment" | "comments" | "reply" | "replies" | "discussion" | "respond" => {
            return (-2, true);
        }
        _ => 0,
    };
    (weight, false)
}

/// Splits `value` into lower-case words at punctuation, digits and camelCase humps, and
/// calls `f` on each (words longer than 24 bytes are skipped: hashes, not names).
fn for_each_word(value: &str, mut f: impl FnMut(&str)) {
    let mut buf = [0u8; 24];
    let mut len = 0usize;
    let mut too_long = false;
    let mut prev_lower = false;
    let mut flush = |buf: &[u8; 24], len: &mut usize, too_long: &mut bool| {
        if *len > 0 && !*too_long {
            // Only ASCII letters are collected, so this is valid UTF-8.
            f(std::str::from_utf8(&buf[..*len]).unwrap_or(""));
        }
        *len = 0;
        *too_long = false;
    };
    for &b in value.as_bytes() {
        if b.is_ascii_alphabetic() {
            if b.is_ascii_uppercase() && prev_lower {
                flush(&buf, &mut len, &mut too_long);
            }
            prev_lower = b.is_ascii_lowercase();
            if len < buf.len() {
                buf[len] = b.to_ascii_lowercase();
                len += 1;
            } else {
                too_long = true;
            }
        } else {
            prev_lower = false;
            flush(&buf, &mut len, &mut too_long);
        }
    }
    flush(&buf, &mut len, &mut too_long);
}

/// Class and id words of an element (and the words of a custom element's tag name).
pub(super) fn words(el: &Element) -> Words {
    let mut out = Words::default();
    let mut add = |w: &str| {
        let (weight, comments) = word_weight(w);
        out.score += weight;
        out.comments |= comments;
    };
    for a in el.attrs.iter().filter(|a| a.name.ns == ns!()) {
        if a.name.local == local_name!("class") || a.name.local == local_name!("id") {
            // Utility-class frameworks put dozens of classes on one element; only the first
            // few name what the element is.
            let mut n = 0;
            for class in a.value.split_ascii_whitespace() {
                if class.contains(':') || class.contains('[') {
                    continue; // responsive/variant utilities (`md:hidden`, `w-[20px]`)
                }
                for_each_word(class, &mut add);
                n += 1;
                if n == 8 {
                    break;
                }
            }
        }
    }
    if el.name.local.contains('-') {
        for_each_word(&el.name.local, &mut add);
    }
    out.score = out.score.clamp(-6, 6);
    out
}

/// Tag names whose text is the title of something (used to tell listings from menus).
pub(super) fn is_heading_name(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("h1") | local_name!("h2") | local_name!("h3") | local_name!("h4")
            | local_name!("h5") | local_name!("h6")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn words_of(html: &str) -> Words {
        let doc = parse(html);
        let id = doc.select("body > *").nodes()[0].id;
        crate::dom::with_element(&doc.tree, id, words).unwrap()
    }

    #[test]
    fn splits_words() {
        let mut seen = Vec::new();
        for_each_word("site-header__navWrap mainContent x2y", |w| seen.push(w.to_string()));
        assert_eq!(seen, ["site", "header", "nav", "wrap", "main", "content", "x", "y"]);
    }

    #[test]
    fn scores_class_and_id_words() {
        assert!(words_of("<div class='entry-content'>x</div>").score > 0);
        assert!(words_of("<div id='primary-navigation'>x</div>").score < 0);
        assert!(words_of("<div class='share-buttons'>x</div>").score < 0);
        assert_eq!(words_of("<div class='shadow canvas'>x</div>").score, 0);
        assert!(words_of("<div class='comments'>x</div>").comments);
        assert!(words_of("<site-footer>x</site-footer>").score < 0);
    }

    #[test]
    fn hidden_elements() {
        let doc = parse(
            "<div hidden>a</div><div aria-hidden=true>b</div><div style='color:red; display : none'>c</div>\
             <div style='visibility:hidden'>d</div><div aria-hidden=false>e</div><div style='display:block'>f</div>",
        );
        let hidden: Vec<bool> = doc
            .select("body > div")
            .nodes()
            .iter()
            .map(|n| crate::dom::with_element(&doc.tree, n.id, is_hidden).unwrap())
            .collect();
        assert_eq!(hidden, [true, true, true, true, false, false]);
    }
}
