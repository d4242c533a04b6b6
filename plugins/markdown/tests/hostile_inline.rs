//! Inputs that once made the converter panic (a trap in wasm, so the page's markdown
//! failed): each must convert without panicking.

use distill_markdown::html_to_markdown;

#[test]
fn emphasis_reopened_after_a_rewrite_inside_a_multibyte_character() {
    let html = "–</sup>-–</p>+”ïit’s~~~`\u{feff}word<li>–word<div>\u{feff}</table>\u{200b}\t<h2><del></p><br>é<a href=\"u\"><br>\u{ad}\u{ad}”+`&amp;></code>’>]</del><em><del><<del></p>©";
    let md = html_to_markdown(html);
    assert!(md.contains("word"), "{md}");
}

#[test]
fn a_wrapper_opened_where_another_one_opens_is_not_joined_across_it() {
    // The inner `**` used to join the `**x**` before it, pulling the emphasis's start two
    // bytes into its own content.
    let md = html_to_markdown("<p><strong>x</strong><em><strong>a</strong></em> b</p>");
    assert_eq!(md.trim(), "**x**_**a**_ b");
    // Siblings still join: `**x****a**` is written `**xa**`.
    let md = html_to_markdown("<p><strong>x</strong><strong>a</strong> b</p>");
    assert_eq!(md.trim(), "**xa** b");
}
