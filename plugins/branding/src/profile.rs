//! The snapshot (host/src/fetch/browser/branding.js) → upstream's
//! BrandingProfile: `colorScheme`, `brandName`, `logo`, `fonts`, `colors`
//! (primary, secondary, accent, background, textPrimary, textSecondary,
//! link), `typography` (fontFamilies, fontStacks, fontSizes, lineHeights,
//! fontWeights), `spacing` (baseUnit, borderRadius), `components`
//! (buttonPrimary, buttonSecondary, input) and `images` (logo, logoHref,
//! logoAlt, favicon, ogImage). Parts the page does not show are left out.

use crate::color::{Rgba, hex_of};
use distill_sdk::{Value, json};
use serde_json::Map;

/// Custom property names that declare a brand colour, by role.
const PRIMARY_VARIABLES: &[&str] = &["primary", "brand", "accent", "main", "theme"];

/// The profile built from `snap`.
pub fn build(snap: &Value) -> Value {
    let mut p = Map::new();
    let colors = colors(snap);
    let scheme = color_scheme(snap, colors.get("background"));
    p.insert("colorScheme".into(), json!(scheme));
    if let Some(name) = brand_name(snap) {
        p.insert("brandName".into(), json!(name));
    }
    let images = images(snap);
    p.insert("logo".into(), images.get("logo").cloned().unwrap_or(Value::Null));
    p.insert("fonts".into(), fonts(snap));
    p.insert("colors".into(), Value::Object(colors));
    p.insert("typography".into(), typography(snap));
    p.insert("spacing".into(), spacing(snap));
    p.insert("components".into(), components(snap));
    p.insert("images".into(), Value::Object(images));
    Value::Object(p)
}

/// Entries of a `{key: count}` object, most counted first (ties: key order).
fn ranked(v: &Value) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = v
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, n)| (k.clone(), n.as_f64().unwrap_or(0.0)))
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The page background: body's, else the root's, else white.
fn background(snap: &Value) -> String {
    let bg = &snap["background"];
    ["body", "root"]
        .iter()
        .find_map(|k| str_of(bg, k).and_then(hex_of))
        .unwrap_or_else(|| "#FFFFFF".into())
}

/// A button's fill, when it has one that stands out from the page.
fn fill(button: &Value, page_bg: &str) -> Option<Rgba> {
    let c = Rgba::parse(str_of(button, "background")?)?;
    (!c.transparent() && c.hex() != page_bg).then_some(c)
}

/// The primary button: the most used standing-out fill among buttons (ties:
/// the largest), preferring chromatic fills.
fn primary_button<'a>(snap: &'a Value, page_bg: &str) -> Option<&'a Value> {
    let buttons = snap["buttons"].as_array()?;
    let filled: Vec<(&Value, Rgba)> = buttons
        .iter()
        .filter_map(|b| fill(b, page_bg).map(|c| (b, c)))
        .collect();
    let pool: Vec<&(&Value, Rgba)> = if filled.iter().any(|(_, c)| c.chromatic()) {
        filled.iter().filter(|(_, c)| c.chromatic()).collect()
    } else {
        filled.iter().collect()
    };
    let count = |c: &Rgba| pool.iter().filter(|(_, x)| x.hex() == c.hex()).count();
    let area = |b: &Value| b["area"].as_f64().unwrap_or(0.0);
    let mut best: Option<&(&Value, Rgba)> = None;
    for candidate in pool.iter().copied() {
        let better = best.is_none_or(|b| (count(&candidate.1), area(candidate.0)) > (count(&b.1), area(b.0)));
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(b, _)| *b)
}

/// The secondary button: one styled unlike the primary (outlined, or
/// another fill).
fn secondary_button<'a>(snap: &'a Value, primary: Option<&Value>) -> Option<&'a Value> {
    let key = |b: &Value| {
        (
            b["background"].clone(),
            b["color"].clone(),
            b["borderColor"].clone(),
        )
    };
    let primary_key = primary.map(key);
    snap["buttons"]
        .as_array()?
        .iter()
        .find(|b| Some(key(b)) != primary_key && (has_border(b) || fill(b, "").is_some()))
}

