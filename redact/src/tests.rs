//! Unit tests: each detector on true and false positives, the modes, the
//! option parsing.

use super::*;
use detect::{iban_ok, luhn_ok, phone_ok};
use serde_json::json;

fn all(text: &str) -> String {
    redact(text, &RedactOptions::default())
}

#[test]
fn emails() {
    assert_eq!(
        all("Write to ana.b+news@mail.example.co.uk today."),
        "Write to [EMAIL] today."
    );
    assert_eq!(all("no @ here, or a@b"), "no @ here, or a@b");
}

#[test]
fn cards_need_luhn() {
    assert!(luhn_ok("4111 1111 1111 1111"));
    assert!(luhn_ok("5500-0000-0000-0004"));
    assert!(!luhn_ok("4111 1111 1111 1112"));
    assert!(!luhn_ok("0000 0000 0000 0000"));
    assert_eq!(all("Card: 4111 1111 1111 1111."), "Card: [CREDIT_CARD].");
    assert_eq!(
        all("Order 4111 1111 1111 1112 shipped"),
        "Order 4111 1111 1111 1112 shipped"
    );
}

#[test]
fn ibans_need_mod_97() {
    assert!(iban_ok("GB82 WEST 1234 5698 7654 32"));
    assert!(iban_ok("DE89370400440532013000"));
    assert!(!iban_ok("GB82 WEST 1234 5698 7654 33"));
    assert_eq!(
        all("IBAN DE89 3704 0044 0532 0130 00, thanks"),
        "IBAN [IBAN], thanks"
    );
    assert_eq!(
        all("ref GB00 WEST 1234 5698 7654 32"),
        "ref GB00 WEST 1234 5698 7654 32"
    );
}

#[test]
fn ip_addresses() {
    assert_eq!(
        all("from 192.168.0.12 and 2001:db8::8a2e:370:7334 and ::1 ok"),
        "from [IP_ADDRESS] and [IP_ADDRESS] and [IP_ADDRESS] ok"
    );
    assert_eq!(
        all("version 999.1.1.1, at 10:30:00"),
        "version 999.1.1.1, at 10:30:00"
    );
}

#[test]
fn phones() {
    assert!(phone_ok("+44 20 7946 0958"));
    assert!(phone_ok("(555) 010-0199"));
    assert!(!phone_ok("2024-01-15"));
    assert!(!phone_ok("12345"));
    assert!(!phone_ok("1234567890"), "an ungrouped number is not a phone");
    assert_eq!(
        all("Call +1 415-555-0132 or (020) 7946 0958."),
        "Call [PHONE] or [PHONE]."
    );
    assert_eq!(all("[call](tel:+442079460958)"), "[call](tel:[PHONE])");
    assert_eq!(all("ref +1234567"), "ref +1234567", "too short for a phone");
    assert_eq!(
        all("In 2019 we sold 1,200 units on 2024-01-15."),
        "In 2019 we sold 1,200 units on 2024-01-15."
    );
}

#[test]
fn modes_and_entities() {
    let text = "Mail ana@example.com, card 4111-1111-1111-1111.";
    let mask = RedactOptions {
        mode: Mode::Mask,
        ..Default::default()
    };
    assert_eq!(
        redact(text, &mask),
        "Mail ***@*******.***, card ****-****-****-1111."
    );
    let remove = RedactOptions {
        mode: Mode::Remove,
        entities: vec![Entity::Email],
    };
    assert_eq!(redact(text, &remove), "Mail , card 4111-1111-1111-1111.");
}

#[test]
fn options_from_json() {
    assert_eq!(RedactOptions::from_json(&json!(false)), Ok(None));
    assert_eq!(
        RedactOptions::from_json(&json!(true)),
        Ok(Some(RedactOptions::default()))
    );
    assert_eq!(
        RedactOptions::from_json(&json!({"mode": "mask", "entities": ["iban", "email"]})),
        Ok(Some(RedactOptions {
            mode: Mode::Mask,
            entities: vec![Entity::Iban, Entity::Email]
        }))
    );
    assert!(
        RedactOptions::from_json(&json!({"mode": "blur"}))
            .unwrap_err()
            .contains("mode")
    );
    assert!(
        RedactOptions::from_json(&json!({"entities": ["ssn"]}))
            .unwrap_err()
            .contains("ssn")
    );
    assert!(RedactOptions::from_json(&json!("yes")).is_err());
}

