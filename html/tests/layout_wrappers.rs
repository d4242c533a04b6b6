//! `onlyMainContent`: a class naming a sidebar on the wrapper of a page's layout
//! (`layout-sidebar-left`: the layout with a left column) is not a sidebar when the
//! wrapper holds half the page's plain text and is filled by an element named as content
//! (`layout-main`), even when a large menu elsewhere holds most of the page's characters
//! and the wrapper's links (the side column's menu, pointers in the text) are a good part
//! of it. A side column named so, holding little of the page, still goes.

mod common;

use common::{PROSE, assert_kept, main_content};

/// A header with a large drop-down menu (most of the page's characters).
fn menu() -> String {
    let items: String = (1..=40)
        .map(|i| format!(r#"<li><a href="/topic/{i}">Topic number {i} of the site's guides</a></li>"#))
        .collect();
    format!(r#"<header><nav><ul>{items}</ul></nav></header>"#)
}

/// Pointers to the guide's steps inside the text, as links with their blurbs.
fn steps() -> String {
    (1..=4)
        .map(|i| {
            format!(
                r#"<div class="step"><a href="/guide/step-{i}">Step {i} of the guide to walls and
                their lichens</a><p>STEP{i} Five things to consider.</p></div>"#
            )
        })
        .collect()
}

#[test]
fn a_layout_named_for_its_sidebar_around_the_named_content_is_kept() {
    let side: String = (1..=3)
        .map(|i| format!(r#"<li><a href="/guide/part-{i}">Part {i}</a></li>"#))
        .collect();
    let also: String = (1..=3)
        .map(|i| {
            format!(
                r#"<div class="card"><a href="/other/{i}"><h3>ALSO{i} Another guide to read</h3>
                <p>Tips to help you with another subject, and more.</p></a></div>"#
            )
        })
        .collect();
    let html = format!(
        r#"<html><body>{}<main><div class="layout-sidebar-left">
        <div class="layout-sidebar-top"><nav><ul>{side}</ul></nav></div>
        <div class="layout-main"><h1>A Guide to Old Walls</h1>
        <p>INTRO {PROSE}</p><p>SECOND {PROSE}</p>{}</div></div>
        <section class="also"><h2>Also see</h2>{also}</section></main>
        <footer><p>FOOTER The office is open on weekdays from nine to five, closed on public
        holidays, and the switchboard answers questions about the guides and the site.</p>
        </footer></body></html>"#,
        menu(),
        steps()
    );
    let out = main_content(&html);
    assert_kept(&out, &["INTRO", "SECOND", "STEP1"], &["Topic number 1", "FOOTER"]);
}

#[test]
fn a_sidebar_filled_by_a_content_named_box_and_holding_little_still_goes() {
    let html = format!(
        r#"<html><body>{}<main><article><h1>A Guide to Old Walls</h1>{}</article>
        <div class="sidebar-right"><div class="text-content"><p>SIDE Our team answers questions
        about walls, lichens and mosses, and visits sites on request.</p>
        <a href="/contact">Contact the team</a></div></div></main></body></html>"#,
        menu(),
        common::paras(6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["SIDE", "Topic number 1"],
    );
}
