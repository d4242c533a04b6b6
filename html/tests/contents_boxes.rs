//! `onlyMainContent` on posts with a table of contents: a box titled "In this article"
//! (or a list under a "Table of contents" heading) whose links all point to the post's
//! own sections goes; a list of the same links announced by a sentence of the post, and a
//! forum post whose header links repeat its one permalink, stay.

mod common;

use common::{PROSE, assert_kept, main_content};

/// A post of three sections, each a heading with an `id` and two paragraphs.
fn sections() -> String {
    ["roots", "spores", "walls"]
        .iter()
        .map(|s| {
            format!(r#"<h2 id="{s}">On {s}</h2><p>Of {s}, first. {PROSE}</p><p>Of {s}, then. {PROSE}</p>"#)
        })
        .collect()
}

#[test]
fn a_titled_box_of_links_to_the_posts_sections_goes() {
    let html = format!(
        r##"<body><article><h1>Lichens on Old Walls</h1><p>Intro. {PROSE}</p>
        <div class="box-gray"><p><strong>IN THIS ARTICLE</strong></p><ul>
        <li><a href="#roots">Where the roots hold TOCONE</a></li>
        <li><a href="#spores">How the spores travel TOCTWO</a></li>
        <li><a href="#walls">Which walls they like TOCTHREE</a></li></ul></div>
        {}</article></body>"##,
        sections()
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Intro.", "Of roots, first.", "Of walls, then."],
        &["IN THIS ARTICLE", "TOCONE", "TOCTWO", "TOCTHREE"],
    );
}

#[test]
fn a_list_of_section_links_under_a_contents_heading_goes() {
    let html = format!(
        r##"<body><article><h1>Lichens on Old Walls</h1><p>Intro. {PROSE}</p>
        <h3>Jump to</h3><ul>
        <li><a href="https://example.com/page#roots">Where the roots hold TOCONE</a></li>
        <li><a href="https://example.com/page#spores">How the spores travel TOCTWO</a></li>
        <li><a href="https://example.com/page#walls">Which walls they like TOCTHREE</a></li></ul>
        {}</article></body>"##,
        sections()
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Intro.", "Of roots, first."],
        &["TOCONE", "TOCTWO", "TOCTHREE"],
    );
}

#[test]
fn section_links_announced_by_a_sentence_stay() {
    let html = format!(
        r##"<body><article><h1>Lichens on Old Walls</h1><p>Intro. {PROSE}</p>
        <p>Use the section links below to skip ahead to the part you need today.</p><ol>
        <li><a href="#roots">Where the roots hold TOCONE</a></li>
        <li><a href="#spores">How the spores travel TOCTWO</a></li>
        <li><a href="#walls">Which walls they like TOCTHREE</a></li></ol>
        {}</article></body>"##,
        sections()
    );
    let out = main_content(&html);
    assert_kept(&out, &["TOCONE", "TOCTWO", "TOCTHREE", "Of roots, first."], &[]);
}

#[test]
fn links_to_another_pages_sections_stay() {
    let html = format!(
        r##"<body><article><h1>Lichens on Old Walls</h1><p>Intro. {PROSE}</p>
        <div class="box-gray"><p><strong>Further reading</strong></p><ul>
        <li><a href="https://example.org/roots#top">Where the roots hold OTHERONE</a></li>
        <li><a href="https://example.org/spores#top">How the spores travel OTHERTWO</a></li>
        <li><a href="https://example.org/walls#top">Which walls they like OTHERTHREE</a></li></ul></div>
        {}</article></body>"##,
        sections()
    );
    let out = main_content(&html);
    assert_kept(&out, &["OTHERONE", "OTHERTHREE", "Of walls, then."], &[]);
}

#[test]
fn a_short_post_under_its_repeated_permalink_stays() {
    let post = |n: usize, body: &str| {
        format!(
            r##"<div class="message"><div class="head"><a href="#post-{n}">Mar 27, 2025</a>
            <a href="#post-{n}">Share</a> <a href="#post-{n}">#{n}</a></div>
            <div class="body">{body}</div></div>"##
        )
    };
    let html = format!(
        "<body><div class=\"thread\"><h1>Lichens on Old Walls</h1>{}{}{}{}</div></body>",
        post(1, &format!("First. {PROSE}")),
        post(2, "Friends? POSTREPLY"),
        post(3, &format!("Third. {PROSE}")),
        post(4, &format!("Fourth. {PROSE}")),
    );
    let out = main_content(&html);
    assert_kept(&out, &["First.", "POSTREPLY", "Fourth."], &[]);
}
