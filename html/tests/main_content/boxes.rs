//! Boxes, lists and wrappers inside or beside an article: chrome-named boxes holding the body,
//! headline lists, calls to action, cards with buttons, tab panels, named feeds.

use super::comments::comment;
use super::*;

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
