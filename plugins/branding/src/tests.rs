//! Unit tests: colours, and a whole profile from a snapshot as the browser
//! script writes one; the model asked only for missing parts.

use super::*;
use crate::color::{Rgba, hex_of};
use distill_sdk::json;

#[test]
fn colours() {
    assert_eq!(hex_of("rgb(37, 99, 235)").as_deref(), Some("#2563EB"));
    assert_eq!(hex_of("rgba(0, 0, 0, 0)"), None);
    assert_eq!(hex_of("#abc").as_deref(), Some("#AABBCC"));
    assert_eq!(hex_of("rgb(10 20 30 / 50%)").as_deref(), Some("#0A141E"));
    assert_eq!(hex_of("oklch(0.5 0.1 200)"), None);
    assert!(Rgba::parse("#2563eb").unwrap().chromatic());
    assert!(!Rgba::parse("#777777").unwrap().chromatic());
    assert!(!Rgba::parse("#FFFFFF").unwrap().chromatic());
    assert!(Rgba::parse("#111111").unwrap().luminance() < 0.2);
}

fn snapshot() -> Value {
    json!({
        "url": "http://brand.test/home",
        "title": "Home | Lichen Labs",
        "siteName": null,
        "ogImage": "/img/og.png",
        "favicon": "http://brand.test/favicon.svg",
        "themeColor": null,
        "colorSchemeMeta": null,
        "colorSchemeCss": "normal",
        "background": {"body": "rgb(255, 253, 248)", "root": "rgba(0, 0, 0, 0)"},
        "body": {"fontFamily": "\"Source Sans 3\", Arial, sans-serif", "fontSize": "16px", "fontWeight": "400", "lineHeight": "24px", "color": "rgb(31, 41, 55)"},
        "paragraph": {"fontFamily": "\"Source Sans 3\", Arial, sans-serif", "fontSize": "17px", "fontWeight": "400", "lineHeight": "25.5px", "color": "rgb(31, 41, 55)"},
        "h1": {"fontFamily": "Georgia, serif", "fontSize": "44px", "fontWeight": "700", "lineHeight": "52.8px", "color": "rgb(17, 24, 39)"},
        "h2": {"fontFamily": "Georgia, serif", "fontSize": "30px", "fontWeight": "700", "lineHeight": "normal", "color": "rgb(17, 24, 39)"},
        "h3": null, "code": null, "small": null,
        "backgrounds": {"rgb(255, 253, 248)": 900000, "rgb(14, 116, 144)": 20000, "rgb(217, 70, 39)": 4000},
        "texts": {"rgb(31, 41, 55)": 900, "rgb(107, 114, 128)": 120, "rgb(14, 116, 144)": 40},
        "links": {"rgb(217, 70, 39)": 5},
        "families": {"\"Source Sans 3\", Arial, sans-serif": 900, "Georgia, serif": 60},
        "radii": {"6px": 4, "999px": 1},
        "spacings": {"16px": 20, "8px": 12, "24px": 8, "32px": 3},
        "variables": {"--lichen-primary": "#0e7490"},
        "buttons": [
            {"text": "Start", "background": "rgb(14, 116, 144)", "color": "rgb(255, 255, 255)", "borderColor": "rgb(14, 116, 144)", "borderWidth": "0px", "borderStyle": "none", "borderRadius": "6px", "fontSize": "16px", "fontWeight": "600", "padding": "10px 18px", "area": 4000},
            {"text": "Learn more", "background": "rgba(0, 0, 0, 0)", "color": "rgb(14, 116, 144)", "borderColor": "rgb(14, 116, 144)", "borderWidth": "2px", "borderStyle": "solid", "borderRadius": "6px", "fontSize": "16px", "fontWeight": "600", "padding": "10px 18px", "area": 4200}
        ],
        "inputs": [{"text": "", "background": "rgb(255, 255, 255)", "color": "rgb(31, 41, 55)", "borderColor": "rgb(156, 163, 175)", "borderWidth": "1px", "borderStyle": "solid", "borderRadius": "4px", "fontSize": "16px", "fontWeight": "400", "padding": "8px"}],
        "logo": {"kind": "img", "src": "/img/logo.svg", "alt": "Lichen Labs logo", "href": "http://brand.test/"}
    })
}

