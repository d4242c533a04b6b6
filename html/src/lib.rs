//! HTML processing for Distill, matching upstream Firecrawl's behaviour: charset decoding,
//! the cleaned `html` format (include/exclude tags, `onlyMainContent`), metadata, links,
//! images and markdown fix-ups.
//!
//! ```
//! use distill_html::{CleanOptions, ParsedPage};
//! let url = url::Url::parse("https://example.com/post").unwrap();
//! let page = ParsedPage::parse("<title>T</title><nav>menu</nav><p>Hi <a href=/x>x</a></p>", &url);
//! assert_eq!(page.metadata()["title"], "T");
//! let opts = CleanOptions { only_main_content: true, include_tags: &[], exclude_tags: &[] };
//! let cleaned = page.clean(&opts).unwrap();
//! assert_eq!(cleaned.links(), ["https://example.com/x"]);
//! assert!(!cleaned.html().contains("menu"));
//! ```

mod charset;
mod clean;
mod dom;
mod images;
mod line_ends;
mod links;
mod main_content;
mod markdown_fixups;
mod metadata;
mod newlines;
mod page;
mod page_text;
mod srcset;
mod structure;
#[cfg(test)]
mod test_rng;
mod token_stream;
mod tokenizer;
mod tree_builder;
mod urls;
mod user_selectors;

pub use charset::decode_html;
pub use dom::parse_both_serialised;
pub use markdown_fixups::remove_base64_images;
pub use page::{CleanError, CleanOptions, CleanedHtml, ParsedPage, TooManyNodes};
pub use page_text::{PageHtml, PageText};
pub use structure::{parse_both_structure, parse_own_structure};
