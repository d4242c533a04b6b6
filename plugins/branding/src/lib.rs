//! Distill format plugin `branding`: a site's brand in upstream Firecrawl's
//! BrandingProfile shape (`colorScheme`, `brandName`, `logo`, `fonts`,
//! `colors`, `typography`, `spacing`, `components`, `images`), built
//! deterministically ([`profile`]) from the computed-style snapshot the
//! browser engine takes when branding is requested (consumed as the input
//! `brandingSnapshot`).
//!
//! No snapshot (no browser on this server, or the page could not be read) →
//! `null` and a warning saying so. The operator's model (`llm`) is asked only
//! to fill what the page does not show (a primary colour, a brand name);
//! without one, a missing part is named in a warning.

pub mod color;
pub mod gaps;
pub mod profile;

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

/// The input holding the browser's snapshot.
pub const SNAPSHOT: &str = "brandingSnapshot";

/// The warning when there is no snapshot.
pub const NO_BROWSER: &str = "branding: needs the browser engine, which did not render this page \
(is Chromium installed? set DISTILL_CHROMIUM to its path)";

/// The plugin.
pub struct Branding;

impl FormatPlugin for Branding {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Brand colours, fonts, type scale, components and logo from the rendered page.")
            .format("branding")
            .consumes(SNAPSHOT)
            .capability("llm")
            .memory_limit_mib(64)
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let Some(snapshot) = page.input(SNAPSHOT).filter(Value::is_object) else {
            distill_sdk::warning(NO_BROWSER);
            return Ok(Value::Null);
        };
        let mut profile = profile::build(&snapshot);
        for warning in gaps::fill(&mut profile, &snapshot) {
            distill_sdk::warning(warning);
        }
        Ok(profile)
    }
}

distill_sdk::export_plugin!(format: Branding);

#[cfg(test)]
mod tests;
