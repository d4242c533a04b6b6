//! `onlyMainContent` on article pages: the box about the writer after the post goes,
//! whatever shape of class names it (here: a person word before a detail word).

mod common;

use common::{assert_kept, main_content, paras};

#[test]
fn an_author_detail_box_goes() {
    // `author_detail_box`: "author" then "detail" (singular), as `author-details` and
    // `author-bio` are read: the box about the writer, a paragraph of biography.
    for class in ["author_detail_box", "author-detail"] {
        let html = format!(
            r#"<body><article><h1>Lichens on Old Walls</h1>{}
            <div class="{class}"><h3><a href="/author/ana">Ana Ruiz</a></h3><p>AUTHORBIO
            Senior editor. Ana Ruiz has walked the coast for twenty years and writes about
            the plants and lichens she finds on its old walls and stones.</p></div>
            </article></body>"#,
            paras(5)
        );
        let out = main_content(&html);
        assert_kept(&out, &["Part 1. Lichens", "Part 5. Lichens"], &["AUTHORBIO"]);
    }
}
