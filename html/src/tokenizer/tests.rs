//! Edge cases of the tokenizer: each input's tree must serialise exactly as html5ever's own
//! tokenizer gives it, and a few are also checked against the expected markup.

use super::parse_scripting;
use crate::dom::parse_html5ever;

/// Our tree serialised, with the quirks mode.
fn ours(html: &str) -> String {
    let doc = parse_scripting(html);
    format!("{:?} {}", doc.quirks_mode.get(), doc.html())
}

fn theirs(html: &str) -> String {
    let doc = parse_html5ever(html);
    format!("{:?} {}", doc.quirks_mode.get(), doc.html())
}

fn same(html: &str) -> String {
    let a = ours(html);
    assert_eq!(a, theirs(html), "input: {html:?}");
    a
}

fn body(html: &str) -> String {
    let doc = parse_scripting(html);
    let out = doc.select("body").inner_html().to_string();
    same(html);
    out
}

#[test]
fn entities_in_text() {
    assert_eq!(
        body("<p>a&amp;b &lt;c&gt; &copy 2024 &notit; &notin; &amp</p>"),
        "<p>a&amp;b &lt;c&gt; © 2024 ¬it; ∉ &amp;</p>"
    );
    for s in [
        "&",
        "&;",
        "&#",
        "&#x",
        "&#;",
        "&#x;",
        "&#65",
        "&#65;",
        "&#x41;",
        "&#X41",
        "&#0;",
        "&#128;",
        "&#x81;",
        "&#xD800;",
        "&#x110000;",
        "&#99999999999;",
        "&#9;",
        "&#x7f;",
        "&#xFFFE;",
        "&bogus;",
        "&amp;amp;",
        "&AMP;",
        "&ampx",
        "&Aacute",
        "&aacute;x",
        "&NotEqualTilde;",
        "&acE;",
        "& amp;",
        "&&amp;",
        "&#38;#38;",
    ] {
        same(&format!("<div>{s}</div><p>x{s}y</p>"));
    }
}

