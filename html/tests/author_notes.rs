//! The author's biography the head's JSON-LD gives (`author.description`), printed in a
//! plain paragraph under the post, goes; the same writer's paragraph that differs from
//! the data, and the bio on a page whose head gives none, stay.

mod common;
use common::{assert_kept, main_content, paras};

const BIO: &str = "Ann Lee is a freelance writer living in Leeds. Over the past ten years she has \
    covered gardens, old houses and the plants that grow on their walls.";

fn page(description: &str, closing: &str) -> String {
    let ld = format!(
        r#"<script type="application/ld+json">{{"@context":"https://schema.org","@type":"BlogPosting",
        "headline":"Lichens on Old Walls","author":{{"@type":"Person","name":"Ann Lee",
        "description":"{description}"}}}}</script>"#
    );
    format!(
        r#"<html><head>{ld}</head><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="entry">{}<p>{closing}</p></div></div></body></html>"#,
        paras(8)
    )
}

#[test]
fn the_bio_the_head_gives_goes() {
    // Written as HTML in the data, with its words spelled alike.
    let out = main_content(&page(&format!("<p>{BIO}</p>"), BIO));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens"],
        &["Ann Lee is a freelance"],
    );
}

#[test]
fn the_first_paragraph_of_a_longer_bio_goes() {
    let long = format!("{BIO} Her book on dry-stone walls came out in spring.");
    let out = main_content(&page(&long, BIO));
    assert_kept(&out, &["Part 8. Lichens"], &["Ann Lee is a freelance"]);
}

#[test]
fn a_closing_paragraph_that_differs_from_the_data_stays() {
    let own = "Ann Lee is a freelance writer living in Leeds, and this is the last of her columns \
        on the walls of the old town, which she has walked for ten years.";
    let out = main_content(&page(BIO, own));
    assert_kept(&out, &["Part 8. Lichens", "this is the last of her columns"], &[]);
}

#[test]
fn a_bio_without_data_in_the_head_stays() {
    let out = main_content(&page("Staff writer.", BIO));
    assert_kept(&out, &["Part 8. Lichens", "Ann Lee is a freelance"], &[]);
}

#[test]
fn the_bio_of_a_person_node_of_the_graph_goes() {
    // The article's `author` points to the writer by `@id`; the writer's node holds the bio.
    let ld = format!(
        r#"<script type="application/ld+json">{{"@context":"https://schema.org","@graph":[
        {{"@type":"Article","author":{{"@id":"https://example.com/#/person/ann"}}}},
        {{"@type":"Person","@id":"https://example.com/#/person/ann","name":"Ann Lee",
        "description":"{BIO}"}}]}}</script>"#
    );
    let html = format!(
        r#"<html><head>{ld}</head><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="entry">{}<p>{BIO}</p></div></div></body></html>"#,
        paras(8)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 8. Lichens"], &["Ann Lee is a freelance"]);
}