fn has_border(b: &Value) -> bool {
    str_of(b, "borderStyle").is_some_and(|s| s != "none")
        && str_of(b, "borderWidth").is_some_and(|w| w != "0px")
        && str_of(b, "borderColor").and_then(hex_of).is_some()
}

/// A chromatic colour declared in a `:root` custom property named for a
/// brand role (`--primary`, `--brand-color`, `--color-accent`, ...).
fn variable_colour(snap: &Value, roles: &[&str]) -> Option<String> {
    let vars = snap["variables"].as_object()?;
    roles.iter().find_map(|role| {
        vars.iter()
            .filter(|(name, _)| name.to_ascii_lowercase().contains(role))
            .find_map(|(_, v)| Rgba::parse(v.as_str()?).filter(Rgba::chromatic).map(|c| c.hex()))
    })
}

/// Colours with roles.
fn colors(snap: &Value) -> Map<String, Value> {
    let bg = background(snap);
    let mut c = Map::new();
    let text_colours: Vec<String> = ranked(&snap["texts"])
        .into_iter()
        .filter_map(|(k, _)| hex_of(&k))
        .collect();
    let text = str_of(&snap["body"], "color")
        .and_then(hex_of)
        .or_else(|| text_colours.first().cloned());
    let link = ranked(&snap["links"]).into_iter().find_map(|(k, _)| hex_of(&k));
    let chromatic_backgrounds: Vec<String> = ranked(&snap["backgrounds"])
        .into_iter()
        .filter_map(|(k, _)| Rgba::parse(&k).filter(Rgba::chromatic).map(|c| c.hex()))
        .collect();
    let chromatic_link = link
        .as_deref()
        .and_then(Rgba::parse)
        .filter(Rgba::chromatic)
        .map(|c| c.hex());
    let button = primary_button(snap, &bg);
    let primary = button
        .and_then(|b| fill(b, &bg))
        .filter(Rgba::chromatic)
        .map(|c| c.hex())
        .or_else(|| variable_colour(snap, PRIMARY_VARIABLES))
        .or_else(|| {
            str_of(snap, "themeColor")
                .and_then(Rgba::parse)
                .filter(Rgba::chromatic)
                .map(|c| c.hex())
        })
        .or_else(|| chromatic_backgrounds.first().cloned())
        .or_else(|| chromatic_link.clone());
    let secondary = secondary_button(snap, button)
        .and_then(|b| {
            fill(b, &bg)
                .filter(Rgba::chromatic)
                .map(|c| c.hex())
                .or_else(|| str_of(b, "borderColor").and_then(hex_of))
        })
        .filter(|s| Some(s) != primary.as_ref())
        .or_else(|| {
            chromatic_backgrounds
                .iter()
                .find(|h| Some(*h) != primary.as_ref())
                .cloned()
        });
    let accent = variable_colour(snap, &["accent", "highlight"])
        .filter(|a| Some(a) != primary.as_ref())
        .or_else(|| chromatic_link.clone().filter(|l| Some(l) != primary.as_ref()))
        .or_else(|| {
            chromatic_backgrounds
                .iter()
                .find(|h| Some(*h) != primary.as_ref() && Some(*h) != secondary.as_ref())
                .cloned()
        });
    let text_secondary = text_colours
        .iter()
        .find(|t| Some(*t) != text.as_ref() && Some(*t) != link.as_ref() && **t != bg)
        .cloned();
    for (role, value) in [
        ("primary", primary),
        ("secondary", secondary),
        ("accent", accent),
        ("background", Some(bg.clone())),
        ("textPrimary", text),
        ("textSecondary", text_secondary),
        ("link", link),
    ] {
        if let Some(v) = value {
            c.insert(role.into(), json!(v));
        }
    }
    c
}

