//! `redactPII`: masks personal data in text (the response's markdown)
//! without a model. Detectors: emails, phone numbers, payment card numbers
//! (Luhn-checked), IBANs (mod-97-checked), IPv4 and IPv6 addresses
//! ([`detect`]). The request option is `true` (defaults) or an object
//! `{"mode": "placeholder"|"mask"|"remove", "entities": [...]}`
//! ([`RedactOptions::from_json`]); see docs/API.md and docs/FORMATS.md.
//! [`redact`] works on text, [`redact_html`] on markup (text and attribute
//! values only), [`redact_json`] on every string of a JSON value.

pub mod detect;
pub mod html;

pub use html::redact_html;

use serde_json::Value;

/// What kind of data a span is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entity {
    Email,
    Phone,
    CreditCard,
    Iban,
    IpAddress,
}

impl Entity {
    /// Every entity, in the order overlapping finds are preferred.
    pub const ALL: [Entity; 5] = [
        Entity::Email,
        Entity::Iban,
        Entity::CreditCard,
        Entity::IpAddress,
        Entity::Phone,
    ];

    /// The request name (`entities` list).
    pub fn name(self) -> &'static str {
        match self {
            Entity::Email => "email",
            Entity::Phone => "phone",
            Entity::CreditCard => "creditCard",
            Entity::Iban => "iban",
            Entity::IpAddress => "ipAddress",
        }
    }

    /// The placeholder written in `placeholder` mode.
    pub fn placeholder(self) -> &'static str {
        match self {
            Entity::Email => "[EMAIL]",
            Entity::Phone => "[PHONE]",
            Entity::CreditCard => "[CREDIT_CARD]",
            Entity::Iban => "[IBAN]",
            Entity::IpAddress => "[IP_ADDRESS]",
        }
    }
}

/// How a found span is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// `[EMAIL]`, `[PHONE]`, ... (the default).
    #[default]
    Placeholder,
    /// Each letter and digit becomes `*`, punctuation stays; card numbers and
    /// IBANs keep their last four characters.
    Mask,
    /// The span is removed.
    Remove,
}

/// The `redactPII` option, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct RedactOptions {
    pub mode: Mode,
    pub entities: Vec<Entity>,
}

impl Default for RedactOptions {
    fn default() -> Self {
        RedactOptions {
            mode: Mode::Placeholder,
            entities: Entity::ALL.to_vec(),
        }
    }
}

impl RedactOptions {
    /// `false`/`null` → `None` (off); `true` → defaults; an object →
    /// `mode` and `entities` (both optional). Errors name the bad field.
    pub fn from_json(value: &Value) -> Result<Option<RedactOptions>, String> {
        let map = match value {
            Value::Null | Value::Bool(false) => return Ok(None),
            Value::Bool(true) => return Ok(Some(RedactOptions::default())),
            Value::Object(map) => map,
            _ => return Err("redactPII must be a boolean or an object".into()),
        };
        let mut opts = RedactOptions::default();
        for (key, v) in map {
            match key.as_str() {
                "mode" => {
                    opts.mode = match v.as_str() {
                        Some("placeholder") => Mode::Placeholder,
                        Some("mask") => Mode::Mask,
                        Some("remove") => Mode::Remove,
                        _ => return Err("redactPII.mode must be one of placeholder, mask, remove".into()),
                    }
                }
                "entities" => {
                    let names = v.as_array().ok_or("redactPII.entities must be an array")?;
                    let mut entities = Vec::new();
                    for n in names {
                        let e = Entity::ALL
                            .into_iter()
                            .find(|e| Some(e.name()) == n.as_str())
                            .ok_or_else(|| {
                                format!(
                                    "redactPII.entities: unknown entity {n}; known: email, phone, creditCard, iban, ipAddress"
                                )
                            })?;
                        if !entities.contains(&e) {
                            entities.push(e);
                        }
                    }
                    opts.entities = entities;
                }
                other => return Err(format!("redactPII: unknown field {other:?}")),
            }
        }
        Ok(Some(opts))
    }
}

/// `text` with every enabled entity replaced per `opts.mode`.
pub fn redact(text: &str, opts: &RedactOptions) -> String {
    let spans = detect::find(text, &opts.entities);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        out.push_str(&text[at..span.start]);
        let found = &text[span.start..span.end];
        match opts.mode {
            Mode::Placeholder => out.push_str(span.entity.placeholder()),
            Mode::Remove => {}
            Mode::Mask => out.push_str(&mask(found, span.entity)),
        }
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Every string in `value` (object keys excepted) redacted in place.
pub fn redact_json(value: &mut Value, opts: &RedactOptions) {
    match value {
        Value::String(s) => {
            let redacted = redact(s, opts);
            if redacted != *s {
                *s = redacted;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_json(v, opts)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_json(v, opts)),
        _ => {}
    }
}

fn mask(found: &str, entity: Entity) -> String {
    let keep = match entity {
        Entity::CreditCard | Entity::Iban => 4,
        _ => 0,
    };
    let total = found.chars().filter(|c| c.is_alphanumeric()).count();
    let mut seen = 0;
    found
        .chars()
        .map(|c| {
            if !c.is_alphanumeric() {
                return c;
            }
            seen += 1;
            if seen > total - keep { c } else { '*' }
        })
        .collect()
}

#[cfg(test)]
mod tests;
