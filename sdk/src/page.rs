//! [`PageBuilder`]: a [`Page`] as the host would send it, for a format
//! plugin's native unit tests.

use crate::{FormatInput, Page, PageTokens};
use serde_json::{Value, json};

/// Builds a [`Page`]: `Page::builder("https://example.com/a").html("<p>Hi</p>").build()`.
#[derive(Clone, Debug)]
pub struct PageBuilder {
    page: Page,
}

impl Page {
    /// A page at `url` (requested and final), status 200, `text/html`, with
    /// no HTML yet.
    pub fn builder(url: &str) -> PageBuilder {
        PageBuilder {
            page: Page {
                requested_url: url.to_string(),
                final_url: url.to_string(),
                status_code: 200,
                content_type: Some("text/html; charset=utf-8".to_string()),
                raw_html: String::new(),
                cleaned_html: String::new(),
                cleaned_tokens: PageTokens {
                    ops: Vec::new(),
                    text: String::new(),
                },
                metadata: json!({ "sourceURL": url, "url": url, "statusCode": 200 }).to_string(),
                inputs: Vec::new(),
            },
        }
    }
}

impl PageBuilder {
    /// Sets both the raw and the cleaned HTML.
    pub fn html(mut self, html: &str) -> Self {
        self.page.raw_html = html.to_string();
        self.page.cleaned_html = html.to_string();
        self
    }

    /// Sets the raw HTML only.
    pub fn raw_html(mut self, html: &str) -> Self {
        self.page.raw_html = html.to_string();
        self
    }

    /// Sets the cleaned HTML only.
    pub fn cleaned_html(mut self, html: &str) -> Self {
        self.page.cleaned_html = html.to_string();
        self
    }

    /// Sets the cleaned page's token stream (`ops`, `text`), as
    /// `distill_sdk::tokens::Writer::finish` returns it.
    pub fn cleaned_tokens(mut self, (ops, text): (Vec<u8>, String)) -> Self {
        self.page.cleaned_tokens = PageTokens { ops, text };
        self
    }

    /// Sets the final URL (after redirects).
    pub fn final_url(mut self, url: &str) -> Self {
        self.page.final_url = url.to_string();
        self
    }

    /// Sets the status code.
    pub fn status(mut self, code: u16) -> Self {
        self.page.status_code = code;
        self
    }

    /// Sets the content type.
    pub fn content_type(mut self, content_type: Option<&str>) -> Self {
        self.page.content_type = content_type.map(str::to_string);
        self
    }

    /// Sets the metadata object.
    pub fn metadata(mut self, metadata: Value) -> Self {
        self.page.metadata = metadata.to_string();
        self
    }

    /// Adds a consumed format's value, e.g. `.input("links", json!(["https://a"]))`.
    pub fn input(mut self, format: &str, value: Value) -> Self {
        self.page.inputs.push(FormatInput {
            format: format.to_string(),
            value: value.to_string(),
        });
        self
    }

    /// Adds the consumed markdown.
    pub fn markdown(self, markdown: &str) -> Self {
        self.input("markdown", Value::String(markdown.to_string()))
    }

    pub fn build(self) -> Page {
        self.page
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_fills_what_the_host_would() {
        let page = Page::builder("https://example.com/a")
            .html("<p>Hi</p>")
            .markdown("Hi")
            .input("links", json!(["https://example.com/b"]))
            .build();
        assert_eq!(page.cleaned_html, "<p>Hi</p>");
        assert_eq!(page.markdown().as_deref(), Some("Hi"));
        assert_eq!(page.input("links"), Some(json!(["https://example.com/b"])));
        assert_eq!(page.input("images"), None);
        assert_eq!(page.metadata_value()["statusCode"], json!(200));
        assert!(page.tokens().is_none(), "no tokens unless set");
    }

    #[test]
    fn tokens_set_on_the_builder_are_read_back() {
        let mut w = crate::tokens::Writer::default();
        w.start("p", [("class", "x")].into_iter());
        w.text("Hi & bye");
        w.end("p");
        let page = Page::builder("https://example.com/a")
            .cleaned_tokens(w.finish())
            .build();
        let tokens: Vec<crate::tokens::Token> = page.tokens().expect("sent").collect();
        assert_eq!(tokens.len(), 3);
        assert_eq!(tokens[1], crate::tokens::Token::Text("Hi & bye"));
        assert_eq!(
            crate::PagePart::CleanedTokens.consumes_entry(),
            "page:cleaned-tokens"
        );
    }
}
