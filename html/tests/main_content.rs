//! `onlyMainContent` on whole pages of each kind the extractor is meant for, built from
//! the patterns real sites use (landmarks, CMS class names, cards, posts), plus the
//! upstream semantics users rely on.

mod common;

use common::{PROSE, assert_kept, main_content, paras};
use distill_html::{CleanOptions, ParsedPage};
use url::Url;

#[test]
fn upstream_layout_fixture() {
    // The e2e suite's layout page: chrome by tag, class and id goes; `#main` is force-kept
    // with the element holding it.
    let html = r#"<body>
      <div class="cookie">COOKIEBANNER</div><header>SITEHEADER</header><div id="header">IDHEADER</div>
      <div class="navbar">NAVBAR</div><nav class="breadcrumbs">BREADCRUMBS</nav><div class="top">TOPSTRIP</div>
      <ul class="menu"><li>MENUITEM</li></ul>
      <div class="wrapper"><main><h1>Main Story</h1><p class="lede">LEDETEXT opens the story.</p>
        <p>MAINBODYTEXT continues the story.</p><div class="advertisement">ADVERTISEMENTCLASSISNOTAD</div>
        <div class="ad">ADBLOCK</div><div class="share">SHAREBUTTONS</div><div class="social-links">SOCIALLINKS</div></main>
        <aside>ASIDEBLOCK</aside><div class="sidebar">SIDEBARBLOCK <div id="main">FORCEDMAININSIDEBAR</div></div>
        <div class="modal">MODALDIALOG</div><div class="widget">WIDGETBOX</div></div>
      <footer>SITEFOOTER</footer><div id="footer">IDFOOTER</div></body>"#;
    let out = main_content(html);
    assert_kept(
        &out,
        &[
            "Main Story",
            "LEDETEXT",
            "MAINBODYTEXT",
            "ADVERTISEMENTCLASSISNOTAD",
            "FORCEDMAININSIDEBAR",
            "SIDEBARBLOCK",
        ],
        &[
            "COOKIEBANNER",
            "SITEHEADER",
            "IDHEADER",
            "NAVBAR",
            "BREADCRUMBS",
            "TOPSTRIP",
            "MENUITEM",
            "ADBLOCK",
            "SHAREBUTTONS",
            "SOCIALLINKS",
            "ASIDEBLOCK",
            "MODALDIALOG",
            "WIDGETBOX",
            "SITEFOOTER",
            "IDFOOTER",
        ],
    );
}

#[test]
fn article_keeps_linked_sentences_and_drops_chrome() {
    let html = format!(
        r#"<body><header class="site-header"><a href="/">Home</a> HEADERMARKER</header>
        <nav><a href="/a">Topics</a> <a href="/b">About</a></nav>
        <main><article><h1>Lichens on Old Walls</h1><p>{PROSE}</p>
        <p>Read the <a href="/guide">identification guide</a> or <a href="/appendix">the appendix</a>.</p>
        <ul><li>Xanthoria parietina</li><li>Lecanora muralis</li></ul><p>{PROSE}</p></article></main>
        <aside class="sidebar">ASIDEMARKER <a href="/related">Related reading</a></aside>
        <footer>FOOTERMARKER <a href="mailto:e@x.org">Contact</a></footer></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Lichens on Old Walls",
            "identification guide",
            "the appendix",
            "Lecanora muralis",
        ],
        &["HEADERMARKER", "Topics", "ASIDEMARKER", "FOOTERMARKER"],
    );
}

#[test]
fn article_body_is_chosen_over_its_side_column() {
    let teasers: String = (0..6)
        .map(|i| {
            format!("<li><a href='/p{i}'>Popular story number {i} about something else entirely</a></li>")
        })
        .collect();
    let html = format!(
        r#"<body><div class="layout"><div class="col-main"><div class="article-body">
        <p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div></div>
        <div class="col-side"><div class="box"><p>Subscribe to our daily letter for more.</p></div>
        <p>Popular posts</p><ol>{teasers}</ol></div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["partnership between a fungus"],
        &["Popular story", "daily letter"],
    );
}

