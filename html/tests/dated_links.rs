//! `onlyMainContent` on a story followed by the previous and the next stories' headlines,
//! each a block that is one link holding the story's `<time>` and its headline: they go;
//! a note after them stays.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn dated_headline_links_after_the_story_go() {
    let html = format!(
        r#"<body><div class="viewport"><h1>Lichens on Old Walls</h1>
        <p class="byline">By Ann Lee, <time datetime="2012-07-24">July 24, 2012</time></p>
        <div class="txt">{}</div>
        <div class="pane-a"><div class="pane-wrap"><a href="/older">
        <time datetime="2012-07-23T17:45">5:45pm, EDT</time>
        <p class="headline">Moss, ferns and lichens return to the city's squares OLDERSTORY</p>
        </a></div></div>
        <div class="pane-b"><div class="pane-wrap"><a href="/newer">
        <time datetime="2012-07-24T07:17">7:17am, EDT</time>
        <p class="headline">A fern survey finds a rare species, the first in years NEWERSTORY</p>
        </a></div></div>
        <p class="note">Editor's note: an earlier version of this story misstated the number of
        species on the wall, which was forty. EDITORSNOTE</p></div></body>"#,
        paras_from(1, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens", "EDITORSNOTE"],
        &["OLDERSTORY", "NEWERSTORY"],
    );
}
