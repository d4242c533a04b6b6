//! `onlyMainContent` on discussion pages: the posts of a thread are its content, even
//! when the page around them says more than they do.

mod common;

use common::{assert_kept, main_content};

/// Text of a prompt the page carries beside the thread (an app install card, a
/// notifications how-to): plain sentences, nothing marks them as chrome.
fn prompt(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<p>PROMPT{i} Open the settings of your browser, find the permissions of this \
                 site and choose whether it may send you notifications when new posts arrive.</p>"
            )
        })
        .collect()
}

#[test]
fn a_short_topics_posts_stay_beside_longer_page_prompts() {
    // Two short posts named as comments inside an element named as the topic; the
    // prompts beside them hold most of the page's text, so the posts are a small share
    // of it. Small comment-named elements are widgets elsewhere; here they are the posts.
    let posts: String = (0..2)
        .map(|i| {
            format!(
                "<article class='post-comment'><div class='author'>user{i}</div><p>POST{i} Does \
                 anyone know what the two brackets under the power supply are for? The manual \
                 says nothing about them.</p></article>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><main><h1>Brackets in the new case</h1><div class="topic-posts">{posts}</div></main>
        <div class="popover">{}</div></body>"#,
        prompt(6)
    );
    let out = main_content(&html);
    assert_kept(&out, &["POST0 Does", "POST1 Does"], &[]);
}
