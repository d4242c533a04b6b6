//! Markdown → sentences, each kept verbatim: one per line at most (headings,
//! list items and table rows are sentences of their own), lines split after
//! `.`, `!` or `?` (and closing quotes or markup) when the next word starts
//! like a sentence (capital, digit, quote, link or emphasis). Lines of pure
//! markup (rules, table separators, code fences) are skipped.

/// The sentences of `markdown`, in order.
pub fn split_sentences(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in markdown.lines() {
        let line = line.trim();
        if line.is_empty() || is_markup_only(line) {
            continue;
        }
        split_line(line, &mut out);
    }
    out
}

fn is_markup_only(line: &str) -> bool {
    line.starts_with("```")
        || line
            .chars()
            .all(|c| matches!(c, '-' | '*' | '_' | '=' | '|' | ':' | ' ' | '#' | '>'))
}

fn split_line(line: &str, out: &mut Vec<String>) {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (_, c) = chars[i];
        if matches!(c, '.' | '!' | '?') {
            // Include closing quotes, brackets and emphasis.
            let mut end = i + 1;
            while end < chars.len()
                && matches!(chars[end].1, '"' | '\'' | ')' | ']' | '*' | '_' | '”' | '’' | '»')
            {
                end += 1;
            }
            if end < chars.len() && chars[end].1.is_whitespace() {
                let mut next = end;
                while next < chars.len() && chars[next].1.is_whitespace() {
                    next += 1;
                }
                if next < chars.len() && starts_sentence(chars[next].1) {
                    let byte_end = chars[end].0;
                    push(&line[start..byte_end], out);
                    start = chars[next].0;
                    i = next;
                    continue;
                }
            }
        }
        i += 1;
    }
    push(&line[start..], out);
}

fn starts_sentence(c: char) -> bool {
    c.is_uppercase()
        || c.is_ascii_digit()
        || matches!(c, '"' | '\'' | '“' | '‘' | '«' | '[' | '(' | '*' | '_' | '!')
}

fn push(sentence: &str, out: &mut Vec<String>) {
    let s = sentence.trim();
    if s.chars().any(char::is_alphanumeric) {
        out.push(s.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_sentences() {
        let md = "# Lichens\n\nLichens grow slowly. They live on rocks! Do they? Yes: e.g. on walls.\n\n\
                  ---\n\n- A list item. Another **item**.\n| a | b |\n|---|---|\n```\ncode();\n```\n\
                  \"Quoted.\" Then [a link](https://x.y/z.html). 3 more.";
        assert_eq!(
            split_sentences(md),
            vec![
                "# Lichens",
                "Lichens grow slowly.",
                "They live on rocks!",
                "Do they?",
                "Yes: e.g. on walls.",
                "- A list item.",
                "Another **item**.",
                "| a | b |",
                "code();",
                "\"Quoted.\"",
                "Then [a link](https://x.y/z.html).",
                "3 more.",
            ]
        );
    }

    #[test]
    fn every_sentence_is_verbatim_text_of_the_page() {
        let md = "Ünïcode sentence. Second one… still. Third?  Yes.";
        for s in split_sentences(md) {
            assert!(md.contains(&s), "{s}");
        }
        assert!(split_sentences("\n \n---\n").is_empty());
    }
}