#[test]
fn a_whole_profile() {
    let p = profile::build(&snapshot());
    assert_eq!(
        p,
        json!({
            "colorScheme": "light",
            "brandName": "Lichen Labs",
            "logo": "http://brand.test/img/logo.svg",
            "fonts": [{"family": "Source Sans 3", "role": "body"}, {"family": "Georgia", "role": "heading"}],
            "colors": {"primary": "#0E7490", "secondary": "#D94627", "accent": "#D94627", "background": "#FFFDF8",
                       "textPrimary": "#1F2937", "textSecondary": "#6B7280", "link": "#D94627"},
            "typography": {
                "fontFamilies": {"primary": "Source Sans 3", "heading": "Georgia"},
                "fontStacks": {"primary": ["Source Sans 3", "Arial", "sans-serif"], "heading": ["Georgia", "serif"]},
                "fontSizes": {"h1": "44px", "h2": "30px", "body": "17px"},
                "lineHeights": {"heading": 1.2, "body": 1.5},
                "fontWeights": {"regular": 400, "bold": 700}
            },
            "spacing": {"baseUnit": 8, "borderRadius": "6px"},
            "components": {
                "buttonPrimary": {"background": "#0E7490", "textColor": "#FFFFFF", "borderRadius": "6px", "fontSize": "16px", "fontWeight": "600", "padding": "10px 18px"},
                "buttonSecondary": {"textColor": "#0E7490", "borderColor": "#0E7490", "borderRadius": "6px", "fontSize": "16px", "fontWeight": "600", "padding": "10px 18px"},
                "input": {"background": "#FFFFFF", "textColor": "#1F2937", "borderColor": "#9CA3AF", "borderRadius": "4px", "fontSize": "16px", "fontWeight": "400", "padding": "8px"}
            },
            "images": {"logo": "http://brand.test/img/logo.svg", "logoHref": "http://brand.test/", "logoAlt": "Lichen Labs logo",
                       "favicon": "http://brand.test/favicon.svg", "ogImage": "http://brand.test/img/og.png"}
        })
    );
    // Nothing missing: no model call, no warning.
    let mut p = p;
    distill_sdk::llm::mock::set(|_| panic!("the model is not asked when nothing is missing"));
    assert!(gaps::fill(&mut p, &snapshot()).is_empty());
    distill_sdk::llm::mock::clear();
}

#[test]
fn a_dark_grey_page_asks_the_model_for_what_is_missing() {
    let snap = json!({
        "url": "http://grey.test/", "title": "",
        "background": {"body": "rgb(17, 17, 17)"},
        "body": {"fontFamily": "system-ui", "fontSize": "16px", "color": "rgb(230, 230, 230)"},
        "buttons": [], "inputs": [], "logo": null
    });
    let mut p = profile::build(&snap);
    assert_eq!(p["colorScheme"], "dark");
    assert!(p["colors"].get("primary").is_none());
    // No model: the missing parts are named.
    let warnings = gaps::fill(&mut p.clone(), &snap);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("colors.primary"));
    // A model fills them.
    distill_sdk::llm::mock::set(|req| {
        assert!(req.messages[1].content.contains("grey.test"));
        Ok(r##"{"primaryColor": "#ff6600", "brandName": "Grey"}"##.into())
    });
    assert!(gaps::fill(&mut p, &snap).is_empty());
    distill_sdk::llm::mock::clear();
    assert_eq!(p["colors"]["primary"], "#FF6600");
    assert_eq!(p["brandName"], "Grey");
}
