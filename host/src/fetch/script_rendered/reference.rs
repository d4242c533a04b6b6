//! The script-rendered check as it was before it read bytes (a `str` tokenizer, the body
//! validated as UTF-8 first), kept unchanged as the reference its replacement must agree
//! with on every page (`identity_tests`).

use std::borrow::Cow;

/// Why a page looks script-rendered (the name goes into `metadata.engineFallback`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Signal {
    /// Script runs and the body has next to no visible text.
    EmptyContent,
    /// An empty framework mount point and little text.
    AppShell,
    /// A `<noscript>` asking for JavaScript and little text.
    NoscriptNotice,
}

impl Signal {
    /// The signal's name in responses.
    pub(crate) fn name(self) -> &'static str {
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
/// Elements whose content is not markup.
const RAW: &[&str] = &[
    "script", "style", "noscript", "template", "textarea", "title", "xmp",
];
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
pub(crate) fn detect(html: &str) -> Option<Signal> {
    let facts = scan(html);
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

/// [`detect`] on a body as received (invalid UTF-8 replaced; a valid body,
/// nearly every one, is checked where it lies).
pub(crate) fn detect_bytes(body: &[u8]) -> Option<Signal> {
    match std::str::from_utf8(body) {
        Ok(html) => detect(html),
        Err(_) => detect(&String::from_utf8_lossy(body)),
    }
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

/// A piece of markup.
enum Token<'a> {
    Text(&'a str),
    /// A start tag: its lowercase name, its attributes' source, self-closing.
    Start(Cow<'a, str>, &'a str),
    End(Cow<'a, str>),
    /// A comment, doctype or processing instruction.
    Other,
}

/// Splits markup into tokens; `pos` moves past each.
struct Tokens<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn next_token(&mut self) -> Option<Token<'a>> {
        let rest = &self.src[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        if bytes[0] != b'<' {
            let len = memchr::memchr(b'<', bytes).unwrap_or(rest.len());
            self.pos += len;
            return Some(Token::Text(&rest[..len]));
        }
        if let Some(comment) = rest.strip_prefix("<!--") {
            self.pos += comment.find("-->").map_or(rest.len(), |i| i + 7);
            return Some(Token::Other);
        }
        let is_end = bytes.get(1) == Some(&b'/');
        let name_start = if is_end { 2 } else { 1 };
        if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            if matches!(bytes.get(1), Some(b'!' | b'?' | b'/')) {
                self.pos += rest.find('>').map_or(rest.len(), |i| i + 1);
                return Some(Token::Other);
            }
            // A lone '<' is text.
            self.pos += 1;
            return Some(Token::Text("<"));
        }
        let close = tag_close(rest);
        self.pos += close.map_or(rest.len(), |i| i + 1);
        let inner = &rest[name_start..close.unwrap_or(rest.len())];
        let name_len = inner
            .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
            .unwrap_or(inner.len());
        // Most names are written in lower case: borrowed, not copied.
        let name = &inner[..name_len];
        let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(name.to_ascii_lowercase())
        } else {
            Cow::Borrowed(name)
        };
        Some(if is_end {
            Token::End(name)
        } else {
            Token::Start(name, &inner[name_len..])
        })
    }

    /// The raw content up to `</name`, and moves past its end tag.
    fn raw_until_end(&mut self, name: &str) -> &'a str {
        let rest = &self.src[self.pos..];
        let close = format!("</{name}");
        match find_ignore_case(rest, &close) {
            Some(at) => {
                let after = &rest[at..];
                self.pos += at + after.find('>').map_or(after.len(), |i| i + 1);
                &rest[..at]
            }
            None => {
                self.pos = self.src.len();
                rest
            }
        }
    }
}

/// Where the `>` closing the tag that starts `s` is. A quote opens a value
/// only right after `=` (whitespace between allowed), as in HTML (a stray
/// quote elsewhere is text). Jumps from one `>` or quote to the next.
fn tag_close(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        let at = i + memchr::memchr3(b'>', b'"', b'\'', &b[i..])?;
        let q = b[at];
        if q == b'>' {
            return Some(at);
        }
        // The last non-space byte before the quote (never before the tag's
        // first byte): a value's own closing quote is not `=`.
        let opens = b[1..at].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b'=');
        i = if opens {
            at + 1 + memchr::memchr(q, &b[at + 1..])? + 1
        } else {
            at + 1
        };
    }
    None
}

