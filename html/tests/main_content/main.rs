//! `onlyMainContent` on whole pages of each kind the extractor is meant for, built from
//! the patterns real sites use (landmarks, CMS class names, cards, posts), plus the
//! upstream semantics users rely on.
//! Comments and post footers are in `comments.rs`, boxes and lists inside or beside an article in `boxes.rs`.

#[path = "../common/mod.rs"]
mod common;

use common::{PROSE, assert_kept, main_content, paras};
use distill_html::{CleanOptions, ParsedPage};
use url::Url;

mod boxes;
mod comments;

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
