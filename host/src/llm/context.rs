//! Fitting a prompt to the model's context window: when the messages and the
//! answer's `max_tokens` would not fit, the longest message (the page, in
//! every shipped plugin) is cut from its end at a line break and the caller
//! gets a note for the user. Tokens are estimated conservatively (3 characters
//! a token); when the server's own count says otherwise ([`refit`]) the cut
//! follows that count.

/// Estimated characters per token (English text averages about 4; code,
/// numbers and other scripts fewer).
const CHARS_PER_TOKEN: usize = 3;
/// Tokens of chat-template overhead per message, and a margin for the whole.
const PER_MESSAGE_TOKENS: usize = 8;
const MARGIN_TOKENS: usize = 64;

/// Messages ready to send, and what was cut (for the user's warning).
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub messages: Vec<(String, String)>,
    pub note: Option<String>,
}

/// Estimated prompt tokens of `messages`.
pub fn estimate_tokens(messages: &[(String, String)]) -> usize {
    messages
        .iter()
        .map(|(_, content)| content.chars().count().div_ceil(CHARS_PER_TOKEN) + PER_MESSAGE_TOKENS)
        .sum()
}

/// `messages` cut (if needed) so that they and `max_tokens` fit `context_tokens`.
pub fn fit(messages: &[(String, String)], context_tokens: u32, max_tokens: u32) -> Fitted {
    let budget = (context_tokens as usize).saturating_sub(max_tokens as usize + MARGIN_TOKENS);
    let estimate = estimate_tokens(messages);
    if estimate <= budget || budget == 0 {
        return Fitted {
            messages: messages.to_vec(),
            note: None,
        };
    }
    cut_longest(messages, (estimate - budget) * CHARS_PER_TOKEN)
}

/// Cut again after the server counted `prompt_tokens` against its `context`.
pub fn refit(messages: &[(String, String)], prompt_tokens: u32, context: u32, max_tokens: u32) -> Fitted {
    let budget = (context as usize).saturating_sub(max_tokens as usize + MARGIN_TOKENS);
    let total: usize = messages.iter().map(|(_, c)| c.chars().count()).sum();
    if prompt_tokens == 0 || budget == 0 {
        return cut_longest(messages, total);
    }
    // Keep the share of characters the budget allows, 5 % less for safety.
    let keep = total * budget / prompt_tokens as usize * 95 / 100;
    cut_longest(messages, total.saturating_sub(keep))
}

/// Removes about `excess` characters from the end of the longest message.
fn cut_longest(messages: &[(String, String)], excess: usize) -> Fitted {
    let mut messages = messages.to_vec();
    let Some((index, _)) = messages
        .iter()
        .enumerate()
        .max_by_key(|(_, (_, content))| content.chars().count())
    else {
        return Fitted { messages, note: None };
    };
    let content = &messages[index].1;
    let chars = content.chars().count();
    let keep = chars.saturating_sub(excess);
    let byte_end = content
        .char_indices()
        .nth(keep)
        .map(|(i, _)| i)
        .unwrap_or(content.len());
    // Prefer a line break in the last fifth of what is kept.
    let floor = content[..byte_end]
        .char_indices()
        .nth(keep * 4 / 5)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let end = content[floor..byte_end]
        .rfind('\n')
        .map(|i| floor + i)
        .unwrap_or(byte_end);
    let kept = content[..end].chars().count();
    let mut cut = content[..end].to_string();
    cut.push_str("\n…");
    messages[index].1 = cut;
    Fitted {
        messages,
        note: Some(format!(
            "the page was cut to fit the language model's context: {kept} of {chars} characters were sent"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(page: &str) -> Vec<(String, String)> {
        vec![
            ("system".into(), "Be brief.".into()),
            ("user".into(), page.into()),
            ("user".into(), "Summarise the page above.".into()),
        ]
    }

    #[test]
    fn a_prompt_that_fits_is_untouched() {
        let m = msgs("short page");
        assert_eq!(
            fit(&m, 4096, 512),
            Fitted {
                messages: m,
                note: None
            }
        );
    }

    #[test]
    fn the_longest_message_is_cut_at_a_line_break_and_the_rest_kept() {
        let page = "A line of page text that repeats.\n".repeat(1000);
        let fitted = fit(&msgs(&page), 4096, 512);
        assert_eq!(fitted.messages[0], msgs("")[0]);
        assert_eq!(
            fitted.messages[2],
            msgs("")[2],
            "the instruction after the page survives"
        );
        let sent = &fitted.messages[1].1;
        assert!(
            sent.ends_with("repeats.\n…"),
            "cut at a line break: {:?}",
            &sent[sent.len() - 40..]
        );
        assert!(estimate_tokens(&fitted.messages) <= 4096 - 512 - MARGIN_TOKENS + 2);
        assert!(
            estimate_tokens(&fitted.messages) > 4096 - 512 - MARGIN_TOKENS - 400,
            "not cut too much"
        );
        let note = fitted.note.unwrap();
        assert!(note.contains("of 34000 characters were sent"), "{note}");
    }

    #[test]
    fn refit_follows_the_servers_count() {
        let page = "word ".repeat(4000);
        // The server counted 8000 tokens where 4096 fit (with 512 to answer).
        let fitted = refit(&msgs(&page), 8000, 4096, 512);
        let total: usize = fitted.messages.iter().map(|(_, c)| c.chars().count()).sum();
        let before: usize = msgs(&page).iter().map(|(_, c)| c.chars().count()).sum();
        let expected = before * (4096 - 512 - MARGIN_TOKENS) / 8000 * 95 / 100;
        assert!(
            total <= expected + 3 && total + 50 >= expected,
            "{total} vs {expected}"
        );
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let page = "é".repeat(30_000);
        let fitted = fit(&msgs(&page), 2048, 256);
        assert!(
            fitted.messages[1]
                .1
                .chars()
                .all(|c| c == 'é' || c == '\n' || c == '…')
        );
    }
}