#[test]
fn the_e2e_fixture_page() {
    let path = format!("{}/../tests/fixtures/site/pii.html", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read_to_string(path).unwrap();
    let out = all(&html);
    assert!(out.contains("Write to [EMAIL] or call [PHONE]."), "{out}");
    assert!(out.contains("IBAN [IBAN]. Test card [CREDIT_CARD]."), "{out}");
    assert!(
        out.contains("sits at [IP_ADDRESS]. Founded 1998-04-12; 1,200 members."),
        "{out}"
    );
    let cards = RedactOptions {
        mode: Mode::Mask,
        entities: vec![Entity::CreditCard],
    };
    assert!(redact(&html, &cards).contains("Test card **** **** **** 1111."));
}

#[test]
fn hosts_of_urls_are_kept() {
    assert_eq!(
        all("[home](http://203.0.113.7:8080/contact?ip=203.0.113.9) and http://[::1]:3000/x"),
        "[home](http://203.0.113.7:8080/contact?ip=[IP_ADDRESS]) and http://[::1]:3000/x"
    );
    assert_eq!(
        all("see https://ana@example.com/ or ping 203.0.113.7"),
        "see https://[EMAIL]/ or ping [IP_ADDRESS]"
    );
}

#[test]
fn html_text_and_attributes_without_breaking_markup() {
    let html = r#"<!doctype html><html><head><title>Ana ana@example.com</title>
<style>.a{color:#123}</style><script type="application/ld+json">{"email":"ana@example.com"}</script></head>
<body class="4111 1111 1111 1111"><a href="mailto:ana@example.com" title='Mail ana@example.com'>ana@example.com</a>
<!-- call +44 20 7946 0958 --><input value=ana@example.com data-x=1 disabled>
<img src="http://203.0.113.7/a.png" alt="Card 4111 1111 1111 1111"> 3 < 4 <b>+44 20 7946 0958</b></body></html>"#;
    let out = redact_html(html, &RedactOptions::default());
    assert_eq!(
        out,
        r#"<!doctype html><html><head><title>Ana [EMAIL]</title>
<style>.a{color:#123}</style><script type="application/ld+json">{"email":"[EMAIL]"}</script></head>
<body class="4111 1111 1111 1111"><a href="mailto:[EMAIL]" title='Mail [EMAIL]'>[EMAIL]</a>
<!-- call [PHONE] --><input value=[EMAIL] data-x=1 disabled>
<img src="http://203.0.113.7/a.png" alt="Card [CREDIT_CARD]"> 3 < 4 <b>[PHONE]</b></body></html>"#
    );
    let remove = RedactOptions {
        mode: Mode::Remove,
        entities: vec![Entity::Email],
    };
    assert_eq!(
        redact_html("<input value=ana@example.com checked><p>x</p>", &remove),
        "<input value=\"\" checked><p>x</p>"
    );
    // Unterminated constructs end the text without panicking.
    for broken in [
        "<a href=\"mailto:a@b.co",
        "<!-- a@b.co",
        "<script>a@b.co",
        "<",
        "a <",
        "<p",
    ] {
        let _ = redact_html(broken, &RedactOptions::default());
    }
}

#[test]
fn json_strings() {
    let mut v = json!({"a": ["ana@example.com", 4], "b": {"c": "IP 203.0.113.7"}, "ana@example.com": true});
    redact_json(&mut v, &RedactOptions::default());
    assert_eq!(
        v,
        json!({"a": ["[EMAIL]", 4], "b": {"c": "IP [IP_ADDRESS]"}, "ana@example.com": true})
    );
}