/// Where `needle` (which starts with an ASCII byte, e.g. `<`) first occurs in
/// `hay`, ASCII case ignored; candidates found by their first byte (memchr).
fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let mut from = 0;
    while let Some(at) = memchr::memchr(first, &h[from..]).map(|i| i + from) {
        if h.len() - at >= n.len() && h[at..at + n.len()].eq_ignore_ascii_case(n) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Where HTML's tokenizer is among a tag's attributes (its states of the same names).
#[derive(Clone, Copy)]
enum At {
    BeforeName,
    Name,
    AfterName,
    BeforeValue,
    Quoted(char),
    Unquoted,
}

/// The value of attribute `name` (lowercase) in a start tag's attribute source, read by
/// HTML's tokenizer's states: the first attribute of that name (names in any case), `""`
/// when it has no value.
fn attribute<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let space = |c: char| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
    // The attribute being read: its name's start and end, its value's start.
    let (mut name_at, mut name_end, mut value_at) = (0, 0, 0);
    let is_it = |from: usize, to: usize| attrs[from..to].eq_ignore_ascii_case(name);
    let mut state = At::BeforeName;
    for (i, c) in attrs.char_indices() {
        // An attribute ends here without a value, or with `attrs[value_at..i]`.
        let ends_bare = matches!((state, c), (At::Name, '/' | '>'))
            || matches!(state, At::AfterName | At::BeforeValue if c == '>')
            || matches!(state, At::AfterName if !space(c) && c != '=');
        let ends_valued =
            matches!(state, At::Quoted(q) if c == q) || matches!(state, At::Unquoted if space(c) || c == '>');
        if matches!(state, At::Name) && (space(c) || matches!(c, '/' | '>' | '=')) {
            name_end = i;
        }
        if ends_bare && is_it(name_at, name_end) {
            return Some("");
        }
        if ends_valued && is_it(name_at, name_end) {
            return Some(&attrs[value_at..i]);
        }
        state = match (state, c) {
            (_, '>') if !matches!(state, At::Quoted(_)) => return None,
            (At::BeforeName, c) if space(c) || c == '/' => At::BeforeName,
            (At::BeforeName, _) => {
                name_at = i;
                At::Name
            }
            (At::Name, '=') | (At::AfterName, '=') => At::BeforeValue,
            (At::Name, '/') => At::BeforeName,
            (At::Name, c) if space(c) => At::AfterName,
            (At::Name, _) => At::Name,
            (At::AfterName, c) if space(c) => At::AfterName,
            (At::AfterName, '/') => At::BeforeName,
            (At::AfterName, _) => {
                name_at = i;
                At::Name
            }
            (At::BeforeValue, c) if space(c) => At::BeforeValue,
            (At::BeforeValue, q @ ('"' | '\'')) => {
                value_at = i + 1;
                At::Quoted(q)
            }
            (At::BeforeValue, _) => {
                value_at = i;
                At::Unquoted
            }
            (At::Quoted(q), c) if c == q => At::BeforeName,
            (At::Quoted(q), _) => At::Quoted(q),
            (At::Unquoted, c) if space(c) => At::BeforeName,
            (At::Unquoted, _) => At::Unquoted,
        };
    }
    // The source ends inside an attribute: it still counts.
    match state {
        At::BeforeName => None,
        At::Name => is_it(name_at, attrs.len()).then_some(""),
        At::AfterName | At::BeforeValue => is_it(name_at, name_end).then_some(""),
        At::Quoted(_) | At::Unquoted => is_it(name_at, name_end).then_some(&attrs[value_at..]),
    }
}

/// Whether a `<script>` with these attributes runs (JSON and templates do not).
fn executable(attrs: &str) -> bool {
    match attribute(attrs, "type") {
        None => true,
        Some(t) => {
            let t = t.trim().to_ascii_lowercase();
            t.is_empty() || t == "module" || t.contains("javascript") || t.contains("ecmascript")
        }
    }
}

