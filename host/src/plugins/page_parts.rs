//! Which parts of `page` a format plugin reads. A plugin names them in its
//! `consumes` list as `page:raw-html` / `page:cleaned-html` (ABI 0.3, no new
//! record field, so every older host and plugin keeps loading) or
//! `page:cleaned-tokens` (ABI 0.4's `page.cleaned-tokens`); one that names
//! none reads the raw and cleaned HTML, as before, and never gets tokens. The
//! host leaves out of a call what the plugin does not read — `raw-html`, the
//! page as received, which is the largest string a call copies into the
//! plugin's memory, and `cleaned-html` for a plugin that gets the tokens
//! instead — except for a body that is not HTML (JSON, plain text): it has
//! no cleaned form, so its `raw-html` is always passed (and no tokens).
//! docs/PLUGINS.md "Page parts".

use serde::Serialize;

/// The prefix that marks a `consumes` entry as a page part, not a format.
pub const PREFIX: &str = "page:";

/// The page parts a plugin reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageParts {
    pub raw_html: bool,
    pub cleaned_html: bool,
    pub cleaned_tokens: bool,
}

impl PageParts {
    /// What a plugin that declares none receives: the raw and cleaned HTML
    /// (the tokens are only ever sent when asked for).
    pub const ALL: PageParts = PageParts {
        raw_html: true,
        cleaned_html: true,
        cleaned_tokens: false,
    };

    /// Splits a plugin's `consumes` into the formats it consumes and the page
    /// parts it reads. A `page:` entry this host does not know is refused
    /// (the plugin would be handed nothing where it expects a value).
    pub fn split(plugin: &str, consumes: Vec<String>) -> Result<(Vec<String>, PageParts), String> {
        let mut formats = Vec::new();
        let mut parts: Option<PageParts> = None;
        for entry in consumes {
            let entry = entry.trim();
            let Some(part) = entry.strip_prefix(PREFIX) else {
                formats.push(entry.to_string());
                continue;
            };
            let named = parts.get_or_insert(PageParts {
                raw_html: false,
                cleaned_html: false,
                cleaned_tokens: false,
            });
            match part {
                "raw-html" => named.raw_html = true,
                "cleaned-html" => named.cleaned_html = true,
                "cleaned-tokens" => named.cleaned_tokens = true,
                _ => {
                    return Err(format!(
                        "plugin '{plugin}' consumes '{entry}', a page part this host does not \
                         know (known: {PREFIX}raw-html, {PREFIX}cleaned-html, {PREFIX}cleaned-tokens)"
                    ));
                }
            }
        }
        Ok((formats, parts.unwrap_or(PageParts::ALL)))
    }

    /// Whether a call gets `raw-html`, for a page whose body is HTML or not.
    pub fn gets_raw_html(&self, body_is_html: bool) -> bool {
        self.raw_html || !body_is_html
    }

    /// Whether a call gets `cleaned-tokens`: asked for, and the body is HTML.
    pub fn gets_tokens(&self, body_is_html: bool) -> bool {
        self.cleaned_tokens && body_is_html
    }

    /// Whether a call gets `cleaned-html`: asked for (or nothing named), or
    /// the plugin reads the tokens but gets none (a body that is not HTML).
    pub fn gets_cleaned_html(&self, body_is_html: bool) -> bool {
        self.cleaned_html || !self.gets_tokens(body_is_html)
    }
}

/// Whether a page's body is HTML (so it has a cleaned form): an absent
/// content type, or one naming HTML. Converted documents are HTML too.
pub fn body_is_html(content_type: Option<&str>, is_document: bool) -> bool {
    is_document || content_type.is_none_or(|ct| ct.to_ascii_lowercase().contains("html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(list: &[&str]) -> Result<(Vec<String>, PageParts), String> {
        PageParts::split("p", list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn no_page_entry_means_every_part() {
        let (formats, parts) = split(&["markdown", "links"]).unwrap();
        assert_eq!(formats, vec!["markdown", "links"]);
        assert_eq!(parts, PageParts::ALL);
    }

    #[test]
    fn named_parts_are_exactly_those_read() {
        let (formats, parts) = split(&[" page:cleaned-html ", "markdown"]).unwrap();
        assert_eq!(formats, vec!["markdown"]);
        assert_eq!(
            parts,
            PageParts {
                raw_html: false,
                cleaned_html: true,
                cleaned_tokens: false,
            }
        );
        let (_, parts) = split(&["page:raw-html"]).unwrap();
        assert!(parts.raw_html && !parts.cleaned_html);
    }

    #[test]
    fn tokens_are_sent_only_when_named_and_replace_the_cleaned_html() {
        assert!(!PageParts::ALL.gets_tokens(true));
        let (_, tokens) = split(&["page:cleaned-tokens"]).unwrap();
        assert!(tokens.gets_tokens(true));
        assert!(
            !tokens.gets_cleaned_html(true),
            "the tokens stand in for the HTML"
        );
        assert!(
            !tokens.gets_tokens(false),
            "no tokens for a body that is not HTML"
        );
        assert!(
            tokens.gets_cleaned_html(false),
            "which gets its cleaned HTML instead"
        );
        let (_, both) = split(&["page:cleaned-tokens", "page:cleaned-html"]).unwrap();
        assert!(both.gets_tokens(true) && both.gets_cleaned_html(true));
        assert!(PageParts::ALL.gets_cleaned_html(true));
    }

    #[test]
    fn an_unknown_part_is_refused() {
        let err = split(&["page:screenshot"]).unwrap_err();
        assert!(err.contains("page:screenshot"), "{err}");
    }

    #[test]
    fn raw_html_of_a_body_that_is_not_html_is_always_passed() {
        let cleaned_only = PageParts {
            raw_html: false,
            cleaned_html: true,
            cleaned_tokens: false,
        };
        assert!(!cleaned_only.gets_raw_html(true));
        assert!(cleaned_only.gets_raw_html(false));
        assert!(PageParts::ALL.gets_raw_html(true));
        assert!(body_is_html(None, false));
        assert!(body_is_html(Some("text/html; charset=utf-8"), false));
        assert!(body_is_html(Some("application/XHTML+xml"), false));
        assert!(!body_is_html(Some("application/json"), false));
        assert!(!body_is_html(Some("text/plain"), false));
        assert!(body_is_html(Some("application/pdf"), true));
    }
}
