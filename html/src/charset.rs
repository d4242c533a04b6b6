//! Byte → text decoding of fetched HTML: BOM, then the `Content-Type` charset, then a
//! `<meta>` prescan of the first 4 KB (WHATWG "prescan a byte stream"), else UTF-8 when the
//! bytes read as UTF-8, else the legacy encoding `chardetng` (Firefox's detector) finds
//! most likely — a Shift-JIS or windows-1251 page that declares nothing, as browsers guess.
//! Decoding is lossy (encoding_rs) and never fails.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many leading bytes the `<meta>` prescan looks at.
const PRESCAN_LIMIT: usize = 4096;

/// Decodes an HTML body to a `String`.
pub fn decode_html(bytes: &[u8], content_type: Option<&str>) -> String {
    let (text, _, _) = encoding_of(bytes, content_type).decode(bytes);
    text.into_owned()
}

/// The encoding an HTML body is decoded with: the `Content-Type` charset, else the
/// `<meta>` prescan's, else [`undeclared`]'s. `Encoding::decode` sniffs and strips a BOM
/// first, which overrides it.
pub(crate) fn encoding_of(bytes: &[u8], content_type: Option<&str>) -> &'static Encoding {
    content_type
        .and_then(charset_from_content_type)
        .or_else(|| prescan(&bytes[..bytes.len().min(PRESCAN_LIMIT)]))
        .unwrap_or_else(|| undeclared(bytes))
}

/// Most bytes the detector looks at.
const DETECT_LIMIT: usize = 1 << 20;

/// Invalid sequences a UTF-8 page may hold among its valid multi-byte characters (one per
/// this many) and still be UTF-8: a stray byte in a UTF-8 page is damage, not a charset.
const UTF8_PER_ERROR: usize = 8;

/// The encoding of bytes that declare none: UTF-8 when they read as UTF-8 (a BOM is
/// handled by the decoder), else `chardetng`'s guess among the legacy encodings.
fn undeclared(bytes: &[u8]) -> &'static Encoding {
    if Encoding::for_bom(bytes).is_some() || reads_as_utf8(bytes) {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&bytes[..bytes.len().min(DETECT_LIMIT)], true);
    detector.guess(None, chardetng::Utf8Detection::Deny)
}

/// Whether bytes are UTF-8: valid, or with a few invalid sequences among many valid
/// multi-byte characters (a truncated last character does not count).
fn reads_as_utf8(bytes: &[u8]) -> bool {
    let (mut errors, mut multibyte) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        let bad = chunk.invalid();
        // The start of a character the body was cut in.
        let cut =
            bad.as_ptr_range().end == bytes.as_ptr_range().end && bad.first().is_some_and(|&b| b >= 0xC2);
        if !bad.is_empty() && !cut {
            errors += 1;
        }
    }
    errors == 0 || multibyte >= UTF8_PER_ERROR * errors
}

/// The encoding named by a `charset=` parameter of a `Content-Type` value, if known.
fn charset_from_content_type(content_type: &str) -> Option<&'static Encoding> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        Encoding::for_label(value.as_bytes())
    })
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Reads one attribute at `*pos` (WHATWG "get an attribute"); `None` at `>` or end of input.
fn next_attribute(buf: &[u8], pos: &mut usize) -> Option<(Vec<u8>, Vec<u8>)> {
    while *pos < buf.len() && (is_space(buf[*pos]) || buf[*pos] == b'/') {
        *pos += 1;
    }
    if *pos >= buf.len() || buf[*pos] == b'>' {
        return None;
    }
    let mut name = Vec::new();
    while *pos < buf.len() {
        let b = buf[*pos];
        if (b == b'=' && !name.is_empty()) || is_space(b) || b == b'/' || b == b'>' {
            break;
        }
        name.push(b.to_ascii_lowercase());
        *pos += 1;
    }
    while *pos < buf.len() && is_space(buf[*pos]) {
        *pos += 1;
    }
    if *pos >= buf.len() || buf[*pos] != b'=' {
        return Some((name, Vec::new()));
    }
    *pos += 1;
    while *pos < buf.len() && is_space(buf[*pos]) {
        *pos += 1;
    }
    let mut value = Vec::new();
    match buf.get(*pos) {
        Some(&q) if q == b'"' || q == b'\'' => {
            *pos += 1;
            while *pos < buf.len() && buf[*pos] != q {
                value.push(buf[*pos].to_ascii_lowercase());
                *pos += 1;
            }
            *pos += 1;
        }
        _ => {
            while *pos < buf.len() && !is_space(buf[*pos]) && buf[*pos] != b'>' {
                value.push(buf[*pos].to_ascii_lowercase());
                *pos += 1;
            }
        }
    }
    Some((name, value))
}

