//! Whether an HTML page fetched without a browser looks script-rendered: its
//! content would only exist after its scripts ran. A pure, single pass over
//! the markup as bytes ([`markup`]; no DOM is built, the body is neither
//! validated nor copied), so the HTTP engine's every page can be checked
//! cheaply; it stops once the page has enough visible text that no signal can
//! apply. General signals only:
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
mod identity_tests;
mod markup;
#[cfg(test)]
mod reference;
mod visible;

use markup::{Token, Tokens, attribute, element_text, lossy, raw_name, text_of, trimmed};
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
/// Elements whose text is the page chrome, not its content.
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

fn kind(name: &[u8]) -> Kind {
    let is = |word: &str| name.eq_ignore_ascii_case(word.as_bytes());
    // Dispatched on the length first: most names are none of these.
    match name.len() {
        4 if is("body") => Kind::Body,
        6 if is("script") => Kind::Script,
        8 if is("noscript") => Kind::Noscript,
        3..=8 => match raw_name(name) {
            Some(raw) => Kind::Raw(raw),
            None => CHROME
                .iter()
                .find(|c| is(c))
                .map_or(Kind::Other, |c| Kind::Chrome(c)),
        },
        _ => Kind::Other,
    }
}

/// Whether a `<script>` with these attributes runs (JSON and templates do not).
fn executable(attrs: &[u8]) -> bool {
    match attribute(attrs, "type") {
        None => true,
        Some(t) => {
            let t = lossy(t).trim().to_ascii_lowercase();
            t.is_empty() || t == "module" || t.contains("javascript") || t.contains("ecmascript")
        }
    }
}

fn is_mount(name: &[u8], attrs: &[u8]) -> bool {
    MOUNT_TAGS.iter().any(|t| name.eq_ignore_ascii_case(t.as_bytes()))
        || may_name_id(attrs)
            && attribute(attrs, "id").is_some_and(|id| {
                // Trimmed once; a mount id is short, so most values fail on their length.
                let id = trimmed(id);
                MOUNT_IDS.iter().any(|m| *id == *m.as_bytes())
            })
}

/// Whether `attrs` holds `id` as [`attribute`] looks for it (an `i` then a `d` in any
/// case), so that most tags, without one, skip the search of their `=`s. Sixteen byte
/// pairs a step, each marked in its own lane of a 16-byte accumulator, so the compiler
/// compares a step's pairs as one vector of first bytes and one of second bytes; the exit
/// after each step keeps it from vectorising across steps instead (every sixteenth byte
/// gathered into a lane, several times slower). The last step overlaps the one before;
/// under 17 bytes one plain fold.
fn may_name_id(attrs: &[u8]) -> bool {
    const STEP: usize = 16;
    let Some(n) = attrs.len().checked_sub(1) else {
        return false;
    };
    // Pair `k` is `(firsts[k], seconds[k])`.
    let (firsts, seconds) = (&attrs[..n], &attrs[1..]);
    if n < STEP {
        return firsts.iter().zip(seconds).fold(0u8, |seen, (&a, &b)| {
            seen | (u8::from(a == b'i') & u8::from(b | 0x20 == b'd'))
        }) != 0;
    }
    #[inline(always)]
    fn mark(seen: &mut [u8; STEP], a: &[u8], b: &[u8]) {
        let a: &[u8; STEP] = a.try_into().expect("a whole step");
        let b: &[u8; STEP] = b.try_into().expect("a whole step");
        for k in 0..STEP {
            seen[k] |= u8::from(a[k] == b'i') & u8::from(b[k] | 0x20 == b'd');
        }
    }
    let mut seen = [0u8; STEP];
    for (a, b) in firsts.chunks_exact(STEP).zip(seconds.chunks_exact(STEP)) {
        mark(&mut seen, a, b);
        if seen != [0; STEP] {
            return true;
        }
    }
    mark(&mut seen, &firsts[n - STEP..], &seconds[n - STEP..]);
    seen != [0; STEP]
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
                    facts.runs_script |= executable(attrs);
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
        ] {
            let html = page(&format!("{shell}{mount}<script src='/bundle.js'></script>"));
            assert_eq!(detect(&html), Some(Signal::AppShell), "{mount}");
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
        // Each pair at every offset of sources 0–70 bytes long (across the 16-byte steps
        // and the overlapping last one), and random sources of the bytes that matter.
        let naive = |s: &[u8]| s.windows(2).any(|w| w[0] == b'i' && w[1] | 0x20 == b'd');
        let mut found = 0;
        for len in 0..70 {
            for at in 0..len {
                for pair in [*b"id", *b"iD", *b"Id", *b"ID", *b"ii", *b"dd", *b"di", *b"i\xc4"] {
                    let mut s = vec![b'x'; len];
                    s[at] = pair[0];
                    if at + 1 < len {
                        s[at + 1] = pair[1];
                    }
                    assert_eq!(may_name_id(&s), naive(&s), "{s:?}");
                    found += usize::from(naive(&s));
                }
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let s: Vec<u8> = (0..(state % 90) as usize)
                .map(|i| b"iIdD x=\"\xc4\x64"[((state >> (i % 60)) as usize + i) % 10])
                .collect();
            assert_eq!(may_name_id(&s), naive(&s), "{s:?}");
            // What the pre-check rules out has no `id` attribute.
            if !may_name_id(&s) {
                assert_eq!(attribute(&s, "id"), None, "{s:?}");
            }
        }
        assert!(found > 4_000, "{found}");
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