#[test]
fn listing_keeps_every_card() {
    let cards: String = (0..8)
        .map(|i| {
            format!(
                "<div class='card'><a href='/item{i}'><img src='/i{i}.jpg' alt=''></a>\
                 <h3><a href='/item{i}'>Stoneware mug {i}</a></h3><span class='price'>$2{i}.00</span>\
                 <a class='btn' href='/cart?add={i}'>Add to cart</a></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><nav class="menu"><ul><li><a href="/mugs">Mugs</a></li><li><a href="/plates">Plates</a></li></ul></nav>
        <div class="filters"><ul><li><a href="?c=red">Red (4)</a></li><li><a href="?c=blue">Blue (2)</a></li></ul></div>
        <div class="grid">{cards}</div><footer><a href="/terms">Terms</a></footer></body>"#
    );
    let out = main_content(&html);
    for i in 0..8 {
        assert_kept(&out, &[&format!("Stoneware mug {i}"), &format!("$2{i}.00")], &[]);
    }
    assert_kept(&out, &[], &["Add to cart", "Red (4)", "Plates", "Terms"]);
}

#[test]
fn a_boilerplate_word_on_every_cards_wrapper_does_not_drop_the_grid() {
    // A shop theme marks each product card `card-wrapper subscription-eligible`: a modifier
    // of the card, not a subscription box. The grid is the page; the short notice above it
    // must not win because every card was read as boilerplate.
    let cards: String = (0..8)
        .map(|i| {
            format!(
                "<li class='grid__item'><div class='card-wrapper subscription-eligible'>\
                 <a href='/p/{i}'><img src='/i{i}.jpg' alt=''></a>\
                 <h3 class='card__heading'><a href='/p/{i}'>Stoneware mug number {i}</a></h3>\
                 <div class='card-information'><span class='price'>Regular price $2{i}.00</span></div>\
                 </div></li>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><nav class="menu"><ul><li><a href="/mugs">Mugs</a></li><li><a href="/plates">Plates</a></li></ul></nav>
        <main id="MainContent"><div class="notice"><p>Members see early releases first, log in to view them.</p></div>
        <h1>Mugs</h1><ul class="grid product-grid">{cards}</ul></main>
        <footer><a href="/terms">Terms</a></footer></body>"#
    );
    let out = main_content(&html);
    for i in 0..8 {
        assert_kept(
            &out,
            &[&format!("Stoneware mug number {i}"), &format!("$2{i}.00")],
            &[],
        );
    }
    assert_kept(&out, &[], &["Plates", "Terms"]);
}

#[test]
fn a_river_of_story_cards_keeps_the_headers_holding_their_headlines() {
    // Each teaser is an `<article>` whose `<header>` holds its linked headline and byline:
    // the card's title, not a site banner. The river is the page; the section's one-word
    // heading above it must not win alone.
    let cards: String = (0..10)
        .map(|i| {
            format!(
                "<article class='river-article'><header><h2><a href='/s/{i}'>Lichen survey number {i} finds \
                 new species on walls</a></h2><div class='aux'><a href='/by/ann'>Ann Lee</a> \
                 <a href='/s/{i}#c'>3</a></div></header></article>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><header class="site"><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav></header>
        <main><div class="col"><h1>lichens</h1></div><section class="col-main" id="river">{cards}</section></main>
        <footer><a href="/terms">Terms</a></footer></body>"#
    );
    let out = main_content(&html);
    for i in 0..10 {
        assert_kept(&out, &[&format!("Lichen survey number {i}")], &[]);
    }
    assert_kept(&out, &[], &["About", "Terms"]);
}

#[test]
fn a_boilerplate_word_on_cards_beside_an_article_still_names_boxes() {
    // On an article page the same word on a grid of boxes is what it says: the
    // subscription offers after the post's paragraphs go.
    let boxes: String = (0..4)
        .map(|i| {
            format!(
                "<div class='offer'><div class='offer-box subscription-box'>\
                 <h3><a href='/subscribe/{i}'>OFFER{i} plan</a></h3><span>$9.{i}0 a month</span>\
                 <p>Every issue in print and online</p></div></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><main><article><h1>Lichens on Old Walls</h1><p>{PROSE}</p><p>Second. {PROSE}</p>
        <p>Third. {PROSE}</p><p>Fourth. {PROSE}</p><p>Fifth. {PROSE}</p>
        <div class="offers">{boxes}</div></article></main></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Second. Lichens", "Fifth. Lichens"],
        &["OFFER0", "OFFER3"],
    );
}

#[test]
fn forum_thread_keeps_all_posts() {
    let posts: String = (0..5)
        .map(|i| {
            format!(
                "<article class='message'><div class='message-user'><a class='username' href='/u{i}'>user{i}</a>\
                 <div class='userinfo'>Joined: 2019 Messages: 12{i}</div></div>\
                 <div class='message-body'><p>Reply {i}: {PROSE}</p></div></article>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><header><nav><a href="/forums">Forums</a></nav></header><main><h1>Best lichen guide?</h1>
        <div class="thread">{posts}</div></main><footer>Forum software</footer></body>"#
    );
    let out = main_content(&html);
    for i in 0..5 {
        assert!(out.contains(&format!("Reply {i}:")), "lacks post {i}:\n{out}");
    }
    assert_kept(&out, &[], &["Joined: 2019", "Forum software"]);
}

#[test]
fn product_page_keeps_description_and_specs() {
    let related: String = (0..4)
        .map(|i| format!("<li class='product-card'><a href='/p{i}'>Other mug {i}</a><span>$9</span></li>"))
        .collect();
    let html = format!(
        r#"<body><header><a href="/">Shop</a></header><main><div class="product">
        <h1>Stoneware Coffee Mug</h1><div class="price">$24.00</div>
        <div class="product-description"><p>{PROSE}</p></div>
        <table class="specs"><tr><th>Capacity</th><td>350 ml</td></tr><tr><th>Weight</th><td>280 g</td></tr></table>
        <div class="shipping-info"><p>Free shipping on orders over $50. Returns accepted within 14 days.</p></div>
        </div><section class="related-products"><h2>You may also like</h2><ul>{related}</ul></section></main></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Stoneware Coffee Mug",
            "partnership between a fungus",
            "350 ml",
            "280 g",
        ],
        &["Other mug", "Free shipping", "You may also like"],
    );
}

#[test]
fn documentation_drops_navigation_sidebars() {
    let toc: String = (0..20)
        .map(|i| format!("<li><a href='/docs/p{i}'>Page {i}</a></li>"))
        .collect();
    let html = format!(
        r##"<body><div class="docs-layout"><nav class="sidebar"><ul>{toc}</ul></nav>
        <div class="content"><h1>Install</h1><p>{PROSE}</p><pre><code>cargo add lichen</code></pre>
        <p>See <a href="/docs/config">configuration</a> next.</p></div>
        <div class="toc"><a href="#a">On this page</a></div></div></body>"##
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Install", "cargo add lichen", "configuration"],
        &["Page 3", "On this page"],
    );
}

#[test]
fn pages_with_nothing_but_chrome_come_back_empty() {
    // The server then falls back to the whole page.
    let html = "<body><nav><p>ONLYNAVTEXT lives in the navigation.</p></nav>\
        <div class='sidebar'><p>ONLYSIDEBARTEXT lives in a sidebar.</p></div>\
        <footer><p>ONLYFOOTERTEXT lives in the footer.</p></footer></body>";
    let url = Url::parse("https://example.com/").unwrap();
    let page = ParsedPage::parse(html, &url);
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &[],
        exclude_tags: &[],
    };
    assert!(!page.clean(&opts).unwrap().has_content());
}

#[test]
fn script_shells_use_their_noscript_content() {
    let html = format!(
        "<body><div id='app'>Loading…</div><noscript><main><h1>Thread</h1><p>{PROSE}</p><p>{PROSE}</p>\
         <p>{PROSE}</p><p>{PROSE}</p></main></noscript></body>"
    );
    assert_kept(
        &main_content(&html),
        &["Thread", "partnership between a fungus"],
        &["Loading"],
    );
}

#[test]
fn include_tags_get_upstreams_rule_only() {
    // With includeTags the user chose the content: only upstream's lists apply inside it.
    let html = format!(
        "<body><div class='grid'><p>{PROSE}</p><div class='share'>SHARE</div>\
         <ul><li><a href='/a'>a link list</a></li></ul></div><footer>FOOT</footer></body>"
    );
    let url = Url::parse("https://example.com/").unwrap();
    let page = ParsedPage::parse(&html, &url);
    let include = [".grid".to_string()];
    let opts = CleanOptions {
        only_main_content: true,
        include_tags: &include,
        exclude_tags: &[],
    };
    let out = page.clean(&opts).unwrap().html();
    assert_kept(
        &out,
        &["partnership between a fungus", "a link list"],
        &["SHARE", "FOOT"],
    );
}

#[test]
fn extraction_is_deterministic() {
    let html = format!("<body><main><p>{PROSE}</p></main><aside>side</aside></body>");
    let first = main_content(&html);
    for _ in 0..5 {
        assert_eq!(main_content(&html), first);
    }
}

#[test]
fn a_block_repeated_for_another_screen_size_is_kept_once() {
    let promise = "Free repairs for five years on every frame we make, wherever you bought it, \
        and free collection from your door when something goes wrong.";
    let html = format!(
        r#"<body><main>
          <div class="desktop-only"><p>{promise}</p></div>
          <h1>Oak Frame</h1><p>{PROSE}</p>
          <ul><li>Step one: sand the joint until the old glue comes away cleanly.</li>
              <li>Step one: sand the joint until the old glue comes away cleanly.</li></ul>
          <div class="mobile-only"><p>{promise}</p></div>
        </main></body>"#
    );
    let out = main_content(&html);
    assert_eq!(out.matches(promise).count(), 1, "{out}");
    // List items are data: a repeated step stays.
    assert_eq!(out.matches("Step one").count(), 2, "{out}");
    assert!(
        out.contains("Oak Frame") && out.contains("Lichens grow slowly"),
        "{out}"
    );
}

#[test]
fn a_product_grid_inside_a_form_is_content() {
    let card = |n: u32| {
        format!(
            r#"<li class="product"><article class="card"><h3><a href="/p/{n}">Purifier model {n}</a></h3>
               <p>Captures fine dust and pollen in rooms up to {n}0 square metres, with a washable pre-filter.</p>
               <span class="price">${n}9.99</span></article></li>"#
        )
    };
    let cards: String = (1..=6).map(card).collect();
    let html = format!(
        r#"<body><nav><a href="/">Home</a><a href="/shop">Shop</a><a href="/help">Help</a></nav>
           <main><h1>Air purifiers</h1><form class="grid"><ul class="products">{cards}</ul></form></main>
           <footer>FOOTERTEXT</footer></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Purifier model 1", "Purifier model 6", "washable pre-filter"],
        &["FOOTERTEXT"],
    );
}

#[test]
fn a_shelf_of_link_cards_after_the_product_goes() {
    let card = |n: u32| {
        format!(
            r#"<div class="tile"><a href="/p/{n}"><img src="/i/{n}.jpg" alt=""><span>Other lamp number {n} in brass</span></a>
               <span>${n}9</span></div>"#
        )
    };
    let cards: String = (1..=8).map(card).collect();
    let html = format!(
        r#"<body><main><div class="product">
             <h1>Brass Desk Lamp</h1><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
             <table><tr><th>Height</th><td>42 cm</td></tr><tr><th>Bulb</th><td>E27, 40 W max</td></tr></table>
             <div class="shelf">{cards}</div>
           </div></main></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Brass Desk Lamp", "Lichens grow slowly", "42 cm"],
        &["Other lamp number"],
    );
}

/// A reader's comment: prose, like the article it follows.
fn comment(i: u32) -> String {
    format!(
        "<li class='comment'><div class='comment-author'><a href='/u{i}'>Reader {i}</a></div>\
         <div class='comment-body'><p>COMMENT{i} I tried this on my own garden wall last spring, \
         and the grey crust that everybody calls dirt turned out to be three species at least.</p></div></li>"
    )
}

#[test]
fn comments_under_an_article_go_however_long_the_thread() {
    // Thirty comments hold far more text than the post: still not the page's content.
    let comments: String = (0..30).map(comment).collect();
    let body = paras(2);
    let html = format!(
        r#"<body><div id="content"><div class="post"><h1>Lichens on Old Walls</h1>
        <div class="entry-content">{body}</div></div>
        <div id="comments"><h3>30 Responses to “Lichens on Old Walls”</h3><ol class="commentlist">{comments}</ol>
        <div id="respond"><h3>Leave a Reply</h3><p>Your email address will not be published.</p></div></div>
        </div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1.", "Part 2."],
        &["COMMENT0", "COMMENT29", "Responses to", "Leave a Reply"],
    );
}

#[test]
fn comments_announced_only_by_a_heading_go() {
    // No class names: a heading titles the comments, which follow as plain siblings.
    let comments: String = (0..12)
        .map(|i| {
            format!(
                "<div id='c{i}'><p>COMMENT{i} Same here, the old churchyard wall near us is covered \
                 in orange and grey patches every winter.</p></div><p class='posted'>Posted by: Reader {i}</p>"
            )
        })
        .collect();
    let body = paras(2);
    let html = format!(
        r#"<body><div id="center"><div class="content"><h2>Lichens on Old Walls</h2>{body}
        <p class="posted">Posted by the author</p><h2 id="comments">Comments</h2>{comments}</div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Lichens on Old Walls", "partnership between a fungus"],
        &["COMMENT0", "COMMENT11", ">Comments<"],
    );
}

#[test]
fn forum_replies_named_as_comments_stay() {
    // Forum software names every post, the opening one included, a comment.
    let posts: String = (0..6)
        .map(|i| {
            format!(
                "<article class='post comment' id='comment-{i}'><div class='author'>user{i}</div>\
                 <div class='comment-content'><p>POST{i} {PROSE}</p></div></article>"
            )
        })
        .collect();
    let html =
        format!(r#"<body><main><div class="topic"><h1>Best lichen guide?</h1>{posts}</div></main></body>"#);
    let out = main_content(&html);
    for i in 0..6 {
        assert!(out.contains(&format!("POST{i} ")), "lacks post {i}:\n{out}");
    }
}

#[test]
fn the_post_footer_after_the_body_goes() {
    // Tags, sharing, previous/next and a related list after the last sentence: furniture.
    let related: String = (0..3)
        .map(|i| format!("<li><a href='/r{i}'>RELATED{i} Another story about walls</a></li>"))
        .collect();
    let body = paras(6);
    let html = format!(
        r#"<body><main><article><h1>Lichens on Old Walls</h1>{body}
        <figure><img src="/wall.jpg" alt=""><figcaption>A wall in May.</figcaption></figure>
        <div class="post-tags">Tags: <a href="/t/lichen">TAGLICHEN</a>, <a href="/t/walls">TAGWALLS</a></div>
        <div class="nav-links"><a href="/prev">PREVPOST Moss on roofs</a> <a href="/next">NEXTPOST Ferns in cracks</a></div>
        <h3>You might also enjoy</h3><ul class="list">{related}</ul></article></main></body>"#
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Lichens on Old Walls",
            "partnership between a fungus",
            "A wall in May.",
        ],
        &["TAGLICHEN", "PREVPOST", "RELATED0", "RELATED2"],
    );
}

#[test]
fn a_small_link_widget_is_not_chosen_over_the_long_body() {
    // A column of teaser links whose many links add up to more worth than a short post.
    let teasers: String = (0..40)
        .map(|i| {
            format!(
                "<li class='item'><a href='/s{i}'>WIDGET{i} A teaser headline about another subject</a> \
                 <span>(12)</span></li>"
            )
        })
        .collect();
    let body = paras(5);
    let html = format!(
        r#"<body><div id="page"><div class="story">{body}</div>
        <div id="more"><div class="module-content"><ul class="module-list">{teasers}</ul></div></div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(&out, &["partnership between a fungus"], &["WIDGET0", "WIDGET39"]);
}

/// A site footer of its own prose (an "about this blog" text) and a short note outside the
/// post: enough text that the post is not most of the page, and a small block that would
/// be chosen if the post were taken for chrome.
fn footer_and_note() -> (String, &'static str) {
    let blurbs: String = (1..=6)
        .map(|i| {
            format!(
                "<p>FOOTERTEXT{i} This blog has been written since the spring of 2009 by two gardeners \
                 who share one allotment, a shed and a stubborn love of moss.</p>"
            )
        })
        .collect();
    (
        format!("<footer>{blurbs}</footer>"),
        "<div class='note'><p>NOTEBLOCK Photographs by the authors, taken on walks around the town.</p></div>",
    )
}

#[test]
fn a_boilerplate_word_on_the_posts_wrapper_does_not_hide_the_post() {
    // Blog engines write the post's tags into its classes (`tag-cookie-recipes`); a
    // wrapper named for its share buttons holds the article (`share_wrapper`).
    let (footer, note) = footer_and_note();
    for wrapper in [
        "<div class='post hentry tag-cookie-recipes tag-dogs'>",
        "<div class='share_wrapper'><div class='article'>",
    ] {
        let close = "</div>".repeat(wrapper.matches("<div").count());
        let html = format!(
            r#"<body><div id="page"><div id="content">{wrapper}<h1>Lichens on Old Walls</h1>
            <div class="entry-content">{}</div>{close}</div>{note}</div>{footer}</body>"#,
            paras(5)
        );
        let out = main_content(&html);
        assert_kept(
            &out,
            &["Part 1. Lichens", "Part 5. Lichens"],
            &["NOTEBLOCK", "FOOTERTEXT1"],
        );
    }
}

#[test]
fn the_articles_body_inside_a_chrome_named_box_is_content() {
    // `modal-enabled` names what the box can open, not what it is.
    let (footer, note) = footer_and_note();
    let html = format!(
        r#"<body><div id="page"><div class="box article modal-enabled"><div class="article-header">
        <h1>Lichens on Old Walls</h1><div class="entry-content">{}</div></div></div>{note}</div>{footer}</body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 5. Lichens"],
        &["NOTEBLOCK", "FOOTERTEXT1"],
    );
}

#[test]
fn a_list_of_bare_headlines_beside_an_article_goes() {
    // "Most read": headline links and their counts, in a plain list beside the article
    // (a regression guard: bare headline records weigh as links on article pages).
    let headlines: String = (0..30)
        .map(|i| {
            format!(
                "<li><a href='/story/{i}'>HEADLINE{i} Council approves the new bridge over the river</a> \
                 <a href='/story/{i}#comments'>({i})</a></li>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><div id="page"><div class="story"><h1>Lichens on Old Walls</h1>{}</div>
        <div id="midbar"><ul>{headlines}</ul></div></div></body>"#,
        paras(6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["HEADLINE0", "HEADLINE29"],
    );
}

#[test]
fn a_call_to_action_box_inside_an_article_goes() {
    // A newsletter box and a "book a demo" box dropped into and under the post: a short
    // message and a control each, far smaller than the prose.
    let html = format!(
        r#"<body><div class="wrap"><article><h1>Lichens on Old Walls</h1>{}
        <div class="promo"><h3>PROMOHEAD Never miss a post</h3><p>Weekly notes from the field.</p>
        <a class="btn" href="/subscribe">Subscribe</a></div>{}
        <div class="cta-box"><p>CTABOX See how teams map their walls</p><a href="/demo">Book a demo</a></div>
        </article></div></body>"#,
        paras(3),
        paras(3)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 3. Lichens"],
        &["PROMOHEAD", "CTABOX"],
    );
}

#[test]
fn cards_with_buttons_inside_an_article_stay() {
    // The same shape (a heading, a line, a button) repeated as cards of one template is
    // content, even inside a long article: records are never call-to-action boxes.
    let cards: String = (0..6)
        .map(|i| {
            format!(
                "<div class='plan'><h3>PLAN{i} Survey package</h3><p>Walls mapped in a day, report in a week.</p>\
                 <a class='btn' href='/buy/{i}'>Get started</a></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><main><h1>Plans</h1>{}<div class="plans">{cards}</div>{}</main></body>"#,
        paras(4),
        paras(2)
    );
    let out = main_content(&html);
    assert_kept(&out, &["PLAN0", "PLAN5", "Part 4. Lichens"], &[]);
}

#[test]
fn a_drop_down_of_names_among_page_sections_is_not_a_listing() {
    // Page regions grouped by tag alone (header, menus, content) are not cards: a region
    // that is a drop-down of 60 team names does not pull the container over the page.
    let names: String = (0..60)
        .map(|i| format!("<li class='select-item'><a href='/teams/{i}'>TEAM{i} City</a></li>"))
        .collect();
    let html = format!(
        r#"<body><div class="wrap"><div class="head"><h2>Sport</h2><a href="/">Home</a></div>
        <div class="teams"><h2>Select a team</h2><ul class="select-body">{names}</ul></div>
        <div class="content"><h1>Midfielder out for six weeks</h1><p>{PROSE}</p><p>{PROSE}</p></div></div></body>"#
    );
    let out = main_content(&html);
    assert_kept(&out, &["partnership between a fungus"], &["TEAM0", "TEAM59"]);
}

#[test]
fn headline_lists_beside_the_articles_body_go() {
    // A short post in a layout of columns: "Top stories" and "Recent posts" modules (lists
    // whose every item is a link, or links written with line breaks) sit in the container
    // beside the body and go; the body's own reading list stays. The side column after the
    // body, mostly links with a note among them, goes whole (a block of links after the
    // body, see `article_furniture.rs`).
    let list = |name: &str| -> String {
        (0..6)
            .map(|i| format!("<li><a href='/{name}/{i}'>{name}{i} Council approves the new bridge</a></li>"))
            .collect()
    };
    let html = format!(
        r#"<body><div class="grid"><div class="col-main">
        <div class="art-content"><h1>Lichens on Old Walls</h1>{}
        <p>Further reading:</p><ul>{}</ul></div>
        <div class="col"><div class="mod"><h3>Top stories</h3><ul>{}</ul></div></div>
        <div class="col"><div class="mod"><h3>Recent posts</h3><ul>{}</ul></div></div></div>
        <div class="col-side"><div class="mod"><h3>More news</h3><ul>{}</ul></div>
        <div class="mod"><h3>Friends</h3><div>{}</div></div>
        <div class="note"><p>SIDENOTE The society meets on the first Monday of the month, in the library.</p></div></div></div></body>"#,
        paras(5),
        list("READING"),
        list("TOPSTORY"),
        list("RECENT"),
        list("MORENEWS"),
        (0..5)
            .map(|i| format!("<a href='/friend/{i}'>FRIEND{i} Garden notes</a><br>"))
            .collect::<String>()
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 5. Lichens", "READING0", "READING5"],
        &[
            "SIDENOTE",
            "TOPSTORY0",
            "RECENT5",
            "MORENEWS3",
            "Top stories",
            "FRIEND0",
            "FRIEND4",
        ],
    );
}

#[test]
fn a_sidebar_word_on_the_pages_body_does_not_hide_the_article_from_the_comment_walk() {
    // `<body class="one-sidebar">` is a layout modifier: the post's prose inside it is
    // still the article its comments follow, so the thread (most of the page) goes.
    let comments: String = (0..12).map(comment).collect();
    let html = format!(
        r#"<body class="page one-sidebar"><div class="wrap"><div class="node"><h1>Lichens on Old Walls</h1>
        <div class="entry-content">{}</div></div>
        <div id="comments" class="comments"><h3>There are 12 comments. <a href="/login">Add yours.</a></h3>
        <ol>{comments}</ol></div></div></body>"#,
        paras(2)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 2. Lichens"],
        &["COMMENT0", "COMMENT11", "There are 12 comments"],
    );
}

#[test]
fn costly_parts_inside_a_force_included_element_are_pruned() {
    // `#main` (upstream's force-include list) is never removed, but the comments and the
    // share bar inside it are not content: it is no longer kept whole.
    let comments: String = (0..6).map(comment).collect();
    let html = format!(
        r#"<body><div class="page"><h1>Lichens on Old Walls</h1><p>DEK {PROSE}</p><p>Second. {PROSE}</p>
        <div id="main"><div class="story">{}
        <div class="share-bar"><a href="/s/tw">Share</a> <a href="/s/fb">Tweet</a></div></div>
        <div id="comments" class="comments-area"><h3>6 Comments</h3><ol>{comments}</ol></div></div></div></body>"#,
        paras(4)
    );
    let out = main_content(&html);
    assert!(out.contains("id=\"main\""), "#main itself stays:\n{out}");
    assert_kept(
        &out,
        &["DEK Lichens", "Part 1. Lichens", "Part 4. Lichens"],
        &["COMMENT0", "COMMENT5", "Tweet"],
    );
}

#[test]
fn tab_panels_inside_a_tablist_are_the_pages_text() {
    // A page builder wraps its tab panels in the `role=tablist` element: the first panel is
    // the department's text, the others are link lists. The tablist is no menu here: its
    // prose panel holds most of the page's text and must not lose to the one-line heading.
    let links: String = (0..14)
        .map(|i| format!("<li><a href='/forms/{i}'>Application form number {i}</a></li>"))
        .collect();
    let html = format!(
        r##"<body><header><nav><ul><li><a href="/">Home</a></li><li><a href="/gov">Government</a></li></ul></nav></header>
        <div role="main"><h1>Building Department</h1>
        <div class="tabbed" role="tablist"><ul><li><a href="#t0">Information</a></li><li><a href="#t1">Forms</a></li></ul>
        <div class="panels"><div role="tabpanel" id="t0"><p>{PROSE}</p><p>{PROSE}</p><p>The office issues permits and inspects every project that costs more than a thousand dollars.</p></div>
        <div role="tabpanel" id="t1"><ul>{links}</ul></div></div></div></div>
        <footer><p>Town Hall is open Monday to Friday from eight to four. Call the clerk for records requests, meeting minutes and the agenda of the next council session; the offices are closed on state holidays and during elections.</p><a href="/terms">Terms</a></footer></body>"##
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Lichens grow slowly", "issues permits"],
        &["Government", "Terms", "Town Hall"],
    );
}

#[test]
fn a_boilerplate_word_on_the_wrapper_of_a_named_feed_does_not_drop_it() {
    // The theme's wrapper around a news feed carries an ad-slot word
    // (`section-more-ads`), but the element filling it is named as the feed and holds most
    // of the page: the wrapper's word is a layout modifier, and the small featured card
    // above must not win alone.
    let cards: String = (0..8)
        .map(|i| {
            format!(
                "<div class='feed-row'><h3><a href='/s/{i}'>Council votes on the new lichen \
                 reserve, part {i}</a></h3><p>The reserve would protect old walls in the \
                 valley, where surveyors counted many rare species this spring.</p></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><header><nav><a href="/">Home</a> <a href="/topics">Topics</a></nav></header>
        <main><ul class="featured"><li><article class="card"><a href="/s/f">Featured: the lichen walk</a> <span>Ann Lee</span></article></li></ul></main>
        <div class="container section-more-ads"><div class="col"><section class="section-feed article-list">{cards}</section></div></div>
        <footer><p>Town Hall is open Monday to Friday from eight to four. Call the clerk for records requests, meeting minutes and the agenda of the next council session; the offices are closed on state holidays and during elections.</p><a href="/terms">Terms</a></footer></body>"#
    );
    let out = main_content(&html);
    for i in 0..8 {
        assert_kept(&out, &[&format!("lichen reserve, part {i}")], &[]);
    }
    assert_kept(&out, &[], &["Topics", "Terms", "Town Hall"]);
}
