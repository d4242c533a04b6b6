//! `onlyMainContent` on pages that render a long heading twice: the repeat goes when it
//! stands in another kind of block (a tab list, then the tab's panel); headings repeated by
//! each instance of one template, short labels and linked titles stay.

mod common;

use common::{PROSE, assert_kept, main_content, paras_from};

#[test]
fn a_long_heading_shown_again_over_its_section_goes_once() {
    let html = format!(
        r#"<body><main><h1>Our Platform</h1>{}
        <div class="tabs"><h3>The richest data layer for every team TWICETITLE</h3>
        <p>Short teaser of the feature for the tab strip.</p></div>
        <section class="panel"><h3>The richest data layer for every team TWICETITLE</h3>
        <p>Panel. {PROSE}</p></section>{}</main></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1.", "Panel.", "TWICETITLE"], &[]);
    assert_eq!(out.matches("TWICETITLE").count(), 1, "{out}");
}

#[test]
fn headings_repeated_by_tabs_labels_and_links_stay() {
    let html = format!(
        r#"<body><article><h1>Sending a message</h1>{}
        <div class="tab" data-lang="python"><h2>Do not include credentials in production apps TABHEAD</h2><p>Python. {PROSE}</p></div>
        <div class="tab" data-lang="ruby"><h2>Do not include credentials in production apps TABHEAD</h2><p>Ruby. {PROSE}</p></div>
        <section><h3>Overview LABEL</h3><p>First. {PROSE}</p></section>
        <div><div><h3>Overview LABEL</h3><p>Second. {PROSE}</p></div></div>
        {}</article></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_eq!(out.matches("TABHEAD").count(), 2, "{out}");
    assert_eq!(out.matches("LABEL").count(), 2, "{out}");
}