fn visible_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

/// Visible characters of markup (raw elements skipped), e.g. a `<noscript>`'s text.
fn text_of(markup: &str) -> String {
    let mut tokens = Tokens { src: markup, pos: 0 };
    let mut out = String::new();
    while let Some(token) = tokens.next_token() {
        match token {
            Token::Text(t) => {
                out.push_str(t);
                out.push(' ');
            }
            Token::Start(name, _) if RAW.contains(&&*name) => {
                tokens.raw_until_end(&name);
            }
            _ => {}
        }
    }
    out
}

/// The visible characters inside the element whose start tag `tokens` just
/// passed, through its end tag (same-name elements nested inside counted).
fn element_text(tokens: &mut Tokens<'_>, name: &str) -> usize {
    let mut depth = 1usize;
    let mut visible = 0;
    while let Some(token) = tokens.next_token() {
        match token {
            Token::Text(t) => visible += visible_chars(t),
            Token::Start(n, _) if RAW.contains(&&*n) => {
                tokens.raw_until_end(&n);
            }
            Token::Start(n, attrs) if n == name && !attrs.trim_end().ends_with('/') => depth += 1,
            Token::End(n) if n == name => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    visible
}

fn is_mount(name: &str, attrs: &str) -> bool {
    MOUNT_TAGS.contains(&name) || attribute(attrs, "id").is_some_and(|id| MOUNT_IDS.contains(&id.trim()))
}

fn scan(html: &str) -> Facts {
    let mut facts = Facts::default();
    // Text before `<body>` (the head) is not content, unless there is no body tag.
    let mut in_body = find_ignore_case(html, "<body").is_none();
    // Open chrome elements; an end tag closes the last of its name and
    // whatever was left open inside it, as HTML's parser does.
    let mut chrome: Vec<&str> = Vec::new();
    let mut tokens = Tokens { src: html, pos: 0 };
    while let Some(token) = tokens.next_token() {
        if facts.visible >= LITTLE_TEXT {
            // Decided: with this much text no signal can apply (and visible
            // text only grows), so the rest of the page is not scanned.
            break;
        }
        match token {
            Token::Text(t) if in_body && chrome.is_empty() => facts.visible += visible_chars(t),
            Token::Start(name, attrs) => match &*name {
                "body" => in_body = true,
                "script" => {
                    facts.runs_script |= executable(attrs);
                    tokens.raw_until_end("script");
                }
                "noscript" => {
                    // What the HTTP engine's result shows of the page: some
                    // apps serve their whole content to crawlers in here.
                    let text = text_of(tokens.raw_until_end("noscript"));
                    if in_body && chrome.is_empty() {
                        facts.visible += visible_chars(&text);
                    }
                    let text = text.to_lowercase();
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    facts.noscript_notice |= NOTICE.iter().any(|p| text.contains(p));
                }
                n if RAW.contains(&n) => {
                    tokens.raw_until_end(n);
                }
                n if CHROME.contains(&n) => {
                    chrome.extend(CHROME.iter().find(|c| **c == n));
                }
                n if in_body && is_mount(n, attrs) => {
                    // The mount's text counts as the page's too.
                    let inside = element_text(&mut tokens, n);
                    if chrome.is_empty() {
                        facts.visible += inside;
                    }
                    facts.empty_mount |= inside < EMPTY_MOUNT;
                }
                _ => {}
            },
            Token::End(name) => {
                if let Some(at) = chrome.iter().rposition(|c| *c == name) {
                    chrome.truncate(at);
                }
            }
            _ => {}
        }
    }
    facts
}

/// What [`scan`] found on `body` (decoded as [`detect_bytes`] does): whether script runs,
/// the visible characters, an empty mount, a noscript notice.
pub(crate) fn facts(body: &[u8]) -> (bool, usize, bool, bool) {
    let f = scan(&String::from_utf8_lossy(body));
    (f.runs_script, f.visible, f.empty_mount, f.noscript_notice)
}
