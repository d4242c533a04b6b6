//! Our own tree builder (`src/tree_builder/`) builds the nodes html5ever's tree builder
//! builds, in the same order (node ids compared), with the same quirks mode; or it gives
//! up, saying why, on what it does not handle (framesets, `<plaintext>`; the parse then
//! falls back to html5ever's).

use distill_html::parse_own_structure;

mod soup;

/// Our tree, checked equal to html5ever's; panics when our builder gave up.
fn same(html: &str) -> String {
    let (ours, theirs) = parse_own_structure(html);
    let ours = ours.unwrap_or_else(|reason| panic!("gave up ({reason}) on {html:?}"));
    assert_eq!(ours, theirs, "input: {html:?}");
    ours
}

/// Our builder either gives up or builds html5ever's tree.
fn same_or_bail(html: &str) -> bool {
    let (ours, theirs) = parse_own_structure(html);
    match ours {
        Ok(ours) => {
            assert_eq!(ours, theirs, "input: {html:?}");
            true
        }
        Err(_) => false,
    }
}

fn bails(html: &str) -> &'static str {
    parse_own_structure(html).0.expect_err(html)
}

#[test]
fn misnested_formatting_is_adopted() {
    for page in [
        "<b>1<p>2</b>3</p>4",
        "<a href=x>1<div>2</a>3</div>",
        "<p><b><i>x</p>y",
        "<b><i>a</b>b</i>c",
        "<a href=1>x<a href=2>y</a>z",
        "<b>1<div>2<i>3<p>4</b>5</i>6</div>7",
        "<b id=a>1<b id=a>2<b id=a>3<b id=a>4<p>5",
        "<nobr>a<nobr>b</nobr>c",
        "<font color=red><table><tr><td>x</font>y</td></tr></table>z",
        "<b><div><div><div><div><div>x</b>y",
        "<a><p><a>x</a></p></a>",
        "<em><h1>a</em>b</h1>c",
        "<u>a<object>b</u>c</object>d",
    ] {
        same(page);
    }
}

#[test]
fn split_text_merges_as_html5ever_merges_it() {
    // Text split at character references, NUL and comments, moved by adoption and foster
    // parenting, merges into one node as html5ever's builder merges it.
    for page in [
        "<p>a&amp;b&lt;c</p>",
        "<p>a<!--x-->b&amp;c",
        "<div>a\0b&gt;c</div>",
        "<b>1<p>2</b>3&amp;4</p>5",
        "<a href=x>1<div>2&amp;3</a>4</div>",
        "<table><tr><td>a&amp;b</td></tr>x&amp;y</table>z",
        "<p><b>x</p>y&amp;z",
        "<ul><li>a<li>b&amp;c</ul>",
    ] {
        same(page);
    }
}

#[test]
fn tables_get_implied_bodies_and_rows() {
    for page in [
        "<table><td>a<td>b<tr><th>c</table>",
        "<table> <tr> <td>x</td> </tr> </table>",
        "<table><caption>c</caption><colgroup><col></colgroup><col><tbody><tr><td>1</table>",
        "<table><tr><td><table><tr><td>inner</table>after</td></tr></table>",
        "<p>a<table><tr><td>b</table>",
        "<table><thead><tr><th>h<tbody><tr><td>d<tfoot><tr><td>f</table>",
        "<table><tr><td>a</tr></td></table>c",
        "<table><form><input type=hidden name=x><tr><td>y</table>",
        "<table><tr><td><b>x</td><td>y</b></table>z",
        "<table><!--c--><tr><td>x</table>",
    ] {
        same(page);
    }
}

#[test]
fn stray_text_and_tags_in_tables_are_foster_parented() {
    for page in [
        "<table>x<tr>y<td>z</td></tr>w</table>",
        "<table><tr><div>x</div></tr></table>",
        "<div>a<table>b<tr><td>c</td></tr>d</table>e</div>",
        "<table><b>x<tr><td>y</b>z</table>",
        "<table><input type=text><input type=hidden></table>",
        "<table><a href=x>1<p>2</a>3</table>",
        "<table>a<!--c-->b</table>",
        "<table><tr>x<td>y</table>",
        "<table><svg><g>x</g></svg></table>",
        "<b><table><i>x<tr><td>y</td></tr>z</table></b>",
        "<table><textarea>t</textarea><script>s</script></table>",
        // Whitespace between rows stays in place.
        "<table>\n <tr>\n  <td>x</td>\n </tr>\n</table>",
    ] {
        same(page);
    }
}

