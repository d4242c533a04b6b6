//! Prices and dietary tags in menu text: a price is a number next to a
//! currency sign or ISO 4217 code ("£8.50", "8,50 €", "USD 12", "A$9");
//! dietary tags come from schema.org `suitableForDiet` values or the usual
//! markers ("(V)", "(VG)", "(GF)", "vegan", "gluten-free").

use distill_sdk::{Value, json};

/// Currency signs (longest first) and their ISO 4217 codes.
const SIGNS: &[(&str, &str)] = &[
    ("CA$", "CAD"),
    ("AU$", "AUD"),
    ("NZ$", "NZD"),
    ("HK$", "HKD"),
    ("US$", "USD"),
    ("R$", "BRL"),
    ("A$", "AUD"),
    ("C$", "CAD"),
    ("S$", "SGD"),
    ("$", "USD"),
    ("€", "EUR"),
    ("£", "GBP"),
    ("¥", "JPY"),
    ("₹", "INR"),
    ("₩", "KRW"),
    ("₺", "TRY"),
    ("₽", "RUB"),
    ("₪", "ILS"),
    ("฿", "THB"),
];

/// ISO 4217 codes recognised when written out next to a number.
const CODES: &[&str] = &[
    "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "INR",
    "CNY", "HKD", "SGD", "BRL", "MXN", "ZAR", "TRY", "KRW", "THB", "ILS", "RUB",
];

/// A price found in `text`: `(start, end, {amount, currency?, formatted})`,
/// the byte range it spans. A bare number is not a price.
pub fn find_price(text: &str) -> Option<(usize, usize, Value)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || ((bytes[i] == b'.' || bytes[i] == b',')
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        let number = &text[start..i];
        let before = text[..start].trim_end();
        let after = text[i..].trim_start();
        let prefix = currency_suffix_of(before);
        let suffix = currency_prefix_of(after);
        let (currency, from, to) = match (prefix, suffix) {
            (Some((code, len)), _) => (code, before.len() - len, i),
            (None, Some((code, len))) => (code, start, text.len() - after.len() + len),
            _ => continue,
        };
        let amount = parse_amount(number)?;
        let formatted = text[from..to].trim().to_string();
        return Some((
            from,
            to,
            json!({"amount": amount, "currency": currency, "formatted": formatted}),
        ));
    }
    None
}

/// A currency sign or code ending `s`: (code, its length in bytes).
fn currency_suffix_of(s: &str) -> Option<(&'static str, usize)> {
    if let Some((sign, code)) = SIGNS.iter().find(|(sign, _)| s.ends_with(sign)) {
        return Some((code, sign.len()));
    }
    let word = s.rsplit(|c: char| !c.is_ascii_alphabetic()).next()?;
    CODES.iter().find(|c| **c == word).map(|c| (*c, c.len()))
}

/// A currency sign or code starting `s`.
fn currency_prefix_of(s: &str) -> Option<(&'static str, usize)> {
    if let Some((sign, code)) = SIGNS.iter().find(|(sign, _)| s.starts_with(sign)) {
        return Some((code, sign.len()));
    }
    let word = s.split(|c: char| !c.is_ascii_alphabetic()).next()?;
    CODES.iter().find(|c| **c == word).map(|c| (*c, c.len()))
}

/// A number in either convention ("1,299.00", "8,50", "12").
pub fn parse_amount(s: &str) -> Option<f64> {
    let normal = match (s.rfind('.'), s.rfind(',')) {
        (Some(d), Some(c)) if c > d => s.replace('.', "").replace(',', "."),
        (None, Some(c)) if s.len() - c <= 3 => s.replace(',', "."),
        _ => s.replace(',', ""),
    };
    normal.parse().ok()
}

/// A currency as an ISO 4217 code: a code as is, a sign mapped.
pub fn currency_code(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() == 3 && s.chars().all(|c| c.is_ascii_alphabetic()) {
        return Some(s.to_ascii_uppercase());
    }
    SIGNS
        .iter()
        .find(|(sign, _)| *sign == s)
        .map(|(_, c)| c.to_string())
}

/// The dietary tag for a schema.org `RestrictedDiet` value (URL or name).
pub fn diet_tag(value: &str) -> Option<&'static str> {
    let name = value.rsplit(['/', ':']).next().unwrap_or(value);
    Some(match name {
        "VeganDiet" => "vegan",
        "VegetarianDiet" => "vegetarian",
        "GlutenFreeDiet" => "gluten-free",
        "HalalDiet" => "halal",
        "KosherDiet" => "kosher",
        "LowLactoseDiet" => "low-lactose",
        "DiabeticDiet" => "diabetic",
        "LowFatDiet" => "low-fat",
        "LowSaltDiet" => "low-salt",
        "LowCalorieDiet" => "low-calorie",
        "HinduDiet" => "hindu",
        _ => return None,
    })
}

/// Dietary tags marked in an item's text, and the text without the
/// parenthesised markers.
pub fn text_tags(text: &str) -> (Vec<&'static str>, String) {
    const MARKERS: &[(&str, &str)] = &[
        ("(vg)", "vegan"),
        ("(ve)", "vegan"),
        ("(v)", "vegetarian"),
        ("(gf)", "gluten-free"),
        ("(df)", "dairy-free"),
        ("(n)", "contains-nuts"),
    ];
    const WORDS: &[(&str, &str)] = &[
        ("vegan", "vegan"),
        ("vegetarian", "vegetarian"),
        ("gluten-free", "gluten-free"),
        ("gluten free", "gluten-free"),
        ("dairy-free", "dairy-free"),
        ("halal", "halal"),
        ("kosher", "kosher"),
    ];
    let mut tags: Vec<&'static str> = Vec::new();
    let mut rest = text.to_string();
    for (marker, tag) in MARKERS {
        while let Some(at) = rest.to_ascii_lowercase().find(marker) {
            rest.replace_range(at..at + marker.len(), "");
            if !tags.contains(tag) {
                tags.push(tag);
            }
        }
    }
    let lower = rest.to_ascii_lowercase();
    for (word, tag) in WORDS {
        if lower.contains(word) && !tags.contains(tag) {
            tags.push(tag);
        }
    }
    (tags, rest.split_whitespace().collect::<Vec<_>>().join(" "))
}
