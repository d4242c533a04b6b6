//! `onlyMainContent`: a template's labels repeated beside each picture go, in two more
//! shapes than a gallery's block under the image: a definition list's description beside
//! the term holding the picture (the `wp-caption` figure's credit, on a page that is
//! mostly pictures and need not read as an article), and a label hidden until a script
//! shows it whose number changes per picture ("Img ID#101 Title:").

mod common;

use common::{PROSE, assert_kept, main_content, paras};

/// `n` figures, each a picture in a `<dt>` and `caption(i)` in a `<dd>`.
fn figures(n: usize, caption: impl Fn(usize) -> String) -> String {
    (1..=n)
        .map(|i| {
            format!(
                r#"<dl class="wp-caption"><dt><a href="/p{i}.jpg"><img src="/p{i}.jpg"></a></dt>
                <dd><strong><a href="https://example.org/pages">{}</a></strong></dd></dl>"#,
                caption(i)
            )
        })
        .collect()
}

#[test]
fn a_credit_repeated_in_each_figures_description_goes() {
    let html = format!(
        r#"<body><div class="article-content"><p>Front pages of the day. {PROSE}</p>{}</div>
        </body>"#,
        figures(8, |_| "Front page appears courtesy of the Museum".into())
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Front pages of the day", "/p1.jpg"],
        &["courtesy of the Museum"],
    );
}

#[test]
fn captions_that_differ_in_each_figure_stay() {
    let html = format!(
        r#"<body><div class="article-content"><p>Front pages of the day. {PROSE}</p>{}</div>
        </body>"#,
        figures(8, |i| format!("The front page of paper number {i} today"))
    );
    let out = main_content(&html);
    assert_kept(&out, &["paper number 1 today", "paper number 8 today"], &[]);
}

#[test]
fn a_hidden_numbered_label_by_each_picture_goes() {
    let pictures: String = (101..=108)
        .map(|i| {
            format!(
                r#"<div class="image-wrapper"><div class="edit-name" style="display: none;">
                <strong>Img ID#{i} Title:</strong> <div class="edit"></div></div>
                <div class="caption-image"><img src="/i{i}.jpg" alt=""></div></div>"#
            )
        })
        .collect();
    let html = format!(r#"<body><div class="entry">{}{pictures}</div></body>"#, paras(5));
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "/i101.jpg"], &["Img ID", "Title:"]);
}
