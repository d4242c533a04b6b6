//! The direct routes for text and tags (`Construct::chars`, `Construct::tag`) build the
//! tree the `Token` route builds, node for node (ids and quirks mode included): on pages
//! whose text and tags leave the in body rules (tables, foreign content, `<pre>` and
//! `<textarea>` newlines, templates, the head) and on random tag soups of those pieces.

use super::Builder;
use crate::structure::structure_ids;
use crate::test_rng::TestRng;
use crate::tokenizer::{Answer, Construct, Sink, Token, input, tokenize};

/// Our builder behind the trait's default routes: every text and tag wrapped in a `Token`
/// and taken by `Builder::token`.
struct TokensOnly(Builder);

impl Construct for TokensOnly {
    fn token(&mut self, token: Token) -> Answer {
        self.0.token(token)
    }

    fn in_foreign(&self) -> bool {
        self.0.in_foreign()
    }

    fn end(&mut self) {
        self.0.end();
    }
}

/// The page built through the direct routes and through tokens only (each the tree, or
/// why the builder gave up).
fn both(html: &str) -> (Result<String, &'static str>, Result<String, &'static str>) {
    let buf = input(html);
    let (direct, _) = tokenize(&buf, Builder::new(Sink::new()));
    let (tokens, _) = tokenize(&buf, TokensOnly(Builder::new(Sink::new())));
    (
        direct.into_sink().map(|s| structure_ids(&s.doc)),
        tokens.0.into_sink().map(|s| structure_ids(&s.doc)),
    )
}

#[test]
fn direct_routes_build_the_token_routes_tree() {
    for page in [
        "<!doctype html><title>t</title><p>a<b>b</b>c",
        "<pre>\nx</pre><textarea>\ny</textarea><listing>\nz</listing>",
        "<table>a<tr><td>b</td></tr>c</table>d",
        "<p><svg><g>x</g><foreignObject><p>y</p></foreignObject></svg>z",
        "<math><mi>a</mi><annotation-xml encoding=text/html><p>b</p></annotation-xml></math>",
        "<template><tr><td>x</td></tr></template><p>y",
        "<b>1<p>2</b>3</p>4",
        "<select><option>a<option>b</select>c",
        "<head> <meta charset=utf-8> x<body>y",
        "",
    ] {
        let (direct, tokens) = both(page);
        assert_eq!(direct, tokens, "input: {page:?}");
        assert!(direct.is_ok(), "gave up on {page:?}");
    }
}

#[test]
fn direct_routes_build_the_token_routes_tree_on_random_soups() {
    let pieces = [
        "<p>",
        "</p>",
        "<b>",
        "</b>",
        "<a href=x>",
        "</a>",
        "<div class=c>",
        "</div>",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "<caption>",
        "<svg>",
        "</svg>",
        "<math>",
        "<mi>",
        "<pre>",
        "\n",
        " ",
        "x",
        "&amp;",
        "\0",
        "<!--c-->",
        "<template>",
        "</template>",
        "<select>",
        "<option>",
        "<textarea>",
        "</textarea>",
        "<title>",
        "</title>",
        "<li>",
        "<br>",
        "<img src=i>",
        "<foreignObject>",
        "</body>",
        "</html>",
        "<head>",
        "<style>",
        "</style>",
    ];
    let mut rng = TestRng::new(16);
    let mut built = 0;
    for _ in 0..20_000 {
        let page = rng.string_of(&pieces, 24);
        let (direct, tokens) = both(&page);
        assert_eq!(direct, tokens, "input: {page:?}");
        built += usize::from(direct.is_ok());
    }
    // Nearly all are built (the soups hold none of what the builder gives up on).
    assert!(built > 19_000, "built {built} of 20,000");
}