#[test]
fn lists_paragraphs_and_headings_close_implicitly() {
    for page in [
        "<ul><li>a<li>b<ul><li>c</ul><li>d</ul>",
        "<ul><li>a<div><li>b</div></ul>",
        "<dl><dt>a<dd>b<dt>c<dd>d</dl>",
        "<p>a<p>b<div>c<p>d</div>e",
        "<h1>a<h2>b</h1>c",
        "<p>a</p></p><p>b",
        "<li>x<li>y",
        "<pre>\nx</pre><pre>\n\ny</pre><textarea>\nz</textarea>",
        "<button>a<button>b</button>",
        "<form><form>x</form></form>y",
        "<p><hr>a<br>b</br>c",
        "<select><option>a<option>b<optgroup><option>c</select>d",
        "<ruby>a<rb>b<rt>c<rp>d</ruby>",
        "<image src=x>",
    ] {
        same(page);
    }
}

/// The open `p` elements the stack counts (to skip the button-scope walk) stay right
/// through every way an entry leaves or enters it: popped, truncated, removed and replaced
/// by the adoption agency, hidden by a button or a table, inside foreign content.
#[test]
fn open_paragraphs_are_counted_through_every_stack_change() {
    for page in [
        "<p>a<div>b</div><p>c",
        "<p>a<button><div>b</div></button>c<div>d",
        "<p>a<table><tr><td><div>b<p>c</table><div>d",
        "<b><p>a</b>b<div>c",
        "<p><b><i>a</p>b<div>c",
        "<a><p>a<a>b<div>c",
        "<p>a<svg><p>b</svg><div>c",
        "<p>a<math><mi><p>b</math><div>c",
        "<p>a</span></p></p><div>b<p>c<h1>d",
        "<p>a<li>b<p>c<dd>d<div>e",
        "<template><p>a</template><div>b",
        "<object><p>a</object><div>b",
        "<p>a<marquee><p>b</marquee><div>c",
    ] {
        same(page);
    }
}

#[test]
fn head_body_and_after_body() {
    for page in [
        "",
        "x",
        "<!DOCTYPE html><title>t</title>x",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\"><p>a",
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.0 Transitional//EN\"><p>a<table><tr><td>b</table>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p>a",
        "<!doctype svg><p>x",
        "<html a=1><head><meta charset=utf-8> <title>a&amp;b</title> <script>x<y</script></head> \
         <!--c--> <body b=2>t</body> <!--d--> </html> <!--e--> z",
        "<head></head><link rel=x><body>a<html c=3><body d=4>",
        "<noscript><p>x</p></noscript><p>y",
        "<template><td>a</td></template><p>b",
        "<template shadowrootmode=open><p>a</p></template>",
        "<body><template><tr><td>x</template>y",
        "<style>a</style><iframe>b</iframe><xmp>c</xmp><noembed>d</noembed>",
        "a\0b",
        "<body>x</body>y<!--z-->",
    ] {
        same(page);
    }
}

#[test]
fn inline_svg_is_adjusted() {
    let s = same(
        "<p>a<svg viewbox='0 0 1 1' xlink:href=x><lineargradient gradientunits=u/>\
         <foreignobject><div>h</div></foreignobject><title>t</title><path d=z /></svg>b",
    );
    assert!(s.contains("svg:linearGradient"), "{s}");
    assert!(s.contains("viewBox"), "{s}");
    assert!(s.contains("http://www.w3.org/1999/xlink:href"), "{s}");
    for page in [
        "<svg><p>breaks out</p></svg>",
        "<svg><g><div>x</div></g></svg>y",
        "<svg><font color=red>x</font></svg>",
        "<svg><font>x</font></svg>",
        "<div><svg><g></div>x",
        "<svg><![CDATA[a<b]]></svg>",
        "<svg><desc><b>x</b></desc></svg>",
        "<svg></p>x</svg>",
    ] {
        same(page);
    }
}

#[test]
fn mathml_is_built_too() {
    for page in [
        "<math definitionurl=u><mi>x</mi><mo>+</mo><mn>1</mn></math>y",
        "<p><math><mi><b>bold</b></mi><mtext>t<svg><g/></svg></mtext></math>",
        "<math><annotation-xml encoding=text/html><div>h</div></annotation-xml></math>",
        "<math><annotation-xml><div>breaks out</div></annotation-xml></math>",
        "<math><annotation-xml><svg><g/></svg></annotation-xml></math>",
        "<math><mi><mglyph/></mi><ms>s</math>after",
    ] {
        same(page);
    }
}

#[test]
fn framesets_and_plaintext_give_up() {
    assert_eq!(bails("<frameset><frame></frameset>"), "frameset");
    assert_eq!(bails("<p>a<plaintext>b<c>"), "plaintext");
}

#[test]
fn random_pages_match_or_give_up() {
    let pages = soup::count(4000);
    let built = soup::pages(0x9e37_79b9_7f4a_7c15, pages)
        .filter(|page| same_or_bail(page))
        .count();
    assert!(built > pages * 3 / 10, "{built} of {pages}");
}
