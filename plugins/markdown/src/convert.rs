//! HTML to markdown with htmd, configured for Firecrawl's conventions.

use crate::postprocess::postprocess;
use htmd::element_handler::{HandlerResult, Handlers};
use htmd::options::{BulletListMarker, CodeBlockStyle, HeadingStyle, HrStyle, LinkStyle, Options};
use htmd::{Element, HtmlToMarkdown};

/// `<em>`/`<i>` as `_text_`, upstream's marker (htmd's default is `*`).
fn emphasis(handlers: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    let content = handlers.walk_children(element.node).content;
    let inner = content.trim_matches(|c: char| c.is_ascii_whitespace());
    if inner.is_empty() {
        return None;
    }
    let start = content.find(inner).unwrap_or(0);
    let (lead, trail) = (&content[..start], &content[start + inner.len()..]);
    Some(format!("{lead}_{inner}_{trail}").into())
}

fn converter() -> HtmlToMarkdown {
    HtmlToMarkdown::builder()
        .options(Options {
            heading_style: HeadingStyle::Atx,
            hr_style: HrStyle::Asterisks,
            link_style: LinkStyle::Inlined,
            code_block_style: CodeBlockStyle::Fenced,
            bullet_list_marker: BulletListMarker::Dash,
            ul_bullet_spacing: 1,
            ol_number_spacing: 1,
            ..Options::default()
        })
        .skip_tags(vec!["script", "style", "noscript", "template", "textarea", "head"])
        .add_handler(vec!["em", "i"], emphasis)
        .build()
}

/// Converts an HTML document or fragment to markdown. Never fails: unparsable
/// input yields whatever text could be recovered (possibly empty).
pub fn html_to_markdown(html: &str) -> String {
    if html.trim().is_empty() {
        return String::new();
    }
    let md = converter().convert(html).unwrap_or_default();
    postprocess(&md)
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
        assert_eq!(html_to_markdown("<p>a <em>b c</em> d <i> e </i></p>"), "a _b c_ d _e_");
        assert_eq!(html_to_markdown("<p><strong>x</strong></p>"), "**x**");
    }

    #[test]
    fn headings_are_atx_and_code_is_fenced() {
        let md = html_to_markdown(
            r#"<h2>Title</h2><pre><code class="language-rust">fn main() {}</code></pre>"#,
        );
        assert!(md.starts_with("## Title"), "{md}");
        assert!(md.contains("```rust\nfn main() {}\n```"), "{md}");
    }
}
