//! The parse builds the nodes html5ever's own parser with `Document`'s sink builds: same
//! kinds, names, attributes and text nodes (adjacent text merged into one node the same
//! way), checked node by node rather than through the serialised HTML.

use distill_html::parse_both_structure;

mod soup;

fn same(html: &str) -> String {
    let (ours, theirs) = parse_both_structure(html);
    assert_eq!(ours, theirs, "input: {html:?}");
    ours
}

#[test]
fn text_split_by_references_is_one_node() {
    let s = same("<p>a &amp; b &copy; c&#33;</p>");
    assert!(s.contains("text \"a & b © c!\""), "{s}");
    assert_eq!(s.matches("text ").count(), 1, "{s}");
}

#[test]
fn text_beside_comments_and_elements_stays_apart() {
    let s = same("<p>a<!--c-->b<i>i</i>c</p>");
    assert_eq!(s.matches("text ").count(), 4, "{s}");
}

#[test]
fn tree_builder_cases_match() {
    for page in [
        "<table>x<tr>y<td>z</td></tr>w</table>",
        "<div>a<table>b<tr><td>c</td></tr>d</table>e</div>",
        "<table> <tr> <td>x</td> </tr> </table>",
        "<b>1<p>2</b>3</p>4",
        "<a href=x>1<div>2</a>3</div>",
        "<p><b><i>x</p>y",
        "<select>a<option>b&amp;c</select>d",
        "<pre>\nx</pre><textarea>\na</textarea><listing>\n\nb</listing>",
        "a\0b<table>\0c</table>",
        "<template>a&amp;b<td>c</td>d</template>e",
        "<html><head> <title>t&amp;u</title> </head> x <body>y</body> z</html> w",
        "<frameset> <frame> </frameset> x",
        "<svg><title>a&lt;b</title>c<foreignObject>d<p>e</p></foreignObject></svg>f",
        "<math><mi>x</mi>y</math>",
        "<noscript>a<p>b</p></noscript>",
        "<body a=1><body b=2 a=3>x",
        "<table><caption>c</caption>t<colgroup><col></colgroup>u</table>",
    ] {
        same(page);
    }
}

#[test]
fn random_pages_match() {
    let text_nodes: usize = soup::pages(0x2545_f491_4f6c_dd1d, soup::count(3000))
        .map(|page| same(&page).matches("text ").count())
        .sum();
    assert!(text_nodes > 4_000, "{text_nodes}");
}
