//! Distill format plugin `menu`: a restaurant menu, found deterministically
//! (no model): schema.org `Menu`/`MenuSection`/`MenuItem` in JSON-LD (also
//! through `hasMenu`, `@graph`) or microdata, else headings followed by
//! lists whose entries carry prices. Shape: `{name?, currency?, sections:
//! [{name, description?, items: [{name, description?, price?{amount,
//! currency?, formatted?}, dietary[]}]}]}`; currencies are ISO 4217 codes.
//!
//! A page whose markup has no menu is read by the operator's language model
//! when one is configured ([`model`]); markup that has a menu costs no model
//! call.
//!
//! No menu → `null` and the warning "No menu found on this page." (through
//! `null` and a warning (`distill_sdk::warning`)). Upstream delegates menus to an external
//! service; this shape is Distill's own (docs/FORMATS.md).

pub mod lists;
pub mod model;
pub mod money;
pub mod schema;

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

/// The warning for a page without a menu.
pub const NO_MENU: &str = "No menu found on this page.";

/// The plugin.
pub struct Menu;

impl FormatPlugin for Menu {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Restaurant menu: sections, items, prices (ISO 4217), dietary tags.")
            .format("menu")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(128)
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        if let Some(menu) = extract(&page.raw_html) {
            return Ok(menu);
        }
        let read = model::read(&page.markdown().unwrap_or_default());
        if let Ok(Some(menu)) = read {
            return Ok(menu);
        }
        distill_sdk::warning(NO_MENU);
        if let Err(why) = read {
            distill_sdk::warning(format!(
                "menu: the page's markup has no menu and the language model could not read one: {why}"
            ));
        }
        Ok(Value::Null)
    }
}

/// The menu in `html`, if any.
pub fn extract(html: &str) -> Option<Value> {
    let doc = dom_query::Document::from(html);
    schema::json_ld(&doc)
        .or_else(|| schema::microdata(&doc))
        .or_else(|| lists::from_lists(&doc))
}

distill_sdk::export_plugin!(format: Menu);

#[cfg(test)]
mod tests;
