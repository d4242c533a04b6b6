//! `onlyMainContent`: a script's "Loading …" placeholder inside the post (a spinner's
//! label, "Loading specifications…") goes; a heading or a list item that opens with
//! "Loading" and has no ellipsis stays.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn a_loading_placeholder_goes_and_a_title_opening_with_loading_stays() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <div class="panel"><div class="wait"><div class="spinner"></div>
        <span>Loading PLACEHOLDERA specifications&#8230;</span></div></div>{}
        <div class="more"><p>Loading PLACEHOLDERB posts...</p></div>
        <h2>Loading TITLELINE States and Performance</h2>
        <ul><li>Loading ITEMLINE indicators during a fetch</li></ul>{}</div></div></body>"#,
        paras_from(1, 3),
        paras_from(4, 6),
        paras_from(7, 9)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 9. Lichens", "TITLELINE", "ITEMLINE"],
        &["PLACEHOLDERA", "PLACEHOLDERB"],
    );
}
