//! `blockAds`' other half in the browser: cookie and consent banners are
//! hidden, so screenshots show the page. A style sheet adopted by every
//! document of the page (`adoptedStyleSheets`: not part of the serialised
//! DOM, so `rawHtml` stays the page's own) hides elements whose `id` or
//! `class` names a cookie or consent banner, and the roots of the common
//! consent-management tools. The banners stay in the DOM; main-content
//! cleaning leaves them out of the text formats anyway.

use chromiumoxide::cdp::browser_protocol::page::AddScriptToEvaluateOnNewDocumentParams;
use chromiumoxide::page::Page;

/// What is hidden: general banner names, then consent-management tools' roots.
const HIDDEN: &str = "[id*=\"cookie-banner\" i], [class*=\"cookie-banner\" i], \
    [id*=\"cookie-consent\" i], [class*=\"cookie-consent\" i], \
    [id*=\"cookieconsent\" i], [class*=\"cookieconsent\" i], \
    [id*=\"cookie-notice\" i], [class*=\"cookie-notice\" i], \
    [id*=\"consent-banner\" i], [class*=\"consent-banner\" i], \
    [id*=\"gdpr-banner\" i], [class*=\"gdpr-banner\" i], \
    #onetrust-consent-sdk, #CybotCookiebotDialog, #usercentrics-root, \
    .fc-consent-root, .qc-cmp2-container";

/// The script adopting the style sheet in each new document.
fn script() -> String {
    let css = format!("{HIDDEN} {{ display: none !important; }}");
    format!(
        "(() => {{ try {{ const sheet = new CSSStyleSheet(); sheet.replaceSync({}); \
         document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }} catch (e) {{}} }})()",
        serde_json::to_string(&css).expect("strings serialise")
    )
}

/// Hides banners in every document `page` loads from now on.
pub async fn hide(page: &Page) -> Result<(), String> {
    page.execute(AddScriptToEvaluateOnNewDocumentParams::new(script()))
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}
