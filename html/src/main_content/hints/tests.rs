//! Tests of [`super`]: class/id words, hidden elements, and the hiding-class test read one
//! class at a time against the code it replaced (kept here as a reference).

use super::*;
use crate::dom::parse;
use crate::main_content::upstream::listed_classes;

fn words_of(html: &str) -> Words {
    let doc = parse(html);
    let id = doc.select("body > *").nodes()[0].id;
    crate::dom::with_element(&doc.tree, id, |el| words(el, &mut WordCache::default())).unwrap()
}

#[test]
fn a_box_about_the_author_is_chrome_even_inside_the_body() {
    for class in [
        "about-author",
        "wp-about-the-author-text",
        "mini-bio",
        "biography",
        "post-body-bio",
    ] {
        let w = words_of(&format!("<div class='{class}'>x</div>"));
        assert!(w.strong_chrome && !w.article_body, "{class}");
    }
    // "about" alone, or a writer's name in a class, is no such box.
    assert!(!words_of("<div class='about-us'>x</div>").strong_chrome);
    assert!(!words_of("<div class='about the-author'>x</div>").strong_chrome);
}

#[test]
fn scores_class_and_id_words() {
    assert!(words_of("<div class='entry-content'>x</div>").score > 0);
    assert!(words_of("<div id='primary-navigation'>x</div>").score < 0);
    assert!(words_of("<div class='share-buttons'>x</div>").score < 0);
    assert_eq!(words_of("<div class='shadow canvas'>x</div>").score, 0);
    assert!(words_of("<div class='comments'>x</div>").comments);
    assert!(words_of("<site-footer>x</site-footer>").score < 0);
    assert!(words_of("<div class='cmplz-cookiebanner'>x</div>").boiler);
    assert!(words_of("<div class='social-share'>x</div>").boiler);
    assert!(!words_of("<div class='social-proof'>x</div>").boiler);
    assert!(words_of("<div class='x entry-content'>x</div>").article_body);
    assert!(words_of("<div id='postBody'>x</div>").article_body);
    assert!(!words_of("<div class='post-meta content'>x</div>").article_body);
}

#[test]
fn a_posts_terms_written_as_classes_say_nothing_of_its_role() {
    // Two terms or more: the categories and author of a post, not a share bar.
    let post = words_of("<div class='entry-category-social-media entry-author-jo hentry'>x</div>");
    assert!(!post.boiler && post.score >= 0, "{post:?}");
    let wp = words_of("<article class='post type-post status-publish category-share-tips'>x</article>");
    assert!(!wp.boiler, "{wp:?}");
    // One such class alone is a name like any other.
    assert!(words_of("<div class='tag-share'>x</div>").boiler);
    assert!(post_term("Category-News") && !post_term("category-") && !post_term("categories"));
}

#[test]
fn hiding_classes_as_the_old_code_read_them() {
    let reference = |class: &str| {
        let mut hides = false;
        for c in class.split_ascii_whitespace() {
            if c.contains(':') {
                if let Some((_, rest)) = c.rsplit_once(':')
                    && matches!(
                        rest,
                        "block" | "flex" | "grid" | "inline" | "inline-block" | "inline-flex" | "table"
                    )
                {
                    return false;
                }
                continue;
            }
            hides |= matches!(
                c,
                "hide" | "hidden" | "d-none" | "is-hidden" | "display-none" | "invisible" | "u-hidden"
            );
        }
        hides
    };
    let pieces = [
        " ",
        "  ",
        "\t",
        "hide",
        "hidden",
        "d-none",
        "md:block",
        "sm:flex",
        "lg:hidden",
        "x:",
        "ad",
        "menu",
        "md",
        ":",
        "block",
        "é",
        "u-hidden",
        "w-[2px]",
        "[x]:block",
        "[",
    ];
    let mut rng = crate::test_rng::TestRng::new(3);
    for _ in 0..100_000 {
        let v: String = (0..rng.below(10))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let mut hiding = HidingClasses::default();
        let listed = listed_classes(&v, |c| hiding.class(c));
        assert_eq!(hiding.hides(), reference(&v), "{v:?}");
        assert_eq!(class_hides(&v), reference(&v), "{v:?}");
        // As the word analysis feeds it: with its variant test (`:` or `[`) of each class.
        let mut read = HidingClasses::default();
        for c in v.split_ascii_whitespace() {
            read.class_read(c, crate::main_content::vocabulary::contains_either(c, b':', b'['));
        }
        assert_eq!(read.hides(), reference(&v), "{v:?}");
        let lists = (
            super::super::upstream::EXCLUDE.matches_class(&v),
            super::super::upstream::FORCE_INCLUDE.matches_class(&v),
        );
        assert_eq!(listed, lists, "{v:?}");
    }
}

#[test]
fn hidden_elements() {
    let doc = parse(
        "<div hidden>a</div><div aria-hidden=true>b</div><div style='color:red; display : none'>c</div>\
         <div style='visibility:hidden'>d</div><div aria-hidden=false>e</div><div style='display:block'>f</div>\
         <div class='x hide'>g</div><div class='hidden md:block'>h</div>",
    );
    let hidden: Vec<Hidden> = doc
        .select("body > div")
        .nodes()
        .iter()
        .map(|n| crate::dom::with_element(&doc.tree, n.id, hidden).unwrap())
        .collect();
    use Hidden::*;
    assert_eq!(hidden, [Styled, Aria, Styled, Styled, No, No, No, No]);
    // Hiding classes are read with the class words.
    assert!(class_hides("x hide") && !class_hides("hidden md:block"));
}

#[test]
fn without_a_role_or_hiding_attribute_hidden_and_landmark_need_not_look() {
    // Elements with and without the attributes `hidden` and `landmark` read, among others
    // (`xlink:role` on svg: a namespaced one).
    let attrs = [
        "",
        " class=x",
        " id=main",
        " role=main",
        " role=navigation",
        " itemprop=articleBody",
        " aria-hidden=true",
        " aria-hidden=false",
        " hidden",
        " style='display:none'",
        " style='color:red'",
        " data-role=main",
        " href=/x",
    ];
    let tags = ["div", "main", "nav", "section", "a", "aside", "span", "svg"];
    let mut rng = crate::test_rng::TestRng::new(43);
    let mut html = String::new();
    for _ in 0..3_000 {
        let tag = tags[rng.below(tags.len())];
        let extra = if tag == "svg" && rng.below(2) == 0 {
            " xlink:role=main"
        } else {
            ""
        };
        let a: String = (0..rng.below(3)).map(|_| attrs[rng.below(attrs.len())]).collect();
        html.push_str(&format!("<{tag}{a}{extra}>t</{tag}>"));
    }
    let doc = parse(&html);
    let mut cache = WordCache::default();
    let (mut fast, mut slow) = (0, 0);
    for node in doc.select("body *").nodes() {
        crate::dom::with_element(&doc.tree, node.id, |el| {
            if words_and_listed_classes(el, &mut cache, 0, false).role_or_hiding {
                slow += 1;
            } else {
                fast += 1;
                assert_eq!(hidden(el), Hidden::No);
                assert_eq!(landmark(el), tag_landmark(el));
            }
        });
    }
    assert!(fast > 500 && slow > 500, "{fast} {slow}");
}
