//! Distill format plugin `product`: the product a page describes, found
//! deterministically (no model) in its structured data — JSON-LD first
//! (`@graph` and `mainEntity` included), then microdata (exactly one
//! `schema.org/Product` item), then OpenGraph price tags — in upstream
//! Firecrawl's shape: `{title, brand?, category?, url, description?,
//! images?, price?, originalPrice?, availability?, variants}`.
//!
//! The fields the markup lacks among brand, description, price and
//! availability are asked of the operator's language model, when one is
//! configured ([`fill`]); markup that has them all costs no model call.
//!
//! A page without a product gives `null` and the warning "No product found on
//! this page; it does not appear to be a product page." (through the
//! `null` with a warning the host joins into `warning`).

pub mod fill;
pub mod shape;
pub mod sources;

use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value};

/// Upstream's warning for a page without a product.
pub const NO_PRODUCT: &str = "No product found on this page; it does not appear to be a product page.";

/// The plugin.
pub struct Product;

impl FormatPlugin for Product {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("Product data from JSON-LD, microdata or OpenGraph tags; the model fills gaps.")
            .format("product")
            .consumes("markdown")
            .capability("llm")
            .memory_limit_mib(128)
    }

    fn render(_format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let Some(mut product) = extract(&page.raw_html, &page.final_url) else {
            distill_sdk::warning(NO_PRODUCT);
            return Ok(Value::Null);
        };
        fill::fill(&mut product, &page.markdown().unwrap_or_default());
        Ok(product)
    }
}

/// The product in `html` (a page at `page_url`), if any.
pub fn extract(html: &str, page_url: &str) -> Option<Value> {
    let doc = dom_query::Document::from(html);
    let node = sources::json_ld(&doc)
        .or_else(|| sources::microdata(&doc))
        .or_else(|| sources::open_graph(&doc))?;
    Some(shape::product(&node, page_url))
}

distill_sdk::export_plugin!(format: Product);

#[cfg(test)]
mod tests;
