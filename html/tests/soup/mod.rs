//! Random tag soups for the parse identity tests (`parse_structure`, `own_tree_builder`):
//! pages of up to 30 pieces drawn from shapes real and broken pages use, from a fixed seed,
//! so every run checks the same pages.

/// What a page is made of.
pub const PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href=x>",
    "</a>",
    "<div>",
    "</div>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "</td>",
    "<select>",
    "<option>",
    "<template>",
    "</template>",
    "<pre>",
    "\n",
    " ",
    "text",
    "&amp;",
    "<!--c-->",
    "<svg>",
    "</svg>",
    "<li>",
    "<ul>",
    "</ul>",
    "<br>",
    "<img src=y>",
    "<form>",
    "</form>",
    "<h1>",
    "</h1>",
    "<script>s</script>",
    "<head>",
    "<body>",
    "</body>",
    "<html>",
    "</html>",
    "<nobr>",
    "<caption>",
    "<colgroup>",
    "<col>",
    "<tbody>",
    "<dd>",
    "<dt>",
    "<button>",
    "<g>",
    "<title>t</title>",
    "<span>",
    "</span>",
    // Rarer shapes: raw text, foreign content and its integration points, forms,
    // ruby, list and heading nesting, attributes merged onto html and body, end
    // tags with no start.
    "<math>",
    "</math>",
    "<mi>",
    "<annotation-xml encoding=text/html>",
    "<foreignObject>",
    "<desc>",
    "<svg viewbox=\"0 0 1 1\" xlink:href=a>",
    "<font size=2>",
    "<textarea>t</textarea>",
    "<noscript>",
    "</noscript>",
    "<style>a{}</style>",
    "<xmp>x</xmp>",
    "<iframe>i</iframe>",
    "<noembed>n</noembed>",
    "<listing>",
    "<ruby>",
    "<rb>",
    "<rt>",
    "<rp>",
    "<optgroup>",
    "</select>",
    "<hr>",
    "<input type=hidden>",
    "<input>",
    "<thead>",
    "<tfoot>",
    "<th>",
    "</tr>",
    "</tbody>",
    "<html lang=x>",
    "<body class=y>",
    "</br>",
    "<h2>",
    "</h3>",
    "<address>",
    "<menu>",
    "<image>",
    "<marquee>",
    "</marquee>",
    "<object>",
    "<applet>",
    "<dl>",
    "<ol>",
    "</li>",
    "<isindex>",
    "<keygen>",
    "<a>",
    "<em>",
    "</em>",
    "<s>",
    "<code>",
    "</code>",
    "<frame>",
    "<base href=z>",
    "<meta charset=utf-8>",
    "<link rel=a>",
    "<!DOCTYPE html>",
    "<![CDATA[c]]>",
    "\u{0}",
    "&nbsp;",
    "é",
    // Character references, raw text and a frameset (which our tree builder leaves to
    // html5ever's).
    "&lt;x",
    "&#65;",
    "<style>a</style>",
    "<frameset>",
];

/// `count` pages drawn from [`PIECES`] by a small linear congruential generator seeded
/// with `seed`.
pub fn pages(seed: u64, count: usize) -> impl Iterator<Item = String> {
    let mut state = seed;
    let mut below = move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    (0..count).map(move |_| {
        let len = below(30);
        (0..len).map(|_| PIECES[below(PIECES.len())]).collect()
    })
}

/// How many pages a test runs: `TREE_FUZZ_PAGES` when set (a longer run by hand), else
/// `default` (what keeps `make unit` quick).
pub fn count(default: usize) -> usize {
    std::env::var("TREE_FUZZ_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
