//! `onlyMainContent` on article pages: a shelf of template-built teaser cards written
//! into the story between its paragraphs goes; the author's own picks in the story's
//! flow, and cards whose titles are names, stay.

mod common;

use common::{assert_kept, main_content, paras_from};

/// A story of twelve paragraphs with `shelf` between its sixth and seventh.
fn story(shelf: &str) -> String {
    format!(
        r#"<body><article><h1>Lichens on Old Walls</h1><div class="entry-content">
        <p class="dek">A walk along the harbour's oldest walls.</p><div class="story">{}{shelf}{}</div>
        </div></article><footer><a href="/terms">Terms</a></footer></body>"#,
        paras_from(1, 6),
        paras_from(7, 12)
    )
}

/// Three cards, each `<li {attrs}>` holding a linked heading `title(i)` and a blurb.
fn cards(attrs: &str, title: impl Fn(usize) -> String) -> String {
    let items: String = (0..3)
        .map(|i| {
            format!(
                "<li {attrs}><h3><a href='/news/p{i}'>{}</a></h3><p>Teaser blurb {i} tells \
                 the reader what the other story covers, in a sentence or two of its own.</p></li>",
                title(i)
            )
        })
        .collect();
    format!("<ul class='cards'>{items}</ul>")
}

fn headline(i: usize) -> String {
    format!("Seven ways the city is rethinking its bridges, part {i}")
}

#[test]
fn a_shelf_of_template_cards_inside_the_story_goes() {
    let out = main_content(&story(&cards("class='card'", headline)));
    assert_kept(
        &out,
        &[
            "Part 1. Lichens",
            "Part 6. Lichens",
            "Part 7. Lichens",
            "Part 12. Lichens",
        ],
        &["Teaser blurb", "rethinking its bridges"],
    );
}

#[test]
fn the_authors_list_in_the_storys_flow_stays() {
    // The same cards as bare list items (no template class): the author's own picks.
    let out = main_content(&story(&cards("", headline)));
    assert_kept(
        &out,
        &["Part 12. Lichens", "Teaser blurb 0", "rethinking its bridges"],
        &[],
    );
}

#[test]
fn cards_titled_by_names_stay() {
    // Template cards whose titles are a feature's or a person's name: a service's or a
    // team's own blocks, not other pages' headlines.
    let out = main_content(&story(&cards("class='card'", |i| format!("Forms {i}"))));
    assert_kept(
        &out,
        &["Part 12. Lichens", "Teaser blurb 0", "Teaser blurb 2"],
        &[],
    );
}
