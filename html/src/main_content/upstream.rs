//! Upstream's `onlyMainContent` (compat notes §1.6): its exact selector lists and its removal
//! rule — every element matching an EXCLUDE selector is removed unless it matches or contains
//! a FORCE_INCLUDE one. Distill applies the rule as it is to `includeTags` fragments, and uses
//! the lists as signals when scoring whole pages.
//!
//! All selectors are simple (`tag`, `.class`, `#id`), so they are matched by hand in one
//! pass instead of 55 CSS queries. Removal order does not change the result: a force-include
//! element is never removed, so "contains a force-include element" is stable.

use std::collections::HashSet;
use std::sync::LazyLock;

use dom_query::{Document, Element, NodeId};

use html5ever::ns;

use super::str_hash::StrSet;
use crate::dom::{LocalName, Walker, local_name, with_element};

/// Upstream `EXCLUDE_NON_MAIN_TAGS` (42 entries, order preserved).
pub const EXCLUDE_NON_MAIN_TAGS: [&str; 42] = [
    "header",
    "footer",
    "nav",
    "aside",
    ".header",
    ".top",
    ".navbar",
    "#header",
    ".footer",
    ".bottom",
    "#footer",
    ".sidebar",
    ".side",
    ".aside",
    "#sidebar",
    ".modal",
    ".popup",
    "#modal",
    ".overlay",
    ".ad",
    ".ads",
    ".advert",
    "#ad",
    ".lang-selector",
    ".language",
    "#language-selector",
    ".social",
    ".social-media",
    ".social-links",
    "#social",
    ".menu",
    ".navigation",
    "#nav",
    ".breadcrumbs",
    "#breadcrumbs",
    ".share",
    "#share",
    ".widget",
    "#widget",
    ".cookie",
    "#cookie",
    ".fc-decoration",
];

/// Upstream `FORCE_INCLUDE_MAIN_TAGS` (13 entries).
pub const FORCE_INCLUDE_MAIN_TAGS: [&str; 13] = [
    "#main",
    ".swoogo-cols",
    ".swoogo-text",
    ".swoogo-table-div",
    ".swoogo-space",
    ".swoogo-alert",
    ".swoogo-sponsors",
    ".swoogo-title",
    ".swoogo-tabs",
    ".swoogo-logo",
    ".swoogo-image",
    ".swoogo-button",
    ".swoogo-agenda",
];

/// A list of simple selectors (`tag`, `.class`, `#id`) matched with plain, case-sensitive CSS
/// semantics (class = whitespace-separated token). Classes are kept in a hash set, with a
/// table of the lengths listed per first byte: most classes of a page are ruled out by it
/// without hashing.
pub(super) struct SimpleSelectors {
    tags: Vec<LocalName>,
    classes: StrSet<&'static str>,
    /// Bit `n` of entry `b`: a listed class of `n` bytes starts with byte `b` (every listed
    /// class is shorter than 64 bytes).
    class_lens: [u64; 256],
    ids: Vec<&'static str>,
}

