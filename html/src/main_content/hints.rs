//! What an element's markup says about its role, before looking at its text: the tag, ARIA
//! role, `itemprop`, `hidden`/`aria-hidden`/inline `display:none`, and words in `class`/`id`
//! (split on punctuation and camelCase: `site-header__navWrap` → site, header, nav, wrap).
//!
//! Word lists are generic web vocabulary (WAI-ARIA landmarks, CMS and framework naming
//! habits), never site-specific names.

use dom_query::Element;
use html5ever::ns;

use super::str_hash::StrMap;
use super::upstream::listed_classes;
use super::vocabulary::{Word, contains_either, for_each_word, fragments, word};
use crate::dom::local_name;

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

/// A class that hides the element (`hide`, `hidden`, `d-none`…), unless a responsive
/// variant shows it again on some screens (`hidden md:block`).
#[cfg(test)]
fn class_hides(class: &str) -> bool {
    let mut hiding = HidingClasses::default();
    for c in class.split_ascii_whitespace() {
        hiding.class(c);
    }
    hiding.hides()
}

/// [`class_hides`] read one class at a time (the memo's miss path hands it the classes of
/// the split that checks upstream's lists).
#[derive(Default)]
struct HidingClasses {
    hides: bool,
    /// A responsive variant shows the element again: nothing hides it.
    shown: bool,
}

impl HidingClasses {
    fn class(&mut self, c: &str) {
        if self.shown {
            return;
        }
        // (`str::contains` calls `memchr` for each class.)
        if contains_either(c, b':', b':') {
            if let Some((_, rest)) = c.rsplit_once(':')
                && matches!(
                    rest,
                    "block" | "flex" | "grid" | "inline" | "inline-block" | "inline-flex" | "table"
                )
            {
                self.shown = true;
            }
            return;
        }
        self.hides |= matches!(
            c,
            "hide" | "hidden" | "d-none" | "is-hidden" | "display-none" | "invisible" | "u-hidden"
        );
    }

    fn hides(&self) -> bool {
        self.hides && !self.shown
    }
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

/// What the class/id words of an element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Words {
    /// Sum of word weights (positive = content-like, negative = chrome-like).
    pub score: i32,
    /// A word naming comments or replies (content on forums, not on articles).
    pub comments: bool,
    /// The word is `comment(s)` (how blogs and news sites name readers' comments; forums
    /// name their posts `reply`, `post`, `message`).
    pub comment_word: bool,
    /// A word naming a forum thread (`thread`, `topic`, `forum`, `discussion`): comments
    /// inside are its posts.
    pub thread: bool,
    /// A word naming boilerplate that is never content (consent, newsletter, ads, sharing).
    pub boiler: bool,
    /// A class/id naming an article's body (`article-body`, `entry-content`, `postBody`).
    pub article_body: bool,
    /// A word that names a chrome region outright (sidebar, related, cart…): it wins over
    /// generic content words in the same element (`related-products`, `sidebar-content`).
    pub strong_chrome: bool,
    /// Another chrome word (nav, menu…), and whether a content word other than "main"
    /// qualifies it: `main-nav` is navigation, `content-nav-section` is not.
    pub weak_chrome: bool,
    pub content_word: bool,
    /// A class for text only screen readers see (`sr-only`, `visually-hidden`…): labels
    /// that repeat what the page shows ("Sort and filter", "Price").
    pub screen_reader: bool,
    /// A class that hides the element (`hide`, `d-none`…; see `class_hides`).
    pub class_hidden: bool,
}

fn add_word(out: &mut Words, w: &str) {
    out.thread |= matches!(
        w,
        "thread" | "threads" | "topic" | "topics" | "forum" | "forums" | "discussion" | "discussions"
    );
    match word(w) {
        Word::Boiler => {
            out.boiler = true;
            out.score -= 3;
        }
        Word::Chrome(n) => {
            out.score += n;
            if n <= -3 {
                // Navigation words also name in-page navigation inside content
                // (`content-nav-section`); the rest name chrome regions outright.
                if matches!(
                    w,
                    "nav"
                        | "navbar"
                        | "navigation"
                        | "navigator"
                        | "navlinks"
                        | "menu"
                        | "menus"
                        | "submenu"
                        | "menubar"
                        | "megamenu"
                        | "carousel"
                        | "gallery"
                        | "banner"
                        | "cta"
                        | "overlay"
                ) {
                    out.weak_chrome = true;
                } else {
                    out.strong_chrome = true;
                }
            }
        }
        Word::Content => {
            out.score += 2;
            // "main" qualifies chrome (`main-nav`) more often than it names content.
            out.content_word |= w != "main";
        }
        Word::Comments => {
            out.comments = true;
            out.comment_word |= matches!(w, "comment" | "comments");
            out.score -= 2;
        }
        Word::Neutral => {}
    }
}

