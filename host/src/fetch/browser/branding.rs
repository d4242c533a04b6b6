//! The `branding` snapshot: when a request asks for the `branding` format the
//! browser engine runs `branding.js` in the settled page — computed colours
//! (backgrounds by area, text by length, links), font stacks, h1/h2/h3/body
//! type, radii and spacing, buttons, inputs, the logo (img or svg in the
//! header, its alt and link), favicon, og:image, colour scheme, `:root`
//! custom properties — and hands the JSON to the pipeline as engine data
//! under [`SNAPSHOT`]. The `branding` plugin (plugins/branding) consumes it
//! as an input of that name and builds upstream's BrandingProfile.

use super::settle::evaluate;
use chromiumoxide::page::Page;
use serde_json::{Map, Value};

/// The engine-data key (and the consumed input's name) of the snapshot.
pub const SNAPSHOT: &str = "brandingSnapshot";

/// The script, an expression whose value is the snapshot object.
const SCRIPT: &str = include_str!("branding.js");

/// Takes the snapshot of `page` into `engine_data`. A script failure is
/// logged and leaves no snapshot: the plugin then says branding is missing.
pub async fn collect(page: &Page, engine_data: &mut Map<String, Value>) {
    match evaluate(page, SCRIPT).await {
        Ok((kind, value)) if kind == "object" && value.is_object() => {
            engine_data.insert(SNAPSHOT.into(), value);
        }
        Ok((kind, _)) => tracing::warn!(kind, "the branding script returned no object"),
        Err(error) => tracing::warn!(%error, "the branding script failed"),
    }
}
