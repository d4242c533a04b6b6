//! Markdown post-processing that must match upstream byte-for-byte: `removeBase64Images`
//! (compat notes §1.11), implemented without a regex engine.
//!
//! Upstream regex: `/(!\[.*?\])\(data:image\/[^)\r\n\u2028\u2029]*?;base64,[^)\r\n\u2028\u2029]*?\)/g`
//! with replacement `$1(<Base64-Image-Removed>)`.

const REPLACEMENT: &str = "(<Base64-Image-Removed>)";

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Length of `(data:image/…;base64,…)` at the start of `s` (up to the first `)`, no line
/// terminator inside), or `None` if `s` does not start with such a group.
fn data_group_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("(data:image/")?;
    let end = body.find(|c: char| c == ')' || is_line_terminator(c))?;
    (body.as_bytes()[end] == b')' && body[..end].contains(";base64,"))
        .then_some("(data:image/".len() + end + 1)
}

/// Replaces inline base64 image URLs in markdown with `<Base64-Image-Removed>`.
pub fn remove_base64_images(md: &str) -> String {
    if !md.contains("data:image/") {
        return md.to_string();
    }
    let mut out = String::with_capacity(md.len());
    let mut pos = 0;
    while let Some(found) = md[pos..].find("![") {
        let start = pos + found;
        // `.*?` cannot cross a line terminator: candidates are the `]` of this line.
        let line_end = md[start..]
            .find(is_line_terminator)
            .map_or(md.len(), |i| start + i);
        let mut matched = None;
        let mut search = start + 2;
        while let Some(rel) = md[search..line_end].find(']') {
            let close = search + rel;
            if let Some(len) = data_group_len(&md[close + 1..]) {
                matched = Some((close + 1, close + 1 + len));
                break;
            }
            search = close + 1;
        }
        match matched {
            Some((group_start, group_end)) => {
                out.push_str(&md[pos..group_start]);
                out.push_str(REPLACEMENT);
                pos = group_end;
            }
            None => {
                // A later `![` on this line has a subset of these candidates: skip the line.
                out.push_str(&md[pos..line_end]);
                pos = line_end;
            }
        }
    }
    out.push_str(&md[pos..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_base64_images() {
        assert_eq!(
            remove_base64_images("a ![logo](data:image/png;base64,iVBOR==) b"),
            "a ![logo](<Base64-Image-Removed>) b"
        );
        assert_eq!(
            remove_base64_images("![](data:image/svg+xml;charset=utf-8;base64,PHN2Zz4=)"),
            "![](<Base64-Image-Removed>)"
        );
    }

    #[test]
    fn leaves_non_matching_content() {
        for md in [
            "![x](https://e.com/a.png)",
            "![x](data:image/png,rawdata)",
            "![x](data:text/plain;base64,AAA)",
            "[x](data:image/png;base64,AAA)",
            "![x](data:image/png;base64,AA\nA)",
            "![x](data:image/png;base64,AAA",
            "![a\n](data:image/png;base64,AAA)",
        ] {
            assert_eq!(remove_base64_images(md), md);
        }
    }

    #[test]
    fn multiple_and_lazy_alt_semantics() {
        assert_eq!(
            remove_base64_images(
                "![a](data:image/gif;base64,R0) and ![b](data:image/gif;base64,R1)\n![c](data:image/jpeg;base64,/9j)"
            ),
            "![a](<Base64-Image-Removed>) and ![b](<Base64-Image-Removed>)\n![c](<Base64-Image-Removed>)"
        );
        // The lazy alt may span other brackets on the same line; the text is kept as is.
        assert_eq!(
            remove_base64_images("![a](x.png) [b] ![c](data:image/png;base64,Q)"),
            "![a](x.png) [b] ![c](<Base64-Image-Removed>)"
        );
        assert_eq!(
            remove_base64_images("![a ] b](data:image/png;base64,Q) tail"),
            "![a ] b](<Base64-Image-Removed>) tail"
        );
    }

    #[test]
    fn handles_line_separators_and_unicode() {
        assert_eq!(
            remove_base64_images(
                "é ![ü](data:image/png;base64,Q)\u{2028}![x](data:image/png;base64,\u{2029})"
            ),
            "é ![ü](<Base64-Image-Removed>)\u{2028}![x](data:image/png;base64,\u{2029})"
        );
    }
}
