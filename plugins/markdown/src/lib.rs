//! The `markdown` format plugin: turns the host's cleaned HTML into markdown.
//!
//! Conventions follow upstream Firecrawl (ATX headings, `-` bullets, `**bold**`,
//! `_em_`, fenced code with the language from `class="language-x"`, GFM tables,
//! inline links), then the post-processing in [`postprocess`]; README.md lists
//! them all. The converter is its own: a small HTML parser (`parse`) and a
//! renderer (`render`), plain Rust without dependencies, so it also builds
//! natively for tests and benchmarks.

#[cfg(any(target_arch = "wasm32", test))]
mod bump;
pub mod convert;
mod parse;
pub mod postprocess;
mod render;
mod scan;
mod text_scan;

use distill_sdk::{FormatPlugin, Page, PagePart, PluginError, PluginInfo, Value};

pub use convert::{html_to_markdown, tokens_to_markdown};

/// Each call runs in a fresh instance: memory is never handed back (`bump`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: bump::Bump = bump::Bump::new();

/// The plugin type exported to the host.
pub struct Markdown;

impl FormatPlugin for Markdown {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Cleaned HTML to markdown (GFM tables, fenced code, inline links).")
            .format("markdown")
            // The cleaned page as tokens (no HTML to parse; the host sends
            // the cleaned HTML instead only when it has no tokens). Not the
            // raw HTML (the host then skips copying it into the call); a
            // JSON body's raw text, fenced below, is passed all the same.
            .reads(PagePart::CleanedTokens)
    }

    fn render(format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        if format != "markdown" {
            return Err(PluginError::InvalidOptions(format!(
                "this plugin renders 'markdown', not '{format}'"
            )));
        }
        Ok(Value::String(page_to_markdown(page)))
    }
}

/// The markdown of a page: JSON bodies are fenced as they are, everything else
/// goes through the converter — from the host's token stream when it sent
/// one, else from the cleaned HTML.
pub fn page_to_markdown(page: &Page) -> String {
    let is_json = page
        .content_type
        .as_deref()
        .map(|ct| ct.to_ascii_lowercase().contains("application/json"))
        .unwrap_or(false);
    if is_json {
        return format!("```json\n{}\n```", page.raw_html);
    }
    let tokens = &page.cleaned_tokens;
    if !tokens.ops.is_empty()
        && let Some(md) = tokens_to_markdown(&tokens.ops, &tokens.text)
    {
        return md;
    }
    html_to_markdown(&page.cleaned_html)
}

distill_sdk::export_plugin!(format: Markdown);
