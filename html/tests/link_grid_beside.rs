//! A grid of links beside the page's one named article
//! (`main_content::link_grid_beside`).

mod common;

use common::{PROSE, assert_kept, main_content};

/// A video page: an `<article>` around the clip's title and caption, a playlist of thirty
/// linked thumbnails beside it; with `second`, a second `<article>` (the page is a
/// listing of clips whose cards are articles).
fn video_page(second: bool) -> String {
    let items: String = (1..=30)
        .map(|i| {
            format!(
                "<li><a href=\"/video/{i}\"><img src=\"/t/{i}.jpg\" alt=\"Clip {i}\"><span>Evening news</span> \
                 Clip number {i} about the walls of the old town</a></li>"
            )
        })
        .collect();
    let other = if second {
        format!("<article><h2>Another clip</h2><p>{PROSE}</p></article>")
    } else {
        String::new()
    };
    format!(
        "<html><body><div id=\"page\"><div class=\"player-wrap\"><div class=\"player\"><article><h1>Walls</h1>\
         <p>The caption of the clip. {PROSE}</p></article>{other}</div><div class=\"browse\"><ul>{items}</ul>\
         </div></div></div></body></html>"
    )
}

#[test]
fn a_playlist_beside_a_video_pages_one_article_goes() {
    let out = main_content(&video_page(false));
    assert_kept(&out, &["The caption of the clip."], &["Clip number 3 about"]);
}

#[test]
fn a_grid_beside_two_articles_stays() {
    let out = main_content(&video_page(true));
    assert_kept(
        &out,
        &["The caption of the clip.", "Another clip", "Clip number 3 about"],
        &[],
    );
}
