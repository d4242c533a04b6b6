//! `redactPII` on HTML without breaking its markup: text between tags,
//! comments, `<script>` contents (JSON-LD and inline data carry addresses
//! too) and the values of attributes that hold text or URLs (`href`, `alt`,
//! `content`, `value`, `data-*`, ...) are redacted; tag names, attribute
//! names and the attributes that only style or identify (`class`, `id`,
//! `style`, `type`, ...) are copied as they are, and so is `<style>`. A
//! replacement never holds `<`, `>`, `&` or quotes, so what was well-formed
//! stays well-formed. Text is matched as written: an address spelled with
//! character references (`&#64;`) is not recognised.

use crate::{RedactOptions, redact};

/// Attributes whose values never carry personal data: copied as they are.
const KEPT_ATTRIBUTES: &[&str] = &[
    "class",
    "id",
    "style",
    "type",
    "rel",
    "lang",
    "dir",
    "name",
    "for",
    "role",
    "charset",
    "http-equiv",
    "itemprop",
    "itemtype",
    "itemscope",
    "property",
    "media",
    "sizes",
    "width",
    "height",
    "colspan",
    "rowspan",
    "integrity",
    "crossorigin",
    "loading",
    "decoding",
    "target",
    "method",
    "tabindex",
    "datetime",
];

/// Elements whose contents are raw text (no tags inside), with whether that
/// text is redacted.
const RAW_TEXT: &[(&str, bool)] = &[
    ("script", true),
    ("style", false),
    ("textarea", true),
    ("title", true),
];

/// `html` with personal data in its text and attribute values replaced.
pub fn redact_html(html: &str, opts: &RedactOptions) -> String {
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    while at < html.len() {
        let Some(lt) = html[at..].find('<').map(|o| at + o) else {
            out.push_str(&redact(&html[at..], opts));
            break;
        };
        out.push_str(&redact(&html[at..lt], opts));
        let rest = &html[lt..];
        if let Some(body) = rest.strip_prefix("<!--") {
            let end = body.find("-->").map(|e| lt + 4 + e).unwrap_or(html.len());
            out.push_str("<!--");
            out.push_str(&redact(&html[lt + 4..end], opts));
            at = (end + 3).min(html.len());
            out.push_str(&html[end..at]);
            continue;
        }
        let next = rest[1..].chars().next();
        if rest.starts_with("<!") || rest.starts_with("<?") {
            at = rest.find('>').map(|e| lt + e + 1).unwrap_or(html.len());
            out.push_str(&html[lt..at]);
            continue;
        }
        if !next.is_some_and(|c| c.is_ascii_alphabetic() || c == '/') {
            out.push('<');
            at = lt + 1;
            continue;
        }
        let end = tag_end(html, lt);
        let name = tag_name(&html[lt..end]);
        out.push_str(&redact_tag(&html[lt..end], opts));
        at = end;
        let closing = rest.starts_with("</");
        if let Some(&(raw, redacted)) = RAW_TEXT.iter().find(|(n, _)| !closing && name == *n) {
            let close = find_ascii_ci(html, at, &format!("</{raw}")).unwrap_or(html.len());
            if redacted {
                out.push_str(&redact(&html[at..close], opts));
            } else {
                out.push_str(&html[at..close]);
            }
            at = close;
        }
    }
    out
}

/// The byte after the `>` closing the tag that starts at `lt` (quotes respected).
fn tag_end(html: &str, lt: usize) -> usize {
    let mut quote: Option<u8> = None;
    for (i, &b) in html.as_bytes()[lt + 1..].iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return lt + 1 + i + 1,
            None => {}
        }
    }
    html.len()
}

/// A tag's element name, lower-cased (`<Script src=..>` → `script`).
fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('<')
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The first `needle` (ASCII, matched case-insensitively) at or after `from`.
fn find_ascii_ci(haystack: &str, from: usize, needle: &str) -> Option<usize> {
    let h = haystack.as_bytes();
    let n = needle.as_bytes();
    (from..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// One tag with its attribute values redacted.
fn redact_tag(tag: &str, opts: &RedactOptions) -> String {
    let b = tag.as_bytes();
    let mut out = String::with_capacity(tag.len());
    // The `<` and the name.
    let mut i = 1;
    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
        i += 1;
    }
    out.push_str(&tag[..i]);
    while i < b.len() {
        // Copy whitespace and stray characters up to an attribute name.
        let name_start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let name = tag[name_start..i].to_ascii_lowercase();
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if name.is_empty() || j >= b.len() || b[j] != b'=' {
            // No value: copy up to the next character.
            let next = if i == name_start { i + 1 } else { i };
            let next = next.min(b.len());
            out.push_str(&tag[name_start..next]);
            i = next;
            continue;
        }
        // `name` `=` and the value.
        j += 1;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        out.push_str(&tag[name_start..j]);
        let (value_start, value_end, after) = match b.get(j) {
            Some(&q) if q == b'"' || q == b'\'' => {
                let close = tag[j + 1..].find(q as char).map(|e| j + 1 + e).unwrap_or(b.len());
                (j + 1, close, (close + 1).min(b.len()))
            }
            _ => {
                let mut e = j;
                while e < b.len() && !b[e].is_ascii_whitespace() && b[e] != b'>' {
                    e += 1;
                }
                (j, e, e)
            }
        };
        let quoted = value_start > j;
        let value = &tag[value_start..value_end];
        let kept = KEPT_ATTRIBUTES.contains(&name.as_str());
        let new = if kept {
            value.to_string()
        } else {
            redact(value, opts)
        };
        if quoted {
            out.push_str(&tag[j..value_start]);
            out.push_str(&new);
            out.push_str(&tag[value_end..after]);
        } else if new.is_empty() && !value.is_empty() {
            out.push_str("\"\"");
        } else {
            out.push_str(&new);
        }
        i = after;
    }
    out
}