/// Class and id words of an element (and the words of a custom element's tag name).
/// Accumulates the words of one element.
struct Acc {
    out: Words,
    /// Hashes of the words seen: each word counts once per element
    /// (`promo cmp-promo box-shadow-promo` is one "promo").
    seen: [u64; 16],
    n_seen: usize,
    /// The previous word of the current class named a piece (article, post…).
    prev_piece: bool,
    /// The previous word of the current class named a component (card, item…).
    prev_component: bool,
    /// The previous word of the current class named a person (user, author, member).
    prev_person: bool,
    /// The previous words of the current class were `about` or `about the`.
    prev_about: bool,
}

impl Acc {
    /// The box about a poster or an author (biography, stats): chrome, and never the
    /// article's body it sits in (`post-body-bio`).
    fn author_box(&mut self) {
        self.out.strong_chrome = true;
        self.out.article_body = false;
        self.out.score -= 3;
        self.prev_person = false;
        self.prev_about = false;
    }

    fn add(&mut self, w: &str) {
        // `article-body`, `entry-content`: a piece word followed by a body word.
        if self.prev_piece && matches!(w, "body" | "content" | "text") {
            self.out.article_body = true;
        }
        let part_of_component = self.prev_component && matches!(w, "header" | "footer" | "meta");
        // `message-userDetails`, `author-bio`, `member-stats`: the box about a poster or an
        // author beside their text (title, join date, post count, biography) is chrome,
        // whatever content word ("details", "description") names its parts.
        if self.prev_person
            && matches!(
                w,
                "details"
                    | "extras"
                    | "info"
                    | "bio"
                    | "title"
                    | "banner"
                    | "stats"
                    | "box"
                    | "card"
                    | "description"
                    | "about"
            )
        {
            self.author_box();
            return;
        }
        // `about-author`, `about-the-author`, `mini-bio`, `post-body-bio`, `biography`:
        // the box about the writer that ends a post, even inside the post's body.
        // `authorbox`, `saboxplugin-wrap`: the same, named in one word by author-box plugins.
        match w {
            "author" if self.prev_about => return self.author_box(),
            "bio" | "bios" | "biography" | "authorbox" | "saboxplugin" => return self.author_box(),
            _ => {}
        }
        self.prev_about = match w {
            "about" => true,
            "the" => self.prev_about,
            _ => false,
        };
        self.prev_person = matches!(w, "user" | "author" | "member" | "poster");
        self.prev_piece = matches!(w, "article" | "post" | "entry" | "story" | "blog" | "news");
        self.prev_component = matches!(
            w,
            "card"
                | "item"
                | "tile"
                | "teaser"
                | "panel"
                | "box"
                | "block"
                | "section"
                | "product"
                | "accordion"
                | "tab"
                | "table"
        );
        // `card-footer`, `section-header`: a part of a component, not the page's chrome
        // (an article's or post's footer is its meta: tags, sharing, so it stays chrome).
        if part_of_component {
            return;
        }
        let key = w.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        if self.seen[..self.n_seen].contains(&key) {
            return;
        }
        if self.n_seen < self.seen.len() {
            self.seen[self.n_seen] = key;
            self.n_seen += 1;
        }
        add_word(&mut self.out, w);
    }
}

/// Memo of the words of `class` values: a page repeats the same class lists on many
/// elements (cards, list items, menu entries). Beside the words, what upstream's lists say
/// of the classes.
pub(super) struct WordCache {
    classes: StrMap<Box<str>, (Words, ListedClasses)>,
}

/// Whether one of an element's classes is on upstream's exclude list ([`EXCLUDE`](super::upstream::EXCLUDE)) and on
/// its force-include list ([`FORCE_INCLUDE`](super::upstream::FORCE_INCLUDE)).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ListedClasses {
    pub excluded: bool,
    pub forced: bool,
}

impl Default for WordCache {
    fn default() -> Self {
        // Room for the distinct class lists of most pages without growing.
        WordCache {
            classes: StrMap::with_capacity_and_hasher(256, Default::default()),
        }
    }
}

/// Class and id words of an element (and the words of a custom element's tag name).
#[cfg(test)]
pub(super) fn words(el: &Element, cache: &mut WordCache) -> Words {
    words_and_listed_classes(el, cache).0
}

