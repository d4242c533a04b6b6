//! Whether an HTML page fetched without a browser looks script-rendered: its
//! content would only exist after its scripts ran. A pure, single pass over
//! the markup as bytes ([`markup`]; no DOM is built, the body is neither
//! validated nor copied), so the HTTP engine's every page can be checked
//! cheaply; it stops once the page has enough visible text that no signal can
//! apply, and does not read a page without `<script` at all ([`script_tag`]).
//! General signals only:
//!
//! - the page runs script and its body has (next to) no visible text;
//! - an app shell: an empty framework mount point (`id` root, app, __next,
//!   __nuxt, ___gatsby, or an empty `<app-root>`) with little text around it;
//! - a `<noscript>` asking to enable JavaScript, with little text around it.
//!
//! Visible text leaves out scripts, styles, templates, the head, and the
//! page chrome (`header`, `nav`, `footer`, `aside`): a shell
//! whose server-rendered menu is all the text it has is still a shell. A page
//! without an executable script is never script-rendered.

mod finders;
#[cfg(test)]
mod head_tests;
#[cfg(test)]
mod identity_tests;
mod markup;
mod pairs;
#[cfg(test)]
mod reference;
mod script_tag;
mod visible;

use markup::{Token, Tokens, attribute, element_text, lossy, text_of, trimmed};
use pairs::has_pair;
use visible::visible_chars;

/// Why a page looks script-rendered (the name goes into `metadata.engineFallback`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Script runs and the body has next to no visible text.
    EmptyContent,
    /// An empty framework mount point and little text.
    AppShell,
    /// A `<noscript>` asking for JavaScript and little text.
    NoscriptNotice,
}

impl Signal {
    /// The signal's name in responses.
    pub fn name(self) -> &'static str {
        match self {
            Signal::EmptyContent => "emptyContent",
            Signal::AppShell => "appShell",
            Signal::NoscriptNotice => "noscriptNotice",
        }
    }
}

/// Visible characters (outside the page chrome) under which a page running
/// script counts as empty.
const NEARLY_EMPTY: usize = 32;
/// Visible characters under which an app shell or a noscript notice decides.
const LITTLE_TEXT: usize = 500;
/// Visible characters a mount point may hold and still count as empty
/// (a "Loading…" placeholder).
const EMPTY_MOUNT: usize = 32;

/// `id`s frameworks mount their app on.
const MOUNT_IDS: &[&str] = &["root", "app", "__next", "__nuxt", "___gatsby"];
/// Custom elements frameworks mount their app on.
const MOUNT_TAGS: &[&str] = &["app-root"];
/// Elements whose text is the page chrome, not its content (`kind` dispatches on
/// them by their length and first letter; a test holds it to this list).
#[cfg(test)]
const CHROME: &[&str] = &["header", "nav", "footer", "aside"];
/// Phrases of a notice asking for JavaScript (lowercase).
const NOTICE: &[&str] = &[
    "enable javascript",
    "javascript enabled",
    "turn on javascript",
    "javascript is required",
    "javascript is disabled",
    "requires javascript",
    "javascript to run this app",
    "need javascript",
];

/// The signal that makes `html` look script-rendered, if any.
pub fn detect(html: &str) -> Option<Signal> {
    detect_bytes(html.as_bytes())
}

/// [`detect`] on a body as received, read as bytes: the same answer as on its lossy
/// decoding (invalid UTF-8 replaced), without validating or copying the body.
pub fn detect_bytes(body: &[u8]) -> Option<Signal> {
    // Without `<script` the reader finds no script tag: no script runs, whatever the
    // markup, so the answer is known without reading it.
    if !script_tag::has_script_tag(body) {
        return None;
    }
    let facts = scan(body);
    if !facts.runs_script {
        return None;
    }
    if facts.visible < NEARLY_EMPTY {
        Some(Signal::EmptyContent)
    } else if facts.visible < LITTLE_TEXT && facts.empty_mount {
        Some(Signal::AppShell)
    } else if facts.visible < LITTLE_TEXT && facts.noscript_notice {
        Some(Signal::NoscriptNotice)
    } else {
        None
    }
}

/// What [`scan`] found, for comparison with the reference.
#[cfg(test)]
fn facts(body: &[u8]) -> (bool, usize, bool, bool) {
    let f = scan(body);
    (f.runs_script, f.visible, f.empty_mount, f.noscript_notice)
}

/// What one pass over a page found.
#[derive(Debug, Default)]
struct Facts {
    runs_script: bool,
    /// Visible non-space characters outside the chrome.
    visible: usize,
    empty_mount: bool,
    noscript_notice: bool,
}