impl SimpleSelectors {
    fn new(list: &[&'static str]) -> Self {
        let mut set = SimpleSelectors {
            tags: Vec::new(),
            classes: StrSet::default(),
            class_lens: [0; 256],
            ids: Vec::new(),
        };
        for sel in list {
            if let Some(class) = sel.strip_prefix('.') {
                assert!(!class.is_empty() && class.len() < 64, "{class}");
                set.class_lens[usize::from(class.as_bytes()[0])] |= 1 << class.len();
                set.classes.insert(class);
            } else if let Some(id) = sel.strip_prefix('#') {
                set.ids.push(id);
            } else {
                set.tags.push(LocalName::from(*sel));
            }
        }
        set
    }

    pub(super) fn matches(&self, el: &Element) -> bool {
        self.matches_tag_or_id(el) || class_values(el).any(|v| self.matches_class(v))
    }

    /// Whether the element's tag or `id` is listed (what [`Self::matches`] checks besides
    /// the classes).
    pub(super) fn matches_tag_or_id(&self, el: &Element) -> bool {
        self.matches_tag_or(&el.name.local, crate::dom::attr(el, &local_name!("id")))
    }

    /// [`Self::matches_tag_or_id`] for a tag name and the element's first `id` value.
    pub(super) fn matches_tag_or(&self, tag: &LocalName, id: Option<&str>) -> bool {
        self.matches_tag(tag) || self.matches_id(id)
    }

    /// Whether the tag is listed.
    pub(super) fn matches_tag(&self, tag: &LocalName) -> bool {
        self.tags.contains(tag)
    }

    /// Whether the `id` value is listed.
    pub(super) fn matches_id(&self, id: Option<&str>) -> bool {
        id.is_some_and(|id| self.ids.contains(&id))
    }

    /// Whether one of the classes of a `class` value is listed.
    pub(super) fn matches_class(&self, value: &str) -> bool {
        value.split_ascii_whitespace().any(|c| self.lists(c))
    }

    /// Whether one class (not empty) is listed. (The length test in line: most classes
    /// fail it.)
    #[inline]
    fn lists(&self, class: &str) -> bool {
        // One of 64 bytes or more is on no list.
        let lens = self.class_lens[usize::from(class.as_bytes()[0])];
        class.len() < 64 && lens >> class.len() & 1 != 0 && self.has_class(class)
    }

    #[inline(never)]
    fn has_class(&self, class: &str) -> bool {
        self.classes.contains(class)
    }
}

/// Whether a class of a `class` value is on [`EXCLUDE`], and whether one is on
/// [`FORCE_INCLUDE`]: both lists' [`SimpleSelectors::matches_class`] in one split of the value,
/// which also hands every class to `each`.
#[cfg(test)]
pub(super) fn listed_classes(value: &str, mut each: impl FnMut(&str)) -> (bool, bool) {
    let mut listed = ListedClass::default();
    for c in value.split_ascii_whitespace() {
        listed.class(c);
        each(c);
    }
    (listed.excluded, listed.forced)
}

/// Whether a class of a `class` value is on [`EXCLUDE`], and whether one is on
/// [`FORCE_INCLUDE`], read one class at a time: the word analysis hands it the classes of
/// its own split of the value.
pub(super) struct ListedClass {
    pub excluded: bool,
    pub forced: bool,
    lists: (&'static SimpleSelectors, &'static SimpleSelectors),
}

impl Default for ListedClass {
    fn default() -> Self {
        ListedClass {
            excluded: false,
            forced: false,
            lists: (&EXCLUDE, &FORCE_INCLUDE),
        }
    }
}

impl ListedClass {
    /// Takes one class (not empty) of the value into account.
    #[inline]
    pub(super) fn class(&mut self, c: &str) {
        self.excluded = self.excluded || self.lists.0.lists(c);
        self.forced = self.forced || self.lists.1.lists(c);
    }
}

/// The values of an element's `class` attributes (one, in a parsed document).
pub(super) fn class_values(el: &Element) -> impl Iterator<Item = &str> {
    el.attrs
        .iter()
        .filter(|a| a.name.ns == ns!() && a.name.local == local_name!("class"))
        .map(|a| &*a.value)
}

pub(super) static EXCLUDE: LazyLock<SimpleSelectors> =
    LazyLock::new(|| SimpleSelectors::new(&EXCLUDE_NON_MAIN_TAGS));
pub(super) static FORCE_INCLUDE: LazyLock<SimpleSelectors> =
    LazyLock::new(|| SimpleSelectors::new(&FORCE_INCLUDE_MAIN_TAGS));

/// Removes non-main-content elements from `doc` with upstream's rule (§1.6).
pub(super) fn remove_listed(doc: &Document) {
    let tree = &doc.tree;
    let root = doc.root().id;

    // Pass 1: mark every force-include element and all its ancestors.
    let mut keep: HashSet<NodeId> = HashSet::new();
    for id in Walker::new(tree, root) {
        if with_element(tree, id, |el| FORCE_INCLUDE.matches(el)) == Some(true) {
            let mut cur = Some(id);
            while let Some(node) = cur {
                if !keep.insert(node) {
                    break;
                }
                cur = tree.parent_of(&node).map(|p| p.id);
            }
        }
    }

    // Pass 2: detach excluded, unmarked elements (their subtrees go with them).
    let mut doomed = Vec::new();
    let mut walker = Walker::new(tree, root);
    while let Some(id) = walker.next() {
        if !keep.contains(&id) && with_element(tree, id, |el| EXCLUDE.matches(el)) == Some(true) {
            walker.skip_children();
            doomed.push(id);
        }
    }
    for id in doomed {
        tree.remove_from_parent(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn clean(html: &str) -> String {
        let doc = parse(html);
        remove_listed(&doc);
        doc.select("body").inner_html().to_string()
    }

    #[test]
    fn the_id_read_with_the_words_decides_as_the_attribute_look_up() {
        // Every listed id and tag, on listed and other tags, with and without other
        // attributes around the id.
        let ids: Vec<&str> = EXCLUDE_NON_MAIN_TAGS
            .iter()
            .chain(&FORCE_INCLUDE_MAIN_TAGS)
            .filter_map(|s| s.strip_prefix('#'))
            .chain(["", "main", "x", "header-2"])
            .collect();
        let tags = [
            "div", "nav", "aside", "footer", "main", "article", "span", "my-box",
        ];
        let mut rng = crate::test_rng::TestRng::new(41);
        let mut html = String::new();
        for _ in 0..3_000 {
            let tag = tags[rng.below(tags.len())];
            let id = ids[rng.below(ids.len())];
            let attrs = match rng.below(4) {
                0 => String::new(),
                1 => format!(" id='{id}'"),
                2 => format!(" class='a b' id='{id}' data-x=1"),
                _ => format!(" ID='{id}' class=card"),
            };
            html.push_str(&format!("<{tag}{attrs}>t</{tag}>"));
        }
        let doc = parse(&html);
        let mut cache = super::super::hints::WordCache::default();
        let mut n = 0;
        for node in doc.select("body *").nodes() {
            crate::dom::with_element(&doc.tree, node.id, |el| {
                let id = super::super::hints::words_and_listed_classes(el, &mut cache, 0, false).id;
                for list in [&*EXCLUDE, &*FORCE_INCLUDE] {
                    assert_eq!(
                        list.matches_tag_or(&el.name.local, id),
                        list.matches_tag_or_id(el)
                    );
                    n += usize::from(list.matches_tag_or_id(el));
                }
            });
        }
        assert!(n > 1_000, "{n}");
    }

    #[test]
    fn the_length_table_never_rules_out_a_listed_class() {
        // Values made of listed classes, their prefixes and extensions, and other words.
        let mut pieces: Vec<String> = EXCLUDE_NON_MAIN_TAGS
            .iter()
            .chain(&FORCE_INCLUDE_MAIN_TAGS)
            .filter_map(|s| s.strip_prefix('.'))
            .flat_map(|c| {
                [
                    c.to_string(),
                    c[..c.len() - 1].to_string(),
                    format!("{c}s"),
                    c.to_uppercase(),
                ]
            })
            .collect();
        pieces.extend(["x", "é", "col-md-6", &"a".repeat(70), "social-media-links"].map(String::from));
        let mut rng = crate::test_rng::TestRng::new(16);
        for _ in 0..50_000 {
            let mut value = String::new();
            for _ in 0..rng.below(5) {
                value.push_str([" ", "\t", "  ", "\n"][rng.below(4)]);
                value.push_str(&pieces[rng.below(pieces.len())]);
            }
            let mut both = [false; 2];
            for (list, listed) in [&*EXCLUDE, &*FORCE_INCLUDE].into_iter().zip(&mut both) {
                let reference = value.split_ascii_whitespace().any(|c| list.classes.contains(c));
                assert_eq!(list.matches_class(&value), reference, "{value:?}");
                *listed = reference;
            }
            assert_eq!(
                <[bool; 2]>::from(listed_classes(&value, |_| {})),
                both,
                "{value:?}"
            );
        }
    }

    #[test]
    fn list_sizes_match_upstream() {
        assert_eq!(EXCLUDE_NON_MAIN_TAGS.len(), 42);
        assert_eq!(FORCE_INCLUDE_MAIN_TAGS.len(), 13);
        for sel in EXCLUDE_NON_MAIN_TAGS.iter().chain(&FORCE_INCLUDE_MAIN_TAGS) {
            assert!(dom_query::Matcher::new(sel).is_ok(), "{sel}");
        }
    }

    #[test]
    fn removes_tags_classes_and_ids() {
        let out = clean(
            "<header>h</header><nav>n</nav><div class='x sidebar'>s</div><div id='cookie'>c</div>\
             <p>keep</p><aside>a</aside><footer>f</footer>",
        );
        assert_eq!(out, "<p>keep</p>");
    }

    #[test]
    fn class_matching_is_token_based_and_case_sensitive() {
        let out = clean(
            "<div class='advertisement'>1</div><div class='header-wrap'>2</div>\
             <div class='Sidebar'>3</div><div class='ad'>4</div>",
        );
        assert_eq!(
            out,
            "<div class=\"advertisement\">1</div><div class=\"header-wrap\">2</div>\
             <div class=\"Sidebar\">3</div>"
        );
    }

    #[test]
    fn excluded_element_containing_force_include_is_kept() {
        let out = clean("<div class='sidebar'><div id='main'>M</div><nav>n</nav></div>");
        assert_eq!(out, "<div class=\"sidebar\"><div id=\"main\">M</div></div>");
    }

    #[test]
    fn excluded_element_that_is_force_include_is_kept() {
        let out = clean("<header id='main'>H</header><div class='menu swoogo-tabs'>T</div>");
        assert_eq!(
            out,
            "<header id=\"main\">H</header><div class=\"menu swoogo-tabs\">T</div>"
        );
    }

    #[test]
    fn force_include_deep_inside_nested_excludes() {
        let out =
            clean("<header><nav><div class='swoogo-logo'>L</div></nav><div class='menu'>m</div></header>");
        assert_eq!(
            out,
            "<header><nav><div class=\"swoogo-logo\">L</div></nav></header>"
        );
    }
}
