//! `onlyMainContent` on a post followed by its readers' reactions, one list item each
//! ("ann liked this", "bob reblogged this from ann and added: …"): the list goes; a list
//! of products (a title link, a brand, a price) and an author's reading list stay.

mod common;

use common::{assert_kept, main_content, paras_from};

fn page(list: &str) -> String {
    format!(
        r#"<body><div id="container"><div class="post"><h2>Lichens on Old Walls</h2>{}
        <ol class="log">{list}</ol></div></div></body>"#,
        paras_from(1, 3)
    )
}

fn reactions() -> String {
    (0..16)
        .map(|i| match i % 3 {
            0 => format!(r#"<li><a href="/u{i}">reader{i}</a> <span>liked this</span></li>"#),
            1 => format!(
                r#"<li><a href="/u{i}">reader{i}</a> <span>reblogged this from
                <a href="/u0">reader0</a></span></li>"#
            ),
            _ => format!(
                r#"<li><a href="/u{i}">reader{i}</a> <span>reblogged this from
                <a href="/u0">reader0</a> and added:</span>
                <blockquote><a href="/p{i}">So good, REACTIONQUOTE{i}</a></blockquote></li>"#
            ),
        })
        .collect()
}

#[test]
fn a_list_of_reactions_goes() {
    let out = main_content(&page(&reactions()));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 3. Lichens"],
        &["liked this", "reblogged this", "REACTIONQUOTE"],
    );
}

#[test]
fn a_list_of_products_with_their_brand_stays() {
    let products: String = (0..16)
        .map(|i| {
            format!(
                r#"<li><a href="/c{i}">Mesh Task Chair Model {i}</a> <span>Acme Seating</span> $403.00</li>"#
            )
        })
        .collect();
    let out = main_content(&page(&products));
    assert_kept(
        &out,
        &["Part 3. Lichens", "Model 1<", "Model 15<", "Acme Seating"],
        &[],
    );
}

#[test]
fn a_reading_list_by_its_authors_stays() {
    let authors = ["Ann Lee", "Bo Park", "Cy Adams", "Di Ross"];
    let books: String = (0..12)
        .map(|i| {
            let author = authors[i % 4];
            format!(r#"<li><a href="/b{i}">Lichens of the North, volume {i}</a> by {author}</li>"#)
        })
        .collect();
    let out = main_content(&page(&books));
    assert_kept(
        &out,
        &["Part 3. Lichens", "volume 0<", "volume 11<", "by Di Ross"],
        &[],
    );
}