#[test]
fn entities_in_attributes() {
    let html = r#"<a href="?a=1&amp=2&copy=3&copy;&lt;x&notin;&notit&#65&#x42;z" title='&quot&quotx&quot;' data-x=&amp&ampy>t</a>"#;
    let out = body(html);
    assert!(
        out.contains(r#"href="?a=1&amp;amp=2&amp;copy=3©&lt;x∉&amp;notitABz""#),
        "{out}"
    );
    assert!(out.contains(r#"title="&quot;&amp;quotx&quot;""#), "{out}");
    same("<a b=\"&\" c='&#' d=&#x e=\"&amp\" f=\"&amp;\">");
}

#[test]
fn raw_text_elements() {
    for html in [
        "<title>a &amp; <b>b</b></title>",
        "<textarea>\n<b>&lt;x</b>&amp</textarea>",
        "<textarea></TEXTAREA >x",
        "<style>p > a { x: '</sty' } </style><p>after",
        "<style>a</stylex></style>",
        "<xmp><b>&amp;</b></xmp>",
        "<noscript><p>hidden</p></noscript><p>shown",
        "<iframe><p>x</p></iframe>",
        "<noembed><a></noembed>",
        "<noframes><a></noframes>",
        "<plaintext><a>&amp;</plaintext>",
        "<title>unterminated",
        "<style>unterminated </st",
        "<title>a</title x=\"1\" / >b",
        "<pre>\nfirst</pre><pre>&#10;second</pre>",
        // The start tag's name as written, in any case, against the end tag's.
        "<TiTlE lang=\"en\">a</tItLe><p>b",
        "<sTyLe media=x>p{}</STYLE\t>y",
        "<textarea rows=2>a</textare></textarea>b",
    ] {
        same(html);
    }
}

#[test]
fn script_escapes() {
    for html in [
        "<script>var a = '<!-- <script> </script> -->'; </script><p>after",
        "<script><!-- <script></script> x --></script><p>after",
        "<script><!--</script><p>after",
        "<script><!-- --></script><p>after",
        "<script><!--><p></script>after",
        "<script><!---></script>after",
        "<script><!-- <script> --></script>still</script><p>after",
        "<script><!-- <SCRIPT> </Script > </script><p>after",
        "<script><!-- <scripts> </script>after",
        "<script>a<b</scrip</script>c",
        "<script>if (a<!--b) {}</script>c",
        "<script><!-- -- > </script>c",
        "<script>unterminated <!-- <script>",
        "<script></script",
        "<SCRIPT>x</SCRIPT>y",
    ] {
        same(html);
    }
    let out = body("<script><!-- <script></script> x --></script><p>after");
    assert!(out.ends_with("<p>after</p>"), "{out}");
}

#[test]
fn cdata_in_foreign_content() {
    for html in [
        "<svg><![CDATA[ a < b & c ]]></svg>",
        "<math><mi><![CDATA[x]]></mi></math>",
        "<div><![CDATA[ html ]]></div>",
        "<svg><![CDATA[ unterminated",
        "<svg><foreignObject><![CDATA[x]]></foreignObject></svg>",
        "<svg viewBox=\"0 0 1 1\" xlink:href=\"#a\"><path d=\"M0\"/></svg>",
    ] {
        same(html);
    }
    assert_eq!(body("<svg><![CDATA[a<b]]></svg>"), "<svg>a&lt;b</svg>");
    assert_eq!(body("<div><![CDATA[x]]></div>"), "<div><!--[CDATA[x]]--></div>");
}

#[test]
fn doctypes_and_quirks() {
    for html in [
        "<!DOCTYPE html><p>",
        "<!doctype HTML><p>",
        "<p>no doctype",
        "<!DOCTYPE><p>",
        "<!DOCTYPE>",
        "<!DOCTYPE",
        "<!DOCTYPEhtml>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\">",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">",
        "<!DOCTYPE html PUBLIC '-//W3O//DTD W3 HTML Strict 3.0//EN//'>",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\">",
        "<!DOCTYPE html SYSTEM 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd'>",
        "<!DOCTYPE html PUBLIC\"-//W3C//DTD HTML 4.01//EN\"\"x\">",
        "<!DOCTYPE html PUBLIC \"unterminated>",
        "<!DOCTYPE html PUBLIC>",
        "<!DOCTYPE html PUBLIC x>",
        "<!DOCTYPE html SYSTEM>",
        "<!DOCTYPE html bogus>",
        "<!DOCTYPE html PUBLIC \"a\" \"b\" junk>",
        "<!DOCTYPE html PUBLIC \"a\" junk>",
        "<!DOCTYPE ht\0ml>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Frameset//EN\"",
    ] {
        same(&format!("{html}<table><p>x</table>"));
    }
    assert!(ours("<p>x").starts_with("Quirks"));
    assert!(ours("<!DOCTYPE html><p>x").starts_with("NoQuirks"));
}

#[test]
fn nul_and_newlines() {
    for html in [
        "<p>a\0b</p>",
        "<p a\0b=\"c\0d\" e=f\0g>x</p>",
        "<ti\0tle>x",
        "<textarea>a\0b</textarea><style>c\0d</style><script>e\0f</script>",
        "<svg>a\0b</svg>",
        "<!-- a\0b --><!a\0b>",
        "<table>\0<tr><td>x</td></tr></table>",
        "a\r\nb\rc\n\rd\r",
        "<pre>\r\nx</pre>",
        "<textarea>\r\n\r\nx</textarea>",
        "<a title=\"a\r\nb\">x</a>",
        "\u{feff}<p>bom",
    ] {
        same(html);
    }
    assert_eq!(body("<p>a\r\nb\rc</p>"), "<p>a\nb\nc</p>");
}

#[test]
fn tags_and_attributes() {
    for html in [
        "<DIV CLASS=a Id='b' data-X=\"c\">x</DIV>",
        "<p a=1 a=2 A=3 b>x</p>",
        "<p =a>x</p>",
        "<p a= b>x</p>",
        "<p a =\"b\"c>x</p>",
        "<p a=\"b\"/c>x</p>",
        "<br/><br / ><img src=x/><p/>",
        "<a href=x?a=1&b=2>x</a>",
        "<a b=`c` d=<e f='\"g'>x</a>",
        "<p a=>x</p>",
        "<p \"a\"=b 'c'=d <e>x</p>",
        "<a<b>x",
        "</br class=x>",
        "</p a=b>",
        "<p>a</ p>b",
        "a</>b",
        "a</ b>c",
        "a</3>b",
        "a<3 b",
        "a < b <= c",
        "a<?xml version=\"1.0\"?>b",
        "<p>x</p a=\"1\" b>",
        "<p>\u{e9}t\u{e9} <\u{e9}> </\u{e9}> <x\u{e9}y>z",
        "<table><tr><td>a<td>b</table>text",
        "<b><p>x</b>y</p>",
        "<template><p>x</p></template>",
    ] {
        same(html);
    }
    assert_eq!(body("<p a=1 a=2 A=3>x</p>"), "<p a=\"1\">x</p>");
}

#[test]
fn comments() {
    for html in [
        "<!---->a<!-->b<!--->c<!-- x -->d",
        "<!--a--!>b",
        "<!--a--->b",
        "<!--a-- b-->c",
        "<!--a<!--b-->c",
        "<!--<!--->x",
        "<!--a--!-->b",
        "<!-",
        "<!",
        "<!x",
        "<!-x>y",
        "<?php echo 1 ?>x",
        "</-x>y",
    ] {
        same(html);
    }
}

#[test]
fn comments_as_pieces_of_the_input() {
    // Short (held inline) and long, non-ASCII, NUL, bogus and at the end of the input; in
    // the head, the body, after it and in foreign content.
    for text in [
        "",
        "-",
        "a",
        "12345678",
        "123456789",
        " google_ad_section_start ",
        "é",
        "日本語のコメント",
        "ü\u{0}ü",
        "\u{0}",
        "x\u{0}yyyyyyyyyyyyyy",
        " [if lt IE 9]><script src=x.js></script><![endif] ",
    ] {
        for html in [
            format!(
                "<!--{text}--><html><head><!--{text}--></head><body><!--{text}-->x</body><!--{text}--></html><!--{text}-->"
            ),
            format!("<p>a<!--{text}--!>b<svg><!--{text}--></svg><?{text}>c<!{text}>d</{text}>"),
            format!("<table><!--{text}--><tr><!--{text}--><td>x</table>"),
            format!("<p>a<!--{text}"),
            format!("<p>a<!--{text}--"),
            format!("<p>a<?{text}"),
        ] {
            same(&html);
        }
    }
}

#[test]
fn unterminated_at_eof() {
    for html in [
        "<p>a<",
        "<p>a</",
        "<p>a</p",
        "<p>a<b",
        "<p>a<b c",
        "<p>a<b c=",
        "<p>a<b c=\"d",
        "<p>a<b c='d",
        "<p>a<b c=d",
        "<p>a<b c=d ",
        "<p>a<b /",
        "<p>a<!--x",
        "<p>a<!--x-",
        "<p>a<!--x--",
        "<p>a<!--x--!",
        "<p>a<!--",
        "<p>a<!---",
        "<p>a<!x",
        "<p>a<?x",
        "<p>a</x",
        "<p>a&am",
        "<p>a&#12",
        "<p>a&#x",
        "<textarea>a</textarea",
        "<script>a</script ",
        "<style>a</style x=\"",
    ] {
        same(html);
    }
}

/// Deterministic pseudo-random soups of markup fragments (a small LCG, no dependency):
/// every one must give html5ever's tree.
#[test]
fn random_soups_match_html5ever() {
    const PIECES: &[&str] = &[
        "<",
        ">",
        "</",
        "/",
        "!",
        "?",
        "-",
        "--",
        "=",
        "\"",
        "'",
        " ",
        "\n",
        "\r",
        "\0",
        "&",
        "#",
        "x",
        ";",
        "&amp",
        "&lt;",
        "&#x41",
        "&not",
        "&notin;",
        "a",
        "B",
        "p",
        "div",
        "script",
        "SCRIPT",
        "style",
        "title",
        "textarea",
        "plaintext",
        "noscript",
        "svg",
        "math",
        "table",
        "tr",
        "td",
        "template",
        "[CDATA[",
        "]]>",
        "<!--",
        "-->",
        "<!DOCTYPE",
        "html",
        "PUBLIC",
        "SYSTEM",
        "\u{e9}",
        "\u{2603}",
        "select",
        "option",
        "pre",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..20000 {
        let n = 1 + next() % 60;
        let html: String = (0..n).map(|_| PIECES[next() % PIECES.len()]).collect();
        same(&html);
    }
}

/// The inline atoms built from a name's bytes equal `LocalName::from`'s, for names of 1 to
/// 7 bytes (ASCII and multi-byte characters) anywhere in the input: within 8 bytes of its
/// end (bytes read one by one) or not (one word read).
#[test]
fn inline_atoms_match_local_name_from() {
    use crate::test_rng::TestRng;
    use html5ever::LocalName;
    const PIECES: [&str; 12] = [
        "a",
        "z",
        "-",
        "_",
        ":",
        "0",
        "9",
        "\u{e9}",
        "\u{20ac}",
        "\u{1f600}",
        "x",
        "\u{7f}",
    ];
    let mut rng = TestRng::new(0x5eed_a70e);
    for _ in 0..200_000 {
        let mut name = String::new();
        let target = 1 + rng.below(7);
        while name.len() < target {
            let piece = PIECES[rng.below(PIECES.len())];
            if name.len() + piece.len() <= 7 {
                name.push_str(piece);
            } else if name.is_empty() {
                continue;
            } else {
                break;
            }
        }
        let (before, after) = (rng.below(4), rng.below(12));
        let src = format!("{}{name}{}", "<".repeat(before), ">".repeat(after));
        let built = super::tag::inline_atom(src.as_bytes(), before, before + name.len());
        assert_eq!(built, LocalName::from(name.as_str()), "name {name:?} in {src:?}");
        assert_eq!(&*built, name.as_str());
    }
}

#[test]
fn attribute_vectors() {
    // Order kept and repeats dropped (the first wins) whether a repeat meets the only
    // attribute so far, the first two, or a vector grown past four.
    assert_eq!(body("<p a=1 a=2>x</p>"), "<p a=\"1\">x</p>");
    assert_eq!(body("<p a=1 a=2 b=3>x</p>"), "<p a=\"1\" b=\"3\">x</p>");
    assert_eq!(
        body("<p a=1 b=2 b=3 a=4 c=5>x</p>"),
        "<p a=\"1\" b=\"2\" c=\"5\">x</p>"
    );
    assert_eq!(
        body("<p a=1 b=2 c=3 d=4 e=5 a=6 f=7 e=8>x</p>"),
        "<p a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\" f=\"7\">x</p>"
    );
    // A tag's attributes are kept in a vector of their exact number (repeats not counted).
    let doc = parse_scripting("<p a=1>x</p><div a=1 b=2 a=3>y</div><span>z</span><i a b c d e>w</i>");
    let room = |name: &str| {
        let sel = doc.select(name);
        let node = &sel.nodes()[0];
        node.element_ref().map(|e| (e.attrs.len(), e.attrs.capacity()))
    };
    assert_eq!(room("p"), Some((1, 1)));
    assert_eq!(room("div"), Some((2, 2)));
    assert_eq!(room("span"), Some((0, 0)));
    assert_eq!(room("i"), Some((5, 5)));
}

/// Text holding character references, wherever the tree builder takes it (the text nodes
/// grow piece by piece as the references split the text into tokens).
#[test]
fn references_in_text_wherever_the_text_goes() {
    for html in [
        "<pre>&#10;x</pre><pre>&amp;\ny</pre><textarea>&#10;&#10;z</textarea>",
        "<table>a&amp;b<tr><td>c&lt;d</td></tr>&gt;</table>",
        "<head>&#32; &amp;x<body>",
        "<title>a&amp;b</ti&lt;</title><textarea>\0&amp;</textarea>",
        "<select>a&amp;b<option>c&gt;</select>",
        "<svg>a&amp;<![CDATA[x]]>&lt;</svg>",
        "<p>x&amp;y</p>z &copy</p>",
        "<b>1&amp;<p>2&lt;</b>3&gt;",
        "<frameset> &#32; &amp;</frameset>",
    ] {
        same(html);
    }
}

/// Tags that end at their name (emitted in line in `tag_open`) and tags that go on past it
/// (the attribute loop): start and end tags, upper case, whitespace or `/` before `>`, end
/// tags with attributes, raw text end tags, at EOF; each as html5ever builds it, and by
/// our own tree builder as by html5ever's.
#[test]
fn tags_ending_at_their_name_and_past_it() {
    for html in [
        "<div><p>a</p><P>b</P></div>",
        "<div ><p\t>a</p\n>b</div >",
        "<br/><br /><hr/><p/>x</p/>",
        "<p>a</p x=\"y\"><i>b</i x>c",
        "<ul><li>a<li>b</ul><dl><dt>x<dd>y</dl>",
        "<b>x<i>y</b>z</i>",
        "<title>t</title><textarea>a</textarea>",
        "<style>s</style><script>x</script>",
        "<p>a<b",
        "<p>a</b",
        "<p>a<b>",
        "<p>a</b>",
        "<TABLE><TR><TD>x</TD></TR></TABLE>",
        "<svg><path/></svg><math><mi>x</mi></math>",
    ] {
        same(html);
        let ours = crate::tree_builder::parse_own_noting(html).map(|(doc, _)| doc.html().to_string());
        assert_eq!(
            ours.as_deref().ok(),
            Some(&*parse_html5ever(html).html()),
            "input: {html:?}"
        );
    }
}
