//! HTML (or the host's token stream of it) to markdown: parse
//! (`crate::parse`), render (`crate::render`), then upstream's
//! post-processing ([`crate::postprocess`]).

use crate::postprocess::postprocess;

/// Converts an HTML document or fragment to markdown. Never fails: unparsable
/// input yields whatever text could be recovered (possibly empty).
pub fn html_to_markdown(html: &str) -> String {
    if html.trim().is_empty() {
        return String::new();
    }
    // The tree is dropped before post-processing: in wasm its bytes take
    // the post-processed copy (`crate::bump`).
    let md = crate::render::render(&crate::parse::parse(html));
    postprocess(&md)
}

/// Converts a page's token stream (`ops`, `text`: ABI 0.4
/// `page.cleaned-tokens`) to markdown: the markdown [`html_to_markdown`]
/// makes of the HTML the stream was taken from. `None` if the stream is
/// broken off or of an unknown format version.
pub fn tokens_to_markdown(ops: &[u8], text: &str) -> Option<String> {
    let md = crate::render::render(&crate::parse::parse_stream(ops, text)?);
    Some(postprocess(&md))
}

#[cfg(test)]
mod tests {
    use super::html_to_markdown;

    #[test]
    fn upstream_examples() {
        assert_eq!(html_to_markdown("<p>Hello, world!</p>"), "Hello, world!");
        assert_eq!(
            html_to_markdown(
                "<div><p>Hello <strong>bold</strong> world!</p><ul><li>List item</li></ul></div>"
            ),
            "Hello **bold** world!\n\n- List item"
        );
        assert_eq!(
            html_to_markdown(r#"<a href="http://example.com">Link without closing tag"#),
            "[Link without closing tag](http://example.com)"
        );
        assert_eq!(html_to_markdown(""), "");
    }

    #[test]
    fn emphasis_uses_underscores() {
        assert_eq!(
            html_to_markdown("<p>a <em>b c</em> d <i> e </i></p>"),
            "a _b c_ d _e_"
        );
        assert_eq!(html_to_markdown("<p><strong>x</strong></p>"), "**x**");
    }

    #[test]
    fn prose_punctuation_is_copied_and_invisible_characters_dropped() {
        assert_eq!(
            html_to_markdown(
                "<p>we\u{2019}ve \u{2013} \u{201c}so\u{201d} it\u{2019}s a_b*c\u{2019} x\u{ad}y \
                 z\u{200b}w a\u{a0}b\u{2009}c \u{feff}d\u{2019}e</p>"
            ),
            "we\u{2019}ve \u{2013} \u{201c}so\u{201d} it\u{2019}s a_b\\*c\u{2019} xy zw a b c d\u{2019}e"
        );
    }

    #[test]
    fn a_block_start_closes_the_open_paragraph_and_what_it_holds() {
        // The `<div>` closes the `<p>` and the `<em>` inside it: "d" is plain.
        assert_eq!(
            html_to_markdown("<p>a <em>b<div>c</div>d</em> e</p>"),
            "a _b_\n\nc\n\nd e"
        );
        assert_eq!(
            html_to_markdown("<table><tr><td><p>a <em>b<ul><li>c</ul>d</em></td></tr></table>"),
            "a _b_\n\n- c\n\nd"
        );
        // No `<p>` open: an end tag `</p>` and block starts change nothing.
        assert_eq!(
            html_to_markdown("</p>lone<p>one<p>two<ul><li>i</ul>tail"),
            "lone\n\none\n\ntwo\n\n- i\n\ntail"
        );
        assert_eq!(
            html_to_markdown("<p>a<svg><p>hidden</p></svg>b<h2>h</h2>c"),
            "ab\n\n## h\n\nc"
        );
    }

    #[test]
    fn headings_are_atx_and_code_is_fenced() {
        let md =
            html_to_markdown(r#"<h2>Title</h2><pre><code class="language-rust">fn main() {}</code></pre>"#);
        assert!(md.starts_with("## Title"), "{md}");
        assert!(md.contains("```rust\nfn main() {}\n```"), "{md}");
    }
}

#[cfg(test)]
mod depth_tests {
    use super::html_to_markdown;

    /// Pathological nesting stays within a 1 MiB stack (the wasm guest's).
    #[test]
    fn deep_nesting_fits_a_small_stack() {
        let mut html = String::new();
        for i in 0..5000 {
            html.push_str(
                [
                    "<div>",
                    "<ul><li>",
                    "<blockquote>",
                    "<table><tr><td>",
                    "<a href=x>",
                    "<em>",
                    "<dl><dd>",
                    "<span>",
                ][i % 8],
            );
            html.push_str("x ");
        }
        let md = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || html_to_markdown(&html))
            .unwrap()
            .join()
            .expect("converter overflowed a 1 MiB stack");
        assert!(md.contains('x'));
    }
}
