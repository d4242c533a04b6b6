//! Distill format plugin `cleanContent`, behind the scrape option
//! `onlyCleanContent`: the page's markdown (ABI 0.3 `consumes`) without the
//! clutter an HTML-level filter leaves (cookie banners, ads, share widgets,
//! breadcrumbs, newsletter sign-ups, comments, related-article lists). The
//! host renders it when `onlyCleanContent` is true and returns its value as
//! `data.markdown`.
//!
//! The markdown is split into numbered blocks ([`blocks`]); the operator's
//! language model (`llm` capability) answers only the indices of clutter
//! blocks, which are removed. Everything kept is the page's markdown byte for
//! byte — headings, lists, tables, code blocks, image references and inline
//! links cannot be rewritten or lost — and the answer is a few tokens however
//! long the page. Fenced code and tables are never removed; an answer that
//! would remove more than half of the text is not trusted.
//!
//! Skipped with a warning (value `null`, the host keeps the markdown): a page
//! longer than [`MAX_CHARS`], no model, a failed call.

pub mod blocks;

use blocks::{Block, split_blocks};
use distill_sdk::llm::{self, Message, Request};
use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};

/// The system prompt.
pub const SYSTEM: &str = "You clean up the markdown of a web page. It is given as numbered blocks, \
`[index] text`. Find the blocks that are clutter rather than the page's content: cookie or consent \
banners, advertisements, share or social widgets, breadcrumbs, navigation, newsletter or sign-up \
prompts, comments, and lists of related or recommended articles. Answer with their indices. Keep \
the content: never list headings, paragraphs, lists, tables, code, images or links that belong to \
the page's content. Answer an empty list when nothing is clutter.";
/// Longest markdown cleaned (characters); longer pages are returned as they are.
pub const MAX_CHARS: usize = 24_000;
/// Characters of a block shown to the model (the block is kept or removed whole).
pub const PREVIEW_CHARS: usize = 300;

/// The plugin.
pub struct CleanContent;

impl FormatPlugin for CleanContent {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description(
                "onlyCleanContent: the markdown without leftover clutter, by the operator's language model.",
            )
            .format("cleanContent")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let markdown = page.markdown().unwrap_or_default();
        if markdown.trim().is_empty() {
            return Ok(json!(markdown));
        }
        let chars = markdown.chars().count();
        if chars > MAX_CHARS {
            distill_sdk::warning(format!(
                "onlyCleanContent: skipped, the markdown ({chars} characters) is longer than the cleaning \
                 limit of {MAX_CHARS}; the markdown is returned as is"
            ));
            return Ok(Value::Null);
        }
        Ok(match clean(&markdown) {
            Ok(cleaned) => json!(cleaned),
            Err(why) => {
                distill_sdk::warning(format!("onlyCleanContent: {why}; the markdown is returned as is"));
                Value::Null
            }
        })
    }
}

/// The user message: one `[i] preview` line per block.
pub fn user_message(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (i, b) in blocks.iter().enumerate() {
        let flat = b.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let preview: String = flat.chars().take(PREVIEW_CHARS).collect();
        let more = if flat.chars().count() > PREVIEW_CHARS {
            " …"
        } else {
            ""
        };
        out.push_str(&format!("[{i}] {preview}{more}\n"));
    }
    out
}

/// The request sent.
pub fn request(blocks: &[Block]) -> Request {
    let schema = json!({
        "type": "object",
        "properties": {"remove": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": blocks.len().saturating_sub(1)},
            "maxItems": blocks.len()
        }},
        "required": ["remove"],
        "additionalProperties": false
    });
    Request::new(vec![
        Message::new("system", SYSTEM),
        Message::new("user", user_message(blocks)),
    ])
    .json_schema(&schema)
}

/// The markdown without the blocks the model calls clutter, or why not.
pub fn clean(markdown: &str) -> Result<String, String> {
    let blocks = split_blocks(markdown);
    if blocks.len() < 2 {
        return Ok(markdown.to_string());
    }
    let value = llm::complete_json(&request(&blocks))?;
    let remove: Vec<usize> = value["remove"]
        .as_array()
        .ok_or("the model's output has no \"remove\" list")?
        .iter()
        .filter_map(Value::as_u64)
        .map(|i| i as usize)
        .filter(|&i| i < blocks.len() && blocks[i].removable)
        .collect();
    let total: usize = blocks.iter().map(|b| b.text.len()).sum();
    let removed: usize = blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| remove.contains(i))
        .map(|(_, b)| b.text.len())
        .sum();
    if removed * 2 > total {
        return Err("the model marked most of the page as clutter, which is not trusted".into());
    }
    Ok(blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| !remove.contains(i))
        .map(|(_, b)| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n"))
}

distill_sdk::export_plugin!(format: CleanContent);

#[cfg(test)]
mod tests {
    use super::*;
    use distill_sdk::llm::mock;

    const PAGE: &str = "Home > Blog > Moss\n\n# Moss\n\nMoss grows on [walls](https://e.x/w).\n\n\
                        ![moss](https://e.x/m.png)\n\n```\nfn main() {}\n\nfn more() {}\n```\n\n\
                        Share on Twitter | Facebook\n\nSubscribe to our newsletter!";

    fn page(md: &str) -> Page {
        Page::builder("https://example.com/").markdown(md).build()
    }

    #[test]
    fn clutter_blocks_go_everything_else_stays_verbatim() {
        mock::set(|req| {
            assert_eq!(req.messages[0].content, SYSTEM);
            assert_eq!(
                req.messages[1].content,
                "[0] Home > Blog > Moss\n[1] # Moss\n[2] Moss grows on [walls](https://e.x/w).\n\
                 [3] ![moss](https://e.x/m.png)\n[4] ``` fn main() {} fn more() {} ```\n\
                 [5] Share on Twitter | Facebook\n[6] Subscribe to our newsletter!\n"
            );
            Ok(r#"{"remove": [0, 5, 6, 4, 42]}"#.into())
        });
        let out = CleanContent::render("cleanContent", &page(PAGE), &json!({})).unwrap();
        assert_eq!(
            out,
            json!(
                "# Moss\n\nMoss grows on [walls](https://e.x/w).\n\n![moss](https://e.x/m.png)\n\n\
                 ```\nfn main() {}\n\nfn more() {}\n```"
            ),
            "code is never removed, out-of-range indices ignored"
        );
        mock::clear();
    }

    #[test]
    fn an_answer_removing_most_of_the_page_or_a_failure_keeps_it() {
        distill_sdk::take_warnings();
        mock::set(|_| Ok(r#"{"remove": [1, 2, 3, 5, 6]}"#.into()));
        assert_eq!(
            CleanContent::render("cleanContent", &page(PAGE), &json!({})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("not trusted"));
        mock::set(|_| Err("no language model is configured on this server (DISTILL_LLM_BASE_URL)".into()));
        assert_eq!(
            CleanContent::render("cleanContent", &page(PAGE), &json!({})).unwrap(),
            Value::Null
        );
        assert_eq!(
            distill_sdk::take_warnings(),
            vec![
                "onlyCleanContent: no language model is configured on this server (DISTILL_LLM_BASE_URL); the \
                 markdown is returned as is"
            ]
        );
        mock::clear();
    }

    #[test]
    fn long_pages_are_skipped_without_a_call() {
        distill_sdk::take_warnings();
        let long = "Some words here.\n\n".repeat(MAX_CHARS / 10);
        assert_eq!(
            CleanContent::render("cleanContent", &page(&long), &json!({})).unwrap(),
            Value::Null
        );
        assert!(distill_sdk::take_warnings()[0].contains("skipped"));
    }
}
