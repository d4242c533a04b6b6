//! Word fields: the state of complex fields (`w:fldChar` begin/separate/end)
//! in a paragraph and the link target of a `HYPERLINK` instruction.

/// State of complex fields (`w:fldChar`) within a paragraph.
#[derive(Default)]
pub(crate) struct Fields {
    /// Per open field: instruction text, and whether we opened a link for it.
    pub(crate) stack: Vec<(String, bool, bool)>, // (instr, in_result, link_open)
}

/// The URL of a `HYPERLINK "url"` field instruction.
pub(crate) fn field_link(instr: &str) -> Option<String> {
    let t = instr.trim();
    let rest = t
        .strip_prefix("HYPERLINK")
        .or_else(|| t.strip_prefix("hyperlink"))?
        .trim();
    let mut anchor = None;
    let mut url = None;
    let mut prev_switch = "";
    for (i, s) in rest.split('"').enumerate() {
        if i % 2 == 1 {
            if prev_switch == "\\l" {
                anchor = Some(s.to_string());
            } else if url.is_none() && prev_switch.is_empty() {
                url = Some(s.to_string());
            }
            prev_switch = "";
        } else {
            let s = s.trim();
            prev_switch = s.split_whitespace().last().unwrap_or("");
            if !s.is_empty() && url.is_none() && !s.starts_with('\\') && i == 0 {
                url = s.split_whitespace().next().map(str::to_string);
            }
            if !prev_switch.starts_with('\\') {
                prev_switch = "";
            }
        }
    }
    match (url, anchor) {
        (Some(u), Some(a)) => Some(format!("{u}#{a}")),
        (Some(u), None) => Some(u),
        (None, Some(a)) => Some(format!("#{a}")),
        _ => None,
    }
}