/// `dark` when the page says it is dark-only or its background is dark.
fn color_scheme(snap: &Value, background: Option<&Value>) -> &'static str {
    let declared = [str_of(snap, "colorSchemeMeta"), str_of(snap, "colorSchemeCss")];
    if declared
        .iter()
        .flatten()
        .any(|d| d.split_whitespace().collect::<Vec<_>>() == ["dark"])
    {
        return "dark";
    }
    let dark_bg = background
        .and_then(Value::as_str)
        .and_then(Rgba::parse)
        .is_some_and(|c| c.luminance() < 0.2);
    if dark_bg { "dark" } else { "light" }
}

/// og:site_name, else the logo's alt text, else the title's last part.
fn brand_name(snap: &Value) -> Option<String> {
    let alt = snap["logo"]
        .get("alt")
        .and_then(Value::as_str)
        .map(|a| {
            a.trim()
                .trim_end_matches(" logo")
                .trim_end_matches(" Logo")
                .trim()
                .to_string()
        })
        .filter(|a| !a.is_empty() && !a.eq_ignore_ascii_case("logo"));
    // "Page | Brand": the part after the last separator (a title without
    // one names the page, not the brand).
    let title = str_of(snap, "title").and_then(|t| {
        let cut = [" | ", " - ", " – ", " — ", " · "]
            .iter()
            .filter_map(|sep| t.rfind(sep).map(|i| i + sep.len()))
            .max()?;
        Some(t[cut..].trim().to_string()).filter(|s| !s.is_empty())
    });
    str_of(snap, "siteName")
        .map(|s| s.trim().to_string())
        .or(alt)
        .or(title)
}

/// A CSS font stack as a list of family names, unquoted.
fn stack(css: &str) -> Vec<String> {
    css.split(',')
        .map(|f| f.trim().trim_matches(['"', '\'']).to_string())
        .filter(|f| !f.is_empty())
        .collect()
}

fn first_family(v: &Value) -> Option<String> {
    str_of(v, "fontFamily").and_then(|s| stack(s).into_iter().next())
}

/// The families in use: body text, headings, code, in that order, distinct.
fn fonts(snap: &Value) -> Value {
    let mut out: Vec<Value> = Vec::new();
    let body = ranked(&snap["families"])
        .into_iter()
        .find_map(|(s, _)| stack(&s).into_iter().next())
        .or_else(|| first_family(&snap["body"]));
    let heading = first_family(&snap["h1"]).or_else(|| first_family(&snap["h2"]));
    let code = first_family(&snap["code"]);
    for (role, family) in [("body", body), ("heading", heading), ("code", code)] {
        if let Some(family) = family
            && !out.iter().any(|f| f["family"] == family.as_str())
        {
            out.push(json!({"family": family, "role": role}));
        }
    }
    Value::Array(out)
}

/// A `px` length as a number (`"24px"` → 24).
fn px(s: &str) -> Option<f64> {
    s.trim().strip_suffix("px")?.parse().ok()
}

fn line_height(v: &Value) -> Option<Value> {
    let lh = px(str_of(v, "lineHeight")?)?;
    let size = px(str_of(v, "fontSize")?)?;
    (size > 0.0).then(|| json!(((lh / size) * 100.0).round() / 100.0))
}

fn weight(v: &Value) -> Option<Value> {
    str_of(v, "fontWeight")?.parse::<u32>().ok().map(|w| json!(w))
}