/// WHATWG "extract a character encoding from a meta element" over a `content` value.
fn charset_from_meta_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    loop {
        let found = content[i..].windows(7).position(|w| w == b"charset")?;
        i += found + 7;
        while i < content.len() && is_space(content[i]) {
            i += 1;
        }
        if content.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        while i < content.len() && is_space(content[i]) {
            i += 1;
        }
        let rest = &content[i..];
        let value = match rest.first() {
            Some(&q) if q == b'"' || q == b'\'' => {
                let end = rest[1..].iter().position(|&b| b == q)?;
                &rest[1..1 + end]
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(rest.len());
                &rest[..end]
            }
        };
        return Encoding::for_label(value);
    }
}

/// Handles one `<meta …>` whose attributes start at `*pos`.
fn meta_encoding(buf: &[u8], pos: &mut usize) -> Option<&'static Encoding> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let (mut got_pragma, mut need_pragma, mut charset) = (false, None, None);
    while let Some((name, value)) = next_attribute(buf, pos) {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(enc) = charset_from_meta_content(&value) {
                    charset = Some(enc);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    let charset = charset?;
    match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ if charset == UTF_16BE || charset == UTF_16LE => Some(UTF_8),
        _ if charset == X_USER_DEFINED => Some(WINDOWS_1252),
        _ => Some(charset),
    }
}

