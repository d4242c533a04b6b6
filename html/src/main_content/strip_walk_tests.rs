//! (tests only) The stripping done in the arena's walk ([`super::strip_and_remove_non_main`])
//! against stripping first ([`crate::clean::strip_unwanted`]), as the clean stage did: the
//! same arena, the same removals, the same page.

use crate::clean::strip_unwanted;
use crate::dom::{html_string, parse};
use crate::test_rng::TestRng;

use super::arena::Arena;
use super::strip_and_remove_non_main;

/// Markup pieces: what is stripped (scripts, styles, comments, templates, `noscript`, `meta`)
/// inside the body, inside elements the walk does not enter (`svg`, form controls,
/// `aria-hidden`), inside links and headings, and prose around them.
const PIECES: [&str; 22] = [
    "<p>Some words of a paragraph, long enough to count as prose for the extractor here.</p>",
    "<p>",
    "</p>",
    "<div class=content>",
    "<div class=sidebar>",
    "</div>",
    "<script>var x = '<p>not text</p>';</script>",
    "<style>p { color: red }</style>",
    "<!-- a comment -->",
    "<template><p>inert</p></template>",
    "<noscript><p>fallback</p></noscript>",
    "<meta name=a content=b>",
    "<svg><style>.a{}</style><!-- c --><path d=M0></path></svg>",
    "<div aria-hidden=true>hidden<script>s</script><!-- c --></div>",
    "<select><option>o</option><!-- c --></select>",
    "<a href=/x>a link<!-- c --></a>",
    "<h2>Heading <script>s</script>text</h2>",
    "<ul><li>item</li><li>item<style>x</style></li></ul>",
    "text ",
    "<span>inline</span>",
    "<article>",
    "</article>",
];

#[test]
fn stripping_in_the_walk_is_stripping_first() {
    let mut rng = TestRng::new(53);
    let mut stripped_nodes = 0;
    for _ in 0..2_000 {
        let body = rng.string_of(&PIECES, 40);
        let html = format!(
            "<!DOCTYPE html><!-- top --><html><head><title>t</title><script>h</script>\
             <style>s</style></head><body>{body}</body><!-- after --></html>"
        );
        // The arena: built on the stripped page, and built stripping in its walk.
        let first = parse(&html);
        strip_unwanted(&first);
        let walked = parse(&html);
        let fresh = Arena::build(&first, first.body().unwrap().id, &mut Vec::new());
        let mut doomed = Vec::new();
        let during = Arena::build(&walked, walked.body().unwrap().id, &mut doomed);
        let facts = |a: &Arena| {
            a.nodes
                .iter()
                .map(|n| (n.id, n.kind, n.parent, n.size, n.own.chars, n.total.words, n.hash))
                .collect::<Vec<_>>()
        };
        assert_eq!(facts(&fresh), facts(&during), "{html}");
        stripped_nodes += doomed.len();
        drop((fresh, during));
        // The whole step: stripped first then analysed, or both in one walk.
        strip_and_remove_non_main(&first, false, &[]);
        strip_and_remove_non_main(&walked, false, &[]);
        assert_eq!(html_string(&first), html_string(&walked), "{html}");
        let out = html_string(&walked);
        assert!(
            !out.contains("<script") && !out.contains("<!--") && !out.contains("<style"),
            "{out}"
        );
    }
    assert!(stripped_nodes > 10_000, "{stripped_nodes}");
}