/// [`words`], and what upstream's lists say of the element's classes (memoised with the
/// words).
pub(super) fn words_and_listed_classes(el: &Element, cache: &mut WordCache) -> (Words, ListedClasses) {
    let mut out = Words::default();
    let mut listed = ListedClasses::default();
    for a in el.attrs.iter().filter(|a| a.name.ns == ns!()) {
        if a.name.local == local_name!("class") {
            let (w, l) = match cache.classes.get(&*a.value) {
                Some(w) => *w,
                None => {
                    let mut w = words_of(&a.value, true);
                    let mut hiding = HidingClasses::default();
                    let (excluded, forced) = listed_classes(&a.value, |c| hiding.class(c));
                    w.class_hidden = hiding.hides();
                    let l = ListedClasses { excluded, forced };
                    cache.classes.insert(Box::from(&*a.value), (w, l));
                    (w, l)
                }
            };
            merge(&mut out, w);
            listed.excluded |= l.excluded;
            listed.forced |= l.forced;
        } else if a.name.local == local_name!("id") && !is_slug(&a.value) {
            merge(&mut out, words_of(&a.value, false));
        }
    }
    if el.name.local.bytes().any(|b| b == b'-') {
        merge(&mut out, words_of(&el.name.local, false));
    }
    out.score = out.score.clamp(-6, 6);
    (out, listed)
}

/// An id made from a title (`acer-nitro-16-2023-review`, an anchor for a heading or a
/// card): five parts or more. Its words describe the content, not the element's role.
fn is_slug(id: &str) -> bool {
    id.split(['-', '_']).filter(|p| !p.is_empty()).count() >= 5
}

fn merge(into: &mut Words, w: Words) {
    into.score += w.score;
    into.comments |= w.comments;
    into.comment_word |= w.comment_word;
    into.thread |= w.thread;
    into.boiler |= w.boiler;
    into.article_body |= w.article_body;
    into.strong_chrome |= w.strong_chrome;
    into.weak_chrome |= w.weak_chrome;
    into.content_word |= w.content_word;
    into.screen_reader |= w.screen_reader;
    into.class_hidden |= w.class_hidden;
}

/// Prefixes of the classes a CMS writes for a post's terms and state (`category-news`,
/// `tag-share`, `entry-author-jo`, `status-publish`, `format-standard`).
const POST_TERM_PREFIXES: &[&str] = &[
    "category-",
    "entry-author-",
    "entry-category-",
    "entry-tag-",
    "format-",
    "post_tag-",
    "status-",
    "tag-",
    "type-",
];

/// Whether a class names one of a post's terms (see [`POST_TERM_PREFIXES`]).
fn post_term(class: &str) -> bool {
    // Most classes start with another letter: one comparison for them.
    let first = class.as_bytes().first().map_or(0, u8::to_ascii_lowercase);
    matches!(first, b'c' | b'e' | b'f' | b'p' | b's' | b't')
        && POST_TERM_PREFIXES
            .iter()
            .any(|p| class.len() > p.len() && class.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
}

/// Words of one `class` (or `id`, or tag name) value.
fn words_of(value: &str, is_class: bool) -> Words {
    let mut acc = Acc {
        out: Words::default(),
        seen: [0; 16],
        n_seen: 0,
        prev_piece: false,
        prev_person: false,
        prev_about: false,
        prev_component: false,
    };
    // A post's terms written as classes (`category-social-media tag-share
    // entry-author-jo`, two such classes or more) name its subject, not the element's role.
    // Counted once the first such class is met.
    let mut post_terms: Option<bool> = None;
    // Utility-class frameworks put dozens of classes on one element; only the first few
    // name what the element is.
    let mut n = 0;
    for class in value.split_ascii_whitespace() {
        // A post's term still takes its place among the first few classes.
        let term = is_class
            && post_term(class)
            && *post_terms.get_or_insert_with(|| {
                value
                    .split_ascii_whitespace()
                    .filter(|c| post_term(c))
                    .nth(1)
                    .is_some()
            });
        // Responsive/variant utilities (`md:hidden`, `w-[20px]`) say nothing.
        let variant = contains_either(class, b':', b'[');
        if class.len() >= 4 && !term {
            let (boiler, reader) = fragments(class);
            acc.out.boiler |= boiler;
            acc.out.screen_reader |= is_class && !variant && reader;
        }
        if variant || n == 8 {
            continue;
        }
        n += 1;
        if term {
            continue;
        }
        acc.prev_piece = false;
        acc.prev_person = false;
        acc.prev_about = false;
        acc.prev_component = false;
        for_each_word(class, |w| acc.add(w));
    }
    acc.out
}

#[cfg(test)]
mod tests;
