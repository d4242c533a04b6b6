//! Headline lists whose items carry a count and an age beside their link
//! (`main_content::link_lists`: a list is a headline list at 75 % link text).

mod common;

use common::{assert_kept, main_content, paras, paras_from};

/// Ten linked headlines, each with a comment count in its link and its age after it
/// ("6days 3hrs ago"): a quarter of the list's text is not its links.
fn dated_headlines() -> String {
    (1..=10)
        .map(|i| {
            format!(
                "<li><a href=\"/news/{i}\"><strong>Headline number {i} about the walls of towns</strong> \
                 <span>{}</span></a> <em>6days 3hrs ago</em></li>",
                100 + i
            )
        })
        .collect()
}

#[test]
fn a_headline_list_with_ages_beside_the_post_goes() {
    let html = format!(
        "<html><body><div id=\"page\"><div id=\"col1\"><div class=\"box\"><h3>Hot News</h3>\
         <ul>{}</ul></div></div><div id=\"story\"><h1>Walls</h1><div class=\"text\">{}</div></div>\
         </div></body></html>",
        dated_headlines(),
        paras(6),
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1.", "Part 6."], &["Headline number 3", "Hot News"]);
}

#[test]
fn a_dated_reading_list_inside_the_post_stays() {
    let html = format!(
        "<html><body><div id=\"page\"><div id=\"story\"><h1>Walls</h1><div class=\"text\">{}\
         <ul>{}</ul>{}</div></div></div></body></html>",
        paras(3),
        dated_headlines(),
        paras_from(4, 6),
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1.", "Part 6.", "Headline number 3"], &[]);
}