/// What a start tag's name makes it to the scan (ASCII case ignored).
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    Body,
    Script,
    Noscript,
    /// Another element whose content is not markup.
    Raw(&'static str),
    /// A page chrome element.
    Chrome(&'static str),
    Other,
}

/// (Tests) `rounds` random bodies, each of `pieces` picked at random and joined, as many
/// as `counts` allows; the same bodies for the same `seed` (a xorshift generator).
#[cfg(test)]
fn pieced_bodies<'a>(
    seed: u64,
    pieces: &'a [&'a [u8]],
    counts: std::ops::Range<usize>,
    rounds: usize,
) -> impl Iterator<Item = Vec<u8>> + 'a {
    let mut state = seed;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    (0..rounds).map(move |_| {
        let mut body = Vec::new();
        for _ in 0..counts.start + next(counts.len()) {
            body.extend_from_slice(pieces[next(pieces.len())]);
        }
        body
    })
}

fn kind(name: &[u8]) -> Kind {
    let is = |word: &str| name.eq_ignore_ascii_case(word.as_bytes());
    // Dispatched on the length and the first letter: most names are none of these.
    let Some(&first) = name.first() else {
        return Kind::Other;
    };
    match (name.len(), first | 0x20) {
        (3, b'x') if is("xmp") => Kind::Raw("xmp"),
        (3, b'n') if is("nav") => Kind::Chrome("nav"),
        (4, b'b') if is("body") => Kind::Body,
        (5, b's') if is("style") => Kind::Raw("style"),
        (5, b't') if is("title") => Kind::Raw("title"),
        (5, b'a') if is("aside") => Kind::Chrome("aside"),
        (6, b's') if is("script") => Kind::Script,
        (6, b'h') if is("header") => Kind::Chrome("header"),
        (6, b'f') if is("footer") => Kind::Chrome("footer"),
        (8, b'n') if is("noscript") => Kind::Noscript,
        (8, b't') if is("template") => Kind::Raw("template"),
        (8, b't') if is("textarea") => Kind::Raw("textarea"),
        _ => Kind::Other,
    }
}

/// Whether a `<script>` with these attributes runs (JSON and templates do not).
fn executable(attrs: &[u8]) -> bool {
    match attribute(attrs, "type") {
        None => true,
        // Most scripts' type as written: no decoding, trimming or search for a word.
        Some(t) if t.eq_ignore_ascii_case(b"text/javascript") => true,
        Some(t) => {
            // ASCII case ignored, as a lowercased copy would be compared (the words are ASCII).
            let t = lossy(t);
            let t = t.trim().as_bytes();
            let has = |word: &[u8]| t.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
            t.is_empty() || t.eq_ignore_ascii_case(b"module") || has(b"javascript") || has(b"ecmascript")
        }
    }
}

fn is_mount(name: &[u8], attrs: &[u8]) -> bool {
    MOUNT_TAGS.iter().any(|t| name.eq_ignore_ascii_case(t.as_bytes()))
        || may_name_id(attrs)
            && may_hold_mount_id(attrs)
            && attribute(attrs, "id").is_some_and(|id| {
                // Trimmed once; a mount id is short, so most values fail on their length.
                let id = trimmed(id);
                MOUNT_IDS.iter().any(|m| *id == *m.as_bytes())
            })
}

/// Whether `attrs` holds `id` as [`attribute`] looks for it (an `i` then a `d`, each in
/// any case), so that most tags, without one, skip the walk through their attributes.
fn may_name_id(attrs: &[u8]) -> bool {
    has_pair(attrs, [(b'i', b'd', 0x20)])
}

/// Whether `attrs` may hold one of [`MOUNT_IDS`]: each has `ro`, `ap` or `__` in it, which
/// an `id` that names the page's mount point (a value [`attribute`] returns, trimmed) needs.
/// Most tags with an `id` (or an `i` before a `d`, as in `width` or `hidden`) have none.
fn may_hold_mount_id(attrs: &[u8]) -> bool {
    has_pair(attrs, [(b'r', b'o', 0), (b'a', b'p', 0), (b'_', b'_', 0)])
}

/// Whether `html` has `<body` somewhere (ASCII case ignored).
fn has_body_tag(html: &[u8]) -> bool {
    finders::all(html, finders::lt).any(|at| {
        html.get(at + 1..at + 5)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"body"))
    })
}

