//! Request-supplied `includeTags` / `excludeTags`: compiled once per call, with upstream's
//! `iframe` rewrite (fire-engine inlines iframes as `div[data-original-tag="iframe"]`); we match
//! both the rewritten form and real `<iframe>` elements.

use dom_query::Matcher;
use std::fmt;

/// Cleaning failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CleanError {
    /// An `includeTags`/`excludeTags` entry is not a valid CSS selector.
    InvalidSelector { selector: String, message: String },
}

impl fmt::Display for CleanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CleanError::InvalidSelector { selector, message } => {
                write!(f, "invalid CSS selector {selector:?}: {message}")
            }
        }
    }
}

impl std::error::Error for CleanError {}

const IFRAME: &str = "iframe";
const IFRAME_DIV: &str = "div[data-original-tag=\"iframe\"]";

/// Upstream `transformIframeSelector`: replaces an `iframe` type selector that starts the
/// selector or follows whitespace/a comma, and is followed by the end, whitespace or one of
/// `.#[:,`, with `div[data-original-tag="iframe"]`.
pub(crate) fn transform_iframe_selector(selector: &str) -> String {
    let mut out = String::with_capacity(selector.len());
    let mut copied = 0;
    for (at, _) in selector.match_indices(IFRAME) {
        let before = selector[..at].chars().next_back();
        let after = selector[at + IFRAME.len()..].chars().next();
        let starts = before.is_none_or(|c| c.is_whitespace() || c == ',');
        let ends = after.is_none_or(|c| c.is_whitespace() || ".#[:,".contains(c));
        if starts && ends {
            out.push_str(&selector[copied..at]);
            out.push_str(IFRAME_DIV);
            copied = at + IFRAME.len();
        }
    }
    out.push_str(&selector[copied..]);
    out
}

fn invalid(selector: &str, kind: &impl std::fmt::Debug) -> CleanError {
    let raw = format!("{kind:?}");
    let message = ["Basic(", "Custom("]
        .iter()
        .find_map(|p| raw.strip_prefix(p).and_then(|r| r.strip_suffix(')')))
        .unwrap_or(&raw)
        .to_string();
    CleanError::InvalidSelector {
        selector: selector.to_string(),
        message,
    }
}

/// Compiles each non-blank selector (blank entries are ignored), keeping list order.
pub(crate) fn compile(selectors: &[String]) -> Result<Vec<Matcher>, CleanError> {
    let mut out = Vec::with_capacity(selectors.len());
    for raw in selectors {
        let selector = raw.trim();
        if selector.is_empty() {
            continue;
        }
        let plain = Matcher::new(selector).map_err(|e| invalid(raw, &e.kind))?;
        let rewritten = transform_iframe_selector(selector);
        let matcher = if rewritten == selector {
            plain
        } else {
            // Rewriting inside e.g. a quoted attribute value can yield garbage: keep the plain one.
            Matcher::new(&format!("{selector}, {rewritten}")).unwrap_or(plain)
        };
        out.push(matcher);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iframe_rewrite_follows_upstream_regex() {
        let t = transform_iframe_selector;
        assert_eq!(t("iframe"), IFRAME_DIV);
        assert_eq!(t("iframe.video"), format!("{IFRAME_DIV}.video"));
        assert_eq!(t("div iframe"), format!("div {IFRAME_DIV}"));
        assert_eq!(t("p,iframe"), format!("p,{IFRAME_DIV}"));
        assert_eq!(t("iframe,iframe"), format!("{IFRAME_DIV},{IFRAME_DIV}"));
        assert_eq!(t("iframe[src]"), format!("{IFRAME_DIV}[src]"));
        assert_eq!(t("div>iframe"), "div>iframe");
        assert_eq!(t("iframes"), "iframes");
        assert_eq!(t(".myiframe"), ".myiframe");
        assert_eq!(t(":not(iframe)"), ":not(iframe)");
    }

    #[test]
    fn compile_reports_invalid_selectors() {
        let err = compile(&["p".into(), "div[".into()]).unwrap_err();
        let CleanError::InvalidSelector { selector, message } = err;
        assert_eq!(selector, "div[");
        assert!(!message.is_empty());
        assert!(compile(&["..x".into()]).is_err());
    }

    #[test]
    fn compile_skips_blank_entries() {
        assert_eq!(compile(&["".into(), "  ".into(), "p".into()]).unwrap().len(), 1);
    }

    #[test]
    fn quoted_iframe_keeps_plain_selector() {
        assert_eq!(compile(&["[title='a iframe b']".into()]).unwrap().len(), 1);
    }
}
