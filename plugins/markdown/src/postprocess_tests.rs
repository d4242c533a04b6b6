//! Post-processing against a reference: the line-by-line version it
//! replaced (every line copied, every line scanned for brackets, the whole
//! output scanned for a skip link), on every text of up to four lines built
//! from fragments that exercise each rule.

use super::{bracket_depth, has_skip_link, lines_with_code, postprocess, remove_skip_links, tidy_whitespace};

fn tidy_reference(md: &str, escape: bool) -> String {
    let mut out = String::with_capacity(md.len() + 16);
    let mut blank_run = 0;
    let mut depth = 0usize;
    for (line, code) in lines_with_code(md) {
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            blank_run += 1;
            depth = 0;
            if blank_run > 1 && !code {
                continue;
            }
        } else {
            blank_run = 0;
        }
        if escape && depth > 0 && !code && !trimmed.is_empty() {
            out.pop();
            if !out.ends_with('\\') {
                out.push('\\');
            }
            out.push('\n');
        }
        out.push_str(trimmed);
        if !code && !trimmed.is_empty() && line.ends_with("  ") {
            out.push_str("  ");
        }
        out.push('\n');
        if escape {
            depth = if code || trimmed.is_empty() {
                0
            } else {
                bracket_depth(trimmed, depth, &mut false)
            };
        }
    }
    out.truncate(out.trim_end().len());
    let lead = out.len() - out.trim_start().len();
    out.drain(..lead);
    out
}

fn postprocess_reference(md: &str) -> String {
    let out = tidy_reference(md, true);
    if has_skip_link(&out) {
        tidy_reference(&remove_skip_links(&out), false)
    } else {
        out
    }
}

const FRAGMENTS: &[&str] = &[
    "",
    " ",
    "  ",
    "a",
    "a  ",
    "a ",
    "a   ",
    "a\t",
    "a\u{a0}",
    "a\u{a0}  ",
    "\u{2003}",
    "[x",
    "y](z)",
    "] b",
    "\\[c",
    "`[` d",
    "``` ``x`` ```",
    "```",
    "  ~~~",
    "[Skip to content](#m)",
    "[SKIP TO CONTENT](#m) ",
    "`[skip to content](#m)`",
    "[skip to content`](#m)`",
    "\\[skip to content\\](#m)",
    "[skip to content\\](#m)",
];

#[test]
fn postprocess_matches_the_line_by_line_reference() {
    let n = FRAGMENTS.len();
    let mut md = String::new();
    for count in 1..=4u32 {
        for mut k in 0..n.pow(count) {
            for end in ["", "\n"] {
                md.clear();
                for i in 0..count {
                    if i > 0 {
                        md.push('\n');
                    }
                    md.push_str(FRAGMENTS[k % n]);
                    k /= n;
                }
                md.push_str(end);
                assert_eq!(postprocess(&md), postprocess_reference(&md), "{md:?}");
                assert_eq!(tidy_whitespace(&md), tidy_reference(&md, false), "{md:?}");
            }
        }
    }
}