fn scan(html: &[u8]) -> Facts {
    let mut facts = Facts::default();
    // Text before `<body>` (the head) is not content, unless there is no body tag.
    let mut in_body = !has_body_tag(html);
    // Open chrome elements; an end tag closes the last of its name and
    // whatever was left open inside it, as HTML's parser does.
    let mut chrome: Vec<&str> = Vec::new();
    let mut tokens = Tokens::new(html);
    while let Some(token) = tokens.next_token() {
        if facts.visible >= LITTLE_TEXT {
            // Decided: with this much text no signal can apply (and visible
            // text only grows), so the rest of the page is not scanned.
            break;
        }
        match token {
            Token::Text(t) if in_body && chrome.is_empty() => facts.visible += visible_chars(t),
            Token::Start(name, attrs) => match kind(name) {
                Kind::Body => in_body = true,
                Kind::Script => {
                    // Once a script runs, the next ones' types change nothing.
                    if !facts.runs_script {
                        facts.runs_script = executable(attrs);
                    }
                    tokens.raw_until_end("script");
                }
                Kind::Noscript => {
                    // What the HTTP engine's result shows of the page: some
                    // apps serve their whole content to crawlers in here.
                    let text = text_of(tokens.raw_until_end("noscript"));
                    let text_visible = text.chars().filter(|c| !c.is_whitespace()).count();
                    if in_body && chrome.is_empty() {
                        facts.visible += text_visible;
                    }
                    let text = text.to_lowercase();
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    facts.noscript_notice |= NOTICE.iter().any(|p| text.contains(p));
                }
                Kind::Raw(raw) => {
                    tokens.raw_until_end(raw);
                }
                Kind::Chrome(c) => chrome.push(c),
                Kind::Other if in_body && is_mount(name, attrs) => {
                    // The mount's text counts as the page's too.
                    let inside = element_text(&mut tokens, name);
                    if chrome.is_empty() {
                        facts.visible += inside;
                    }
                    facts.empty_mount |= inside < EMPTY_MOUNT;
                }
                Kind::Other => {}
            },
            Token::End(name) if !chrome.is_empty() => {
                if let Some(at) = chrome
                    .iter()
                    .rposition(|c| name.eq_ignore_ascii_case(c.as_bytes()))
                {
                    chrome.truncate(at);
                }
            }
            _ => {}
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!(
            "<!DOCTYPE html><html><head><title>A page title here</title></head><body>{body}</body></html>"
        )
    }

    #[test]
    fn bodies_are_checked_as_bytes_invalid_utf8_included() {
        let shell = page("<div id=\"root\"></div><script src=\"/app.js\"></script>");
        assert_eq!(detect_bytes(shell.as_bytes()), Some(Signal::EmptyContent));
        let mut bytes = shell.into_bytes();
        bytes.insert(bytes.len() - 20, 0xff);
        assert_eq!(detect_bytes(&bytes), Some(Signal::EmptyContent));
        // Past the text that decides, the rest of a page does not change the answer.
        let long = page(&format!(
            "{}<div id=\"app\"></div><noscript>Please enable JavaScript</noscript><script></script>",
            ARTICLE.repeat(3)
        ));
        assert_eq!(detect_bytes(long.as_bytes()), None);
    }

    const ARTICLE: &str = "<article><h1>Lichens on old walls</h1><p>Lichens are composite organisms \
        of algae or cyanobacteria living among filaments of fungi. They grow slowly on stone, \
        bark and soil, and some colonies are centuries old.</p></article>";

    #[test]
    fn a_static_page_with_scripts_is_not_script_rendered() {
        let html = page(&format!("{ARTICLE}<script src='/analytics.js'></script>"));
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn a_page_without_script_never_is_even_when_empty() {
        assert_eq!(detect(&page("")), None);
        assert_eq!(detect(&page("<div id='root'></div>")), None);
        // JSON data is not a script.
        assert_eq!(
            detect(&page("<script type='application/ld+json'>{\"a\":1}</script>")),
            None
        );
    }

    #[test]
    fn an_empty_body_running_script_is() {
        let html = page("<main><p>Loading…</p></main><script>render()</script>");
        assert_eq!(detect(&html), Some(Signal::EmptyContent));
        // Scripts in the head count; so does a module.
        let html = "<html><head><script type=module src=/app.js></script></head><body>\n</body></html>";
        assert_eq!(detect(html), Some(Signal::EmptyContent));
    }

    #[test]
    fn an_empty_mount_point_with_some_chrome_text_is_an_app_shell() {
        let shell = "<p>Sign up for our newsletter and get the latest news about our products, \
            services and events delivered to your inbox every week.</p>";
        for mount in [
            "<div id=\"root\"></div>",
            "<div id='app'> <!-- app --> </div>",
            "<div id=__next><div class=spinner></div></div>",
            "<div id=\"__nuxt\">Loading...</div>",
            "<app-root></app-root>",
            // Attribute names in any case, whitespace of any kind around `=`.
            "<div ID=\"root\"></div>",
            "<DIV Id = 'app'></DIV>",
            "<div\tiD\n=\n__next></div>",
            "<APP-ROOT></APP-ROOT>",
            // After another attribute's quoted value, or a `/`, without a space.
            "<div class=\"shell\"id=\"root\"></div>",
            "<div/id=app></div>",
        ] {
            let html = page(&format!("{shell}{mount}<script src='/bundle.js'></script>"));
            assert_eq!(detect(&html), Some(Signal::AppShell), "{mount}");
        }
        // An `id=` inside another attribute's value, or a second `id`, is no mount point.
        for not_mount in [
            "<div class='x id=root'></div>",
            "<div title=\"id=app\"></div>",
            "<div data-id=root></div>",
            "<div id=main id=root></div>",
        ] {
            let html = page(&format!("{shell}{not_mount}<script src='/bundle.js'></script>"));
            assert_eq!(detect(&html), None, "{not_mount}");
        }
    }

    #[test]
    fn a_filled_mount_point_is_not_a_shell() {
        // Server-side rendering fills the mount point.
        let html = page(&format!(
            "<div id=\"__next\">{ARTICLE}</div><script src='/_next/main.js'></script>"
        ));
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn a_noscript_notice_with_little_text_is() {
        let html = page(
            "<noscript>You need to <b>enable JavaScript</b> to run this app.</noscript>\
             <div class=\"page\"><p>Welcome! This text is here but it is not the content of the \
             page, only a greeting shown while it loads.</p></div><script src=/main.js></script>",
        );
        assert_eq!(detect(&html), Some(Signal::NoscriptNotice));
        // The same notice on a page full of content does not decide.
        let long = ARTICLE.repeat(4);
        let html = page(&format!(
            "<noscript>Please enable JavaScript.</noscript>{long}<script>x()</script>"
        ));
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn the_page_chrome_is_not_content() {
        let nav = format!("<nav>{}</nav>", "<a href='/x'>A menu entry</a>".repeat(40));
        let html = page(&format!(
            "<header><h1>Site</h1></header>{nav}<div id='root'></div><footer>© Someone</footer>\
             <script src=/b.js></script>"
        ));
        assert_eq!(detect(&html), Some(Signal::EmptyContent));
        let html = page(&format!("{nav}{ARTICLE}<script src=/b.js></script>"));
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn scripts_styles_and_comments_are_not_text() {
        let filler = "x".repeat(2000);
        let html = page(&format!(
            "<style>.a{{content:'{filler}'}}</style><!-- {filler} --><script>var s='{filler}';</script>\
             <script>var t = '</div>{filler}';</script><template><p>{filler}</p></template>"
        ));
        assert_eq!(detect(&html), Some(Signal::EmptyContent));
    }

    #[test]
    fn content_served_inside_noscript_counts() {
        let html = page(&format!(
            "<noscript>{ARTICLE}</noscript><script src=/app.js></script>"
        ));
        assert_eq!(detect(&html), None);
        // An empty mount point beside a short noscript article is still a shell.
        let html = page(&format!(
            "<noscript>{ARTICLE}</noscript><div id='root'></div><script src=/app.js></script>"
        ));
        assert_eq!(detect(&html), Some(Signal::AppShell));
    }

    #[test]
    fn a_stray_quote_in_a_tag_does_not_hide_the_rest() {
        let html = format!(
            "<html><head><link rel=icon href=\u{201d}/favicon.ico\" /><script src=/a.js></script>\
             </head><body>{ARTICLE}</body></html>"
        );
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn an_unclosed_menu_ends_with_its_sidebar() {
        let html = page(&format!(
            "<aside><nav><a href=/a>A</a><nav><a href=/b>B</a></nav></aside>{ARTICLE}<script src=/a.js></script>"
        ));
        assert_eq!(detect(&html), None);
    }

    #[test]
    fn the_id_pre_check_finds_every_i_before_a_d() {
        // Random sources of the bytes that matter (`pairs.rs` tests every pair at every
        // offset); what the pre-check rules out has no `id` attribute.
        let naive = |s: &[u8]| s.windows(2).any(|w| w[0] | 0x20 == b'i' && w[1] | 0x20 == b'd');
        let mut found = 0;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let s: Vec<u8> = (0..(state % 90) as usize)
                .map(|i| b"iIdD x=\"\xc4\x64"[((state >> (i % 60)) as usize + i) % 10])
                .collect();
            assert_eq!(may_name_id(&s), naive(&s), "{s:?}");
            found += usize::from(naive(&s));
            if !may_name_id(&s) {
                assert_eq!(attribute(&s, "id"), None, "{s:?}");
            }
        }
        assert!((5_000..45_000).contains(&found), "{found}");
    }

    #[test]
    fn the_mount_id_pre_check_finds_every_pair_a_mount_id_needs() {
        // Random sources (`pairs.rs` tests every pair at every offset): what the
        // pre-check rules out is never a mount point.
        let naive = |s: &[u8]| s.windows(2).any(|w| matches!(w, b"ro" | b"ap" | b"__"));
        let pieces: &[&[u8]] = &[
            b" id=",
            b"ID = ",
            b"'",
            b"\"",
            b"root",
            b"app",
            b"__next",
            b"__nuxt",
            b"___gatsby",
            b"r",
            b"o",
            b"a",
            b"p",
            b"_",
            b" ",
            b"\xc2\xa0",
            b"class=x",
            b"\t",
        ];
        let mut mounts = 0;
        for s in pieced_bodies(0x2545_f491_4f6c_dd1d, pieces, 0..9, 50_000) {
            assert_eq!(may_hold_mount_id(&s), naive(&s), "{s:?}");
            let mount =
                attribute(&s, "id").is_some_and(|id| MOUNT_IDS.iter().any(|m| *trimmed(id) == *m.as_bytes()));
            assert!(!mount || may_hold_mount_id(&s), "{s:?}");
            mounts += usize::from(mount);
        }
        assert!(mounts > 500, "{mounts}");
    }

    #[test]
    fn a_tag_name_is_the_kind_its_listed_name_is_in_any_case() {
        // What `kind` is: the raw elements' and the chrome's lists, looked through.
        let listed = |name: &[u8]| {
            let is = |word: &str| name.eq_ignore_ascii_case(word.as_bytes());
            if is("body") {
                Kind::Body
            } else if is("script") {
                Kind::Script
            } else if is("noscript") {
                Kind::Noscript
            } else if let Some(raw) = markup::raw_name(name) {
                Kind::Raw(raw)
            } else if let Some(c) = CHROME.iter().find(|c| is(c)) {
                Kind::Chrome(c)
            } else {
                Kind::Other
            }
        };
        let words = markup::RAW
            .iter()
            .chain(CHROME)
            .chain(&["body", "div", "a", "span", "svg", "tbody"]);
        let mut names = 0;
        for word in words {
            let lower = word.as_bytes().to_vec();
            let upper = word.to_ascii_uppercase().into_bytes();
            let mixed: Vec<u8> = lower
                .iter()
                .zip(&upper)
                .enumerate()
                .map(|(i, (&l, &u))| if i % 2 == 0 { u } else { l })
                .collect();
            for name in [lower, upper, mixed] {
                // The name, a letter changed (0x20 off a letter is not a letter), one more, one less.
                let mut changed = name.clone();
                let last = changed.len() - 1;
                changed[last] ^= 0x01;
                let mut first = name.clone();
                first[0] ^= 0x40;
                let variants = [
                    name.clone(),
                    changed,
                    first,
                    [&name[..], b"x"].concat(),
                    name[..last].to_vec(),
                ];
                for v in variants {
                    assert_eq!(kind(&v), listed(&v), "{:?}", String::from_utf8_lossy(&v));
                    names += 1;
                }
            }
        }
        assert!(names > 200, "{names}");
        assert_eq!(kind(b"TeXtArEa"), Kind::Raw("textarea"));
        assert_eq!(kind(b"NAV"), Kind::Chrome("nav"));
        assert_eq!(kind(b""), Kind::Other);
    }

    #[test]
    fn odd_markup_does_not_panic() {
        for html in [
            "",
            "<",
            "<<<>>>",
            "<script",
            "<script>never closed",
            "<!--",
            "<div id=\"root",
            "<div id='app'",
            "text < 5 and > 3 <script>",
            "<BODY><DIV ID=ROOT></DIV><SCRIPT SRC=A.JS></SCRIPT></BODY>",
            "é<ü id=app>ß</ü><script>",
            "<aü",
            "<div id=\"ü",
        ] {
            let _ = detect(html);
        }
        assert_eq!(
            detect("<BODY><DIV ID=root></DIV><SCRIPT SRC=A.JS></SCRIPT></BODY>"),
            Some(Signal::EmptyContent)
        );
    }
}
