//! Document metadata: title and author from the core properties (the title
//! falling back to the first heading), page count from `docProps/app.xml`.

use distill_sdk::documents::archive::Archive;
use distill_sdk::documents::{ooxml, xml};
use distill_sdk::{PluginError, json, serde_json};

/// The title and the metadata object (`title`, `author`, `numPages`).
pub(crate) fn metadata(
    zip: &mut Archive,
    first_heading: Option<String>,
) -> Result<(Option<String>, serde_json::Map<String, serde_json::Value>), PluginError> {
    let props = ooxml::core_props(zip)?;
    let mut meta = serde_json::Map::new();
    let title = props.title.or(first_heading);
    if let Some(t) = &title {
        meta.insert("title".into(), json!(t));
    }
    if let Some(a) = &props.creator {
        meta.insert("author".into(), json!(a));
    }
    if let Some(pages) = app_pages(zip)? {
        meta.insert("numPages".into(), json!(pages));
    }
    Ok((title, meta))
}

/// `Pages` of `docProps/app.xml` when it is a positive number.
fn app_pages(zip: &mut Archive) -> Result<Option<u32>, PluginError> {
    let Some(app) = zip.read_string("docProps/app.xml")? else {
        return Ok(None);
    };
    let Ok(app) = xml::parse(&app, "docProps/app.xml") else {
        return Ok(None);
    };
    Ok(app
        .find("Pages")
        .and_then(|p| p.text().trim().parse::<u32>().ok())
        .filter(|&n| n > 0))
}