fn typography(snap: &Value) -> Value {
    let body = if snap["paragraph"].is_object() {
        &snap["paragraph"]
    } else {
        &snap["body"]
    };
    let heading = if snap["h1"].is_object() {
        &snap["h1"]
    } else {
        &snap["h2"]
    };
    let mut families = Map::new();
    let mut stacks = Map::new();
    for (role, v) in [("primary", body), ("heading", heading), ("code", &snap["code"])] {
        if let Some(css) = str_of(v, "fontFamily") {
            families.insert(role.into(), json!(stack(css)[0]));
            stacks.insert(role.into(), json!(stack(css)));
        }
    }
    let mut sizes = Map::new();
    for (role, v) in [
        ("h1", &snap["h1"]),
        ("h2", &snap["h2"]),
        ("h3", &snap["h3"]),
        ("body", body),
        ("small", &snap["small"]),
    ] {
        if let Some(size) = str_of(v, "fontSize") {
            sizes.insert(role.into(), json!(size));
        }
    }
    let mut heights = Map::new();
    for (role, v) in [("heading", heading), ("body", body)] {
        if let Some(h) = line_height(v) {
            heights.insert(role.into(), h);
        }
    }
    let mut weights = Map::new();
    for (role, v) in [("regular", body), ("bold", heading)] {
        if let Some(w) = weight(v) {
            weights.insert(role.into(), w);
        }
    }
    json!({"fontFamilies": families, "fontStacks": stacks, "fontSizes": sizes,
           "lineHeights": heights, "fontWeights": weights})
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The base unit (greatest common divisor of the five most used spacings,
/// at least 2 px) and the most used corner radius.
fn spacing(snap: &Value) -> Value {
    let mut out = Map::new();
    let common: Vec<u32> = ranked(&snap["spacings"])
        .into_iter()
        .filter_map(|(k, _)| px(&k))
        .map(|v| v.round() as u32)
        .filter(|v| *v > 0)
        .take(5)
        .collect();
    if let Some(&first) = common.first() {
        let unit = common.iter().fold(first, |g, v| gcd(g, *v));
        out.insert("baseUnit".into(), json!(if unit >= 2 { unit } else { first }));
    }
    if let Some((radius, _)) = ranked(&snap["radii"]).into_iter().next() {
        out.insert("borderRadius".into(), json!(radius));
    }
    Value::Object(out)
}

/// A button's or input's style.
fn component(b: &Value) -> Value {
    let mut out = Map::new();
    if let Some(bg) = str_of(b, "background").and_then(hex_of) {
        out.insert("background".into(), json!(bg));
    }
    if let Some(c) = str_of(b, "color").and_then(hex_of) {
        out.insert("textColor".into(), json!(c));
    }
    if has_border(b) {
        out.insert(
            "borderColor".into(),
            json!(str_of(b, "borderColor").and_then(hex_of)),
        );
    }
    for (key, field) in [
        ("borderRadius", "borderRadius"),
        ("fontSize", "fontSize"),
        ("fontWeight", "fontWeight"),
        ("padding", "padding"),
    ] {
        if let Some(v) = str_of(b, field) {
            out.insert(key.into(), json!(v));
        }
    }
    Value::Object(out)
}

fn components(snap: &Value) -> Value {
    let bg = background(snap);
    let primary = primary_button(snap, &bg);
    let mut out = Map::new();
    if let Some(b) = primary {
        out.insert("buttonPrimary".into(), component(b));
    }
    if let Some(b) = secondary_button(snap, primary) {
        out.insert("buttonSecondary".into(), component(b));
    }
    if let Some(i) = snap["inputs"].as_array().and_then(|a| a.first()) {
        out.insert("input".into(), component(i));
    }
    Value::Object(out)
}

/// Resolves `href` against the page URL.
fn absolute(snap: &Value, href: &str) -> String {
    str_of(snap, "url")
        .and_then(|base| url::Url::parse(base).ok())
        .and_then(|base| base.join(href).ok())
        .map(String::from)
        .unwrap_or_else(|| href.to_string())
}

fn images(snap: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    let logo = &snap["logo"];
    if let Some(src) = str_of(logo, "src") {
        out.insert("logo".into(), json!(absolute(snap, src)));
        if let Some(href) = str_of(logo, "href") {
            out.insert("logoHref".into(), json!(absolute(snap, href)));
        }
        if let Some(alt) = str_of(logo, "alt") {
            out.insert("logoAlt".into(), json!(alt.trim()));
        }
    }
    for (key, field) in [("favicon", "favicon"), ("ogImage", "ogImage")] {
        if let Some(v) = str_of(snap, field) {
            out.insert(key.into(), json!(absolute(snap, v)));
        }
    }
    out
}
