//! The detectors. Each finds candidates with a regular expression and keeps
//! only those that pass a check: card numbers (13–19 digits) the Luhn
//! checksum, IBANs the ISO 13616 mod-97 checksum, IP addresses the standard
//! library's parser, phone numbers a digit count (8–15 with a leading `+`,
//! else 10–11, never a date). Overlaps keep the earlier, then longer, span.
//! Nothing is found inside the host (and port) of an `http(s)://` URL: that
//! is the address of a site, not a person's, and links stay usable.

use crate::Entity;
use regex::Regex;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

/// A found span (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub entity: Entity,
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b").unwrap()
});
static CARD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b\d(?:[ -]?\d){12,18}\b").unwrap());
static IBAN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b").unwrap());
static IPV4: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b\d{1,3}(?:\.\d{1,3}){3}\b").unwrap());
static IPV6: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*").unwrap());
static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    // `+` and the digits run together (`tel:+442079460958`), else in groups.
    Regex::new(r"\+\d{8,15}\b|(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,5}(?:[ .-]\d{2,5}){0,4}")
        .unwrap()
});
static URL_AUTHORITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\b[hH][tT][tT][pP][sS]?://(?:[^\s/?#@\[\]()<>"'`]*@)?(\[[0-9a-fA-F:.]+\](?::\d+)?|[^\s/?#@\[\]()<>"'`]+)"#).unwrap()
});
static DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}$|^\d{2}[./-]\d{2}[./-]\d{4}$").unwrap());

/// The spans of `entities` in `text`, in order, not overlapping.
pub fn find(text: &str, entities: &[Entity]) -> Vec<Span> {
    let mut all: Vec<Span> = Vec::new();
    for &entity in entities {
        let (re, check): (&Regex, fn(&str) -> bool) = match entity {
            Entity::Email => (&EMAIL, |_| true),
            Entity::CreditCard => (&CARD, luhn_ok),
            Entity::Iban => (&IBAN, iban_ok),
            Entity::IpAddress => (&IPV4, |s| s.parse::<Ipv4Addr>().is_ok()),
            Entity::Phone => (&PHONE, phone_ok),
        };
        let mut push = |start: usize, end: usize| all.push(Span { start, end, entity });
        for m in re.find_iter(text) {
            if check(m.as_str()) && standalone(text, m.start(), m.end()) {
                push(m.start(), m.end());
            }
        }
        if entity == Entity::IpAddress {
            for m in IPV6.find_iter(text) {
                let s = m.as_str().trim_end_matches('.');
                if s.matches(':').count() >= 2 && s.parse::<Ipv6Addr>().is_ok() {
                    push(m.start(), m.start() + s.len());
                }
            }
        }
    }
    let rank = |e: Entity| Entity::ALL.iter().position(|x| *x == e).unwrap_or(usize::MAX);
    all.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end), rank(s.entity)));
    let hosts: Vec<(usize, usize)> = URL_AUTHORITY
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| (m.start(), m.end()))
        .collect();
    let in_a_host = |s: &Span| hosts.iter().any(|&(a, b)| s.start >= a && s.end <= b);
    let mut out: Vec<Span> = Vec::new();
    for s in all {
        if in_a_host(&s) {
            continue;
        }
        if out.last().is_none_or(|last| s.start >= last.end) {
            out.push(s);
        }
    }
    out
}

/// Not glued to letters, digits or `@` on either side (so a phone number is
/// not carved out of a longer token).
fn standalone(text: &str, start: usize, end: usize) -> bool {
    let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '@' || c == '_');
    !glued(text[..start].chars().next_back()) && !glued(text[end..].chars().next())
}

fn digits(s: &str) -> Vec<u32> {
    s.chars().filter_map(|c| c.to_digit(10)).collect()
}

/// The Luhn checksum of a 13–19 digit number.
pub fn luhn_ok(s: &str) -> bool {
    let d = digits(s);
    if !(13..=19).contains(&d.len()) || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            if i % 2 == 1 {
                if x * 2 > 9 { x * 2 - 9 } else { x * 2 }
            } else {
                x
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// The IBAN checksum: country and check digits moved to the end, letters as
/// 10–35, the number mod 97 is 1.
pub fn iban_ok(s: &str) -> bool {
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !(15..=34).contains(&compact.len()) {
        return false;
    }
    let rotated = compact[4..].chars().chain(compact[..4].chars());
    let mut rem: u32 = 0;
    for c in rotated {
        let v = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        rem = if v < 10 {
            (rem * 10 + v) % 97
        } else {
            (rem * 100 + v) % 97
        };
    }
    rem == 1
}

/// A phone number: 8–15 digits after a leading `+`; otherwise 10–11 digits
/// written in groups or with an area code in brackets; never a date.
pub fn phone_ok(s: &str) -> bool {
    let n = digits(s).len();
    if DATE.is_match(s) {
        return false;
    }
    if s.starts_with('+') {
        return (8..=15).contains(&n);
    }
    let grouped = s.contains(['(', ' ', '-', '.']);
    grouped && (10..=11).contains(&n)
}
