//! Distill format plugin `reading-time`: how long the page's main text takes
//! to read. Created with `make new-plugin NAME=reading-time KIND=format`.
//!
//! Request it with `"formats": ["reading-time"]` or
//! `{"type": "reading-time", "wordsPerMinute": 238}`; the response carries
//! `data["reading-time"] = {"words": N, "minutes": M, "wordsPerMinute": W}`.

use distill_sdk::{FormatPlugin, Page, PagePart, PluginError, PluginInfo, Value, json};

/// Average silent reading speed of adults for non-fiction (Brysbaert, 2019).
pub const DEFAULT_WPM: u64 = 238;

/// The plugin.
pub struct ReadingTime;

impl FormatPlugin for ReadingTime {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Word count and reading time of the page's main text.")
            .format("reading-time")
            .reads(PagePart::CleanedHtml)
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, options: &Value) -> Result<Value, PluginError> {
        let wpm = match options.get("wordsPerMinute") {
            None | Some(Value::Null) => DEFAULT_WPM,
            Some(v) => v.as_u64().filter(|n| (50..=2000).contains(n)).ok_or_else(|| {
                PluginError::InvalidOptions("wordsPerMinute must be an integer from 50 to 2000".into())
            })?,
        };
        let words = count_words(&page.cleaned_html);
        let minutes = if words == 0 { 0 } else { words.div_ceil(wpm) };
        Ok(json!({ "words": words, "minutes": minutes, "wordsPerMinute": wpm }))
    }
}

/// Counts words in the text of an HTML document: tags, comments, and the
/// contents of script/style/template are skipped; entities count as text.
pub fn count_words(html: &str) -> u64 {
    let mut words = 0;
    let mut in_word = false;
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let lower = rest.get(..10).unwrap_or(rest).to_ascii_lowercase();
            let skip_to = if lower.starts_with("<!--") {
                Some("-->")
            } else if lower.starts_with("<script") {
                Some("</script>")
            } else if lower.starts_with("<style") {
                Some("</style>")
            } else if lower.starts_with("<template") {
                Some("</template>")
            } else {
                Some(">")
            };
            let end = skip_to
                .and_then(|t| find_ci(rest, t).map(|i| i + t.len()))
                .unwrap_or(rest.len());
            rest = &rest[end..];
            // A tag separates words (e.g. "<p>a</p><p>b</p>").
            in_word = false;
            continue;
        }
        if c.is_alphanumeric() {
            if !in_word {
                words += 1;
                in_word = true;
            }
        } else if !matches!(c, '\'' | '’' | '-' | '&' | ';' | '#') {
            in_word = false;
        }
        rest = &rest[c.len_utf8()..];
    }
    words
}

fn find_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack.to_ascii_lowercase().find(needle)
}

distill_sdk::export_plugin!(format: ReadingTime);

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        Page::builder("https://example.com/").html(html).build()
    }

    #[test]
    fn counts_words_not_markup() {
        assert_eq!(
            count_words("<p>Hello, world!</p><p>It's a well-known test</p>"),
            6
        );
        assert_eq!(
            count_words("<p>a</p><p>b</p><!-- not counted --><script>x y z</script>"),
            2
        );
        assert_eq!(count_words("<p>caf\u{e9} na\u{ef}ve 42</p>"), 3);
        assert_eq!(count_words(""), 0);
    }

    #[test]
    fn minutes_round_up_and_options_are_checked() {
        let text = "<p>".to_string() + &"word ".repeat(500) + "</p>";
        let out = ReadingTime::render("reading-time", &page(&text), &json!({})).unwrap();
        assert_eq!(out, json!({"words": 500, "minutes": 3, "wordsPerMinute": 238}));
        let out = ReadingTime::render("reading-time", &page(&text), &json!({"wordsPerMinute": 500})).unwrap();
        assert_eq!(out["minutes"], 1);
        let err =
            ReadingTime::render("reading-time", &page(&text), &json!({"wordsPerMinute": 1})).unwrap_err();
        assert!(matches!(err, PluginError::InvalidOptions(_)));
    }
}