/// WHATWG prescan, simplified to what matters for real pages.
fn prescan(buf: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < buf.len() {
        let rest = &buf[pos..];
        if rest.starts_with(b"<!--") {
            pos += 2 + rest[2..].windows(3).position(|w| w == b"-->")? + 2;
        } else if rest.len() > 6
            && rest[..5].eq_ignore_ascii_case(b"<meta")
            && (is_space(rest[5]) || rest[5] == b'/')
        {
            pos += 5;
            if let Some(enc) = meta_encoding(buf, &mut pos) {
                return Some(enc);
            }
        } else if rest.len() > 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic() || (rest[1] == b'/' && rest[2].is_ascii_alphabetic()))
        {
            pos += rest
                .iter()
                .position(|&b| is_space(b) || b == b'>')
                .unwrap_or(rest.len());
            while next_attribute(buf, &mut pos).is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos += rest.iter().position(|&b| b == b'>').unwrap_or(rest.len());
        }
        pos += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_default_and_lossy() {
        assert_eq!(decode_html("héllo".as_bytes(), None), "héllo");
        // A stray byte among UTF-8 characters is damage: replaced, the rest stays UTF-8.
        let mut bytes = "é".repeat(8).into_bytes();
        bytes.insert(8, 0xFF);
        assert_eq!(
            decode_html(&bytes, None),
            "é".repeat(4) + "\u{FFFD}" + &"é".repeat(4)
        );
    }

    #[test]
    fn undeclared_legacy_charset_is_detected() {
        // A page written by html/tests/fixtures/legacy/make.py: Japanese in Shift_JIS,
        // Russian in windows-1251, German in windows-1252, none declaring its charset.
        for (bytes, expected) in [
            (
                &include_bytes!("../tests/fixtures/legacy/shift_jis.html")[..],
                "日本語のページです",
            ),
            (
                &include_bytes!("../tests/fixtures/legacy/windows-1251.html")[..],
                "Русский текст",
            ),
            (
                &include_bytes!("../tests/fixtures/legacy/windows-1252.html")[..],
                "Grüße aus Köln",
            ),
        ] {
            let text = decode_html(bytes, Some("text/html"));
            assert!(text.contains(expected), "{expected} not in {text}");
            assert!(!text.contains('\u{FFFD}'));
        }
    }

    #[test]
    fn undeclared_utf8_stays_utf8() {
        // Valid UTF-8, and UTF-8 with one stray byte among many characters.
        let page = "<p>日本語のページです。Grüße aus Köln.</p>".repeat(4);
        assert_eq!(decode_html(page.as_bytes(), None), page);
        let mut damaged = page.clone().into_bytes();
        damaged.insert(3, 0xFF);
        assert!(decode_html(&damaged, None).ends_with("Köln.</p>"));
        // A character cut at the end of the body is not a charset either.
        let cut = &"<p>Grüße</p>日".as_bytes()[..16];
        assert!(decode_html(cut, None).starts_with("<p>Grüße</p>"));
    }

    #[test]
    fn bom_wins_over_everything() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice("<meta charset=shift_jis>é".as_bytes());
        assert_eq!(
            decode_html(&bytes, Some("text/html; charset=iso-8859-1")),
            "<meta charset=shift_jis>é"
        );
        let utf16: Vec<u8> = [0xFF, 0xFE, b'h', 0, b'i', 0].to_vec();
        assert_eq!(decode_html(&utf16, Some("text/html; charset=utf-8")), "hi");
    }

    #[test]
    fn content_type_header() {
        assert_eq!(
            decode_html(b"caf\xE9", Some("text/html; charset=ISO-8859-1")),
            "café"
        );
        assert_eq!(
            decode_html(b"\x93q\x94", Some("text/html;charset=\"windows-1252\"")),
            "\u{201C}q\u{201D}"
        );
        // `nihongo` in Shift_JIS.
        let sjis = b"\x93\xFA\x96\x7B\x8C\xEA";
        assert_eq!(decode_html(sjis, Some("text/html; Charset=Shift_JIS")), "日本語");
        // Unknown label: fall through to the prescan / default.
        assert_eq!(decode_html("é".as_bytes(), Some("text/html; charset=bogus")), "é");
    }

    #[test]
    fn header_beats_meta() {
        let html = b"<meta charset=\"shift_jis\">caf\xE9";
        assert_eq!(
            decode_html(html, Some("text/html; charset=windows-1252")),
            "<meta charset=\"shift_jis\">café"
        );
    }

    #[test]
    fn meta_charset_prescan() {
        let mut html = b"<!doctype html><html><head><!-- <meta charset=koi8-r> --><title>x</title><META CHARSET='Shift_JIS'></head>".to_vec();
        html.extend_from_slice(b"\x93\xFA\x96\x7B\x8C\xEA");
        assert!(decode_html(&html, Some("text/html")).ends_with("日本語"));
    }

    #[test]
    fn meta_http_equiv_prescan() {
        let html = b"<head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"></head>caf\xE9";
        assert!(decode_html(html, None).ends_with("café"));
        // `content` without the http-equiv pragma is ignored.
        let html = b"<meta content=\"text/html; charset=iso-8859-1\">caf\xC3\xA9";
        assert!(decode_html(html, None).ends_with("café"));
        // Attribute order does not matter.
        let html = b"<meta content='text/html;charset=windows-1252' http-equiv='content-type'>\x80";
        assert!(decode_html(html, None).ends_with('\u{20AC}'));
    }

    #[test]
    fn meta_utf16_means_utf8_and_late_meta_is_ignored() {
        assert_eq!(
            decode_html("<meta charset=utf-16>é".as_bytes(), None),
            "<meta charset=utf-16>é"
        );
        let mut html = vec![b' '; PRESCAN_LIMIT];
        html.extend_from_slice(b"<meta charset=windows-1252>\xC3\xA9");
        assert!(decode_html(&html, None).ends_with('é'));
    }

    #[test]
    fn attribute_values_with_gt_inside_quotes() {
        let html = b"<div title='a>b'><meta charset=windows-1252></div>\xE9";
        assert!(decode_html(html, None).ends_with('é'));
    }
}
