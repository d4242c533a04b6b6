//! A test format plugin built against ABI 0.3 that consumes other formats:
//! `digest` reads the page's markdown and links (which the host renders
//! first) and reports what it received, so the e2e tests can check the
//! dependency order and the hand-over. It reads only the cleaned HTML of the
//! page (`page:cleaned-html`) and reports the sizes of both HTML parts it got.

use distill_sdk::{FormatPlugin, Options, Page, PagePart, PluginError, PluginInfo, Value, json};

struct Consumer;

impl FormatPlugin for Consumer {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Test plugin: reports the markdown and links the host hands it.")
            .format("digest")
            .consumes("markdown")
            .consumes("links")
            .reads(PagePart::CleanedHtml)
    }

    fn render(_format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        let lines = Options::new(options).integer("lines", 1, 20)?.unwrap_or(1) as usize;
        let markdown = page
            .markdown()
            .ok_or_else(|| PluginError::failed("no markdown was handed over"))?;
        let links = page
            .input("links")
            .and_then(|l| l.as_array().cloned())
            .unwrap_or_default();
        let first: Vec<&str> = markdown
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(lines)
            .collect();
        Ok(json!({
            "inputs": page.inputs.iter().map(|i| i.format.clone()).collect::<Vec<_>>(),
            "firstLines": first,
            "markdownChars": markdown.chars().count(),
            "links": links.len(),
            "rawHtmlChars": page.raw_html.chars().count(),
            "cleanedHtmlChars": page.cleaned_html.chars().count(),
        }))
    }
}

distill_sdk::export_plugin!(format: Consumer);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_what_it_was_handed() {
        let page = Page::builder("https://example.com/")
            .markdown("# Title\n\nBody text")
            .input("links", json!(["https://example.com/a", "https://example.com/b"]))
            .build();
        let out = Consumer::render("digest", &page, &json!({"lines": 2})).unwrap();
        assert_eq!(out["firstLines"], json!(["# Title", "Body text"]));
        assert_eq!(out["links"], json!(2));
        assert_eq!(out["inputs"], json!(["markdown", "links"]));
        assert_eq!(
            Consumer::info().consumes,
            vec!["markdown", "links", "page:cleaned-html"]
        );
        let bare = Page::builder("https://example.com/").build();
        assert!(Consumer::render("digest", &bare, &json!({})).is_err());
        assert!(Consumer::render("digest", &page, &json!({"lines": 0})).is_err());
    }
}
