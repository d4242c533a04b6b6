//! `onlyMainContent` on article pages: the lines of a paywall after the post's last
//! paragraph ("This article is exclusive to … subscribers", "Unlock this article …", "To
//! read the rest of this story subscribe …") are the site's offer, not the post, and go;
//! the same words among the post's paragraphs stay.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn a_paywalls_lines_after_the_post_go_and_the_same_words_inside_it_stay() {
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p>This article is exclusive to INSIDE readers of the printed edition, the editor
        wrote in the first issue, and the survey that follows was printed there.</p>{}
        </div><div class="breaker"><h2>This article is exclusive to Gazette subscribers</h2>
        <h3>Unlock this article UNLOCK plus analysis, newsletters and events.</h3>
        <p>To read the rest of this story REST subscribe to the Gazette.</p></div></div>
        </body>"#,
        paras_from(1, 4),
        paras_from(5, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens", "INSIDE"],
        &["Gazette subscribers", "UNLOCK", "REST"],
    );
}
