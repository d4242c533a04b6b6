//! `onlyMainContent` on article pages: the furniture sites put around and after a post
//! (teasers of other posts, side columns) goes; the post, and what a page that is not
//! one article says, stays.

mod common;

use common::{assert_kept, main_content};

/// `n` paragraphs of prose, "Part 1." to "Part n.".
fn paras(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "<p>Part {i}. Lichens grow slowly on old stone, and a wall can carry dozens of \
                 species. Each one is a partnership between a fungus and an alga, which is why \
                 they survive where nothing else does.</p>"
            )
        })
        .collect()
}

/// Teasers of other posts: a linked title and a one-line blurb each.
fn teasers(name: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<div class=\"tile\"><h3><a href=\"/{name}/{i}\">{name}{i} The council approves \
                 a bridge</a></h3><p>Residents argued for years about the crossing, and the vote \
                 was closer than anyone expected.</p></div>"
            )
        })
        .collect()
}

#[test]
fn teasers_with_blurbs_after_the_articles_body_go() {
    // A row of teasers under the post, each a title link and a blurb of a sentence: a
    // third of its text is links, too little for a headline list or a shelf of link cards,
    // and the blurbs are sentences after the body's last one; but it follows the body and
    // says less than it.
    let html = format!(
        r#"<body><div class="page"><h1>Lichens on Old Walls</h1><div class="text">{}</div>
        <div class="row"><h2>Elsewhere</h2>{}</div></div></body>"#,
        paras(8),
        teasers("TEASER", 4)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens"],
        &["TEASER0", "TEASER3"],
    );
}

#[test]
fn lists_after_an_introduction_that_is_a_small_part_of_the_page_stay() {
    // A hub page: an introduction of a few paragraphs, then the pieces it introduces,
    // listed with a line each. The introduction says less than a third of the page, so
    // what follows it is the page's content, not furniture of an article.
    let list = |part: usize| -> String {
        let items: String = (0..12)
            .map(|i| {
                format!(
                    "<li><a href=\"/p/{part}/{i}\">PIECE{part}x{i} Crustose lichens</a> \
                     growing flat on granite and old brick walls</li>"
                )
            })
            .collect();
        format!("<h2>Group {part}</h2><ul>{items}</ul>")
    };
    let html = format!(
        r#"<body><div class="page"><h1>Lichens</h1><div class="text">{}</div>
        <div class="pieces">{}</div></div></body>"#,
        paras(5),
        (1..=4).map(list).collect::<String>()
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "PIECE1x0", "PIECE4x11"], &[]);
}
