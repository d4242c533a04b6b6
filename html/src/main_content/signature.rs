//! Template signatures of elements ([`super::arena`]'s `sig` and `tag_sig`): siblings with
//! the same tag name and first class (digits ignored) are instances of one template. The
//! values themselves matter (`score` sorts siblings by them), so they are FNV-1a as they
//! always were; `hints::words`' memo keeps the last signature made of each `class` value
//! with the tag it was made for.

/// FNV-1a (32 bits) step.
fn eat(h: u32, b: u8) -> u32 {
    (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
}

/// FNV-1a over the tag name.
pub(super) fn tag_signature(el: &dom_query::Element) -> u32 {
    el.name.local.bytes().fold(0x811c_9dc5, eat)
}

/// FNV-1a over the tag name and the first class of `class` (ASCII digits skipped),
/// continuing the tag's hash `tag`; the tag's alone without a class (a template nobody
/// named).
pub(super) fn signature(tag: u32, class: &str) -> u32 {
    let b = class.as_bytes();
    let Some(start) = b.iter().position(|c| !c.is_ascii_whitespace()) else {
        return tag;
    };
    let mut h = eat(tag, b'.');
    for &c in b[start..].iter().take_while(|c| !c.is_ascii_whitespace()) {
        if !c.is_ascii_digit() {
            h = eat(h, c);
        }
    }
    h
}
