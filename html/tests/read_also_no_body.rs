//! `onlyMainContent` on article pages where no element holds the post apart from the
//! container (its paragraphs sit in the container itself): a "read also" line among the
//! paragraphs goes when its label is set in bold outside the link ("**Read More**: <a
//! headline>"); a plain label and a label spelled inside the link stay.

mod common;

use common::{assert_kept, main_content, paras_from};

fn page(middle: &str) -> String {
    format!(
        r#"<body><h1>Lichens on Old Walls</h1>{}{middle}{}</body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    )
}

#[test]
fn a_bold_labelled_line_among_the_paragraphs_goes_without_a_body() {
    let out = main_content(&page(
        r#"<p><strong>Read More</strong>: <a href="/mosses">BOLDLINK Mosses of the Old Mill</a></p>
        <p><b>Related: <a href="/ferns">INBOLDLINK Ferns in the Cracks of Bridges</a></b></p>"#,
    ));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["BOLDLINK", "INBOLDLINK"],
    );
}

#[test]
fn plain_labels_and_labels_inside_links_stay() {
    let out = main_content(&page(
        r#"<p>Read more: <a href="/mosses">PLAINLINK Mosses of the Old Mill</a></p>
        <p><a href="/ferns"><strong>READ MORE: LINKLABEL Ferns in the Cracks</strong></a></p>"#,
    ));
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens", "PLAINLINK", "LINKLABEL"],
        &[],
    );
}
