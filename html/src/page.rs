//! The crate's entry points: [`ParsedPage`] (parse once, then metadata and any number of
//! cleanings) and [`CleanedHtml`] (the `html` format plus links, images and emptiness).

use dom_query::{Document, NodeData};
use serde_json::{Map, Value};
use url::Url;

use crate::dom::{Walker, is, local_name};
pub use crate::user_selectors::CleanError;
use crate::{clean, dom, images, links, main_content, metadata, urls, user_selectors};

/// Options of one cleaning pass (Firecrawl's `onlyMainContent`, `includeTags`, `excludeTags`).
#[derive(Debug, Clone, Copy, Default)]
pub struct CleanOptions<'a> {
    pub only_main_content: bool,
    pub include_tags: &'a [String],
    pub exclude_tags: &'a [String],
}

/// A page refused by [`ParsedPage::parse_html_within`]: its tree would hold more than
/// `most` elements and comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyNodes {
    pub most: usize,
}

impl std::fmt::Display for TooManyNodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the page's markup makes more than {} elements and comments",
            self.most
        )
    }
}

impl std::error::Error for TooManyNodes {}

/// A page parsed once; cleaning works on copies, so it can be cleaned repeatedly.
pub struct ParsedPage {
    doc: Document,
    page_url: Url,
    base: Url,
    /// Whether the page has any `<base>` element (else cleaned copies cannot have one either).
    has_base: bool,
    /// Which kinds of script-deferred content the page holds the makings of (revealing
    /// the others, walks of the body, is skipped: it would change nothing).
    deferred: main_content::Deferred,
}

impl ParsedPage {
    /// Parses the raw HTML once. `page_url` is the final URL (after redirects).
    pub fn parse(raw_html: &str, page_url: &Url) -> ParsedPage {
        ParsedPage::parsed(dom::parse_noting(raw_html), page_url)
    }

    /// [`ParsedPage::parse`] of a page already in the parse's buffer ([`crate::PageText`]):
    /// the same page, without copying the HTML first.
    pub fn parse_html(html: &crate::PageHtml, page_url: &Url) -> ParsedPage {
        ParsedPage::parsed(dom::parse_html_noting(html, usize::MAX), page_url)
    }

    /// [`ParsedPage::parse_html`], refusing a page whose tree would hold more than `most`
    /// elements and comments (markup can multiply: a few hundred formatting elements left
    /// open are made again in every paragraph after them). The parse stops there, so the
    /// memory it took is bounded by `most`, not by what the markup would make.
    pub fn parse_html_within(
        html: &crate::PageHtml,
        page_url: &Url,
        most: usize,
    ) -> Result<ParsedPage, TooManyNodes> {
        let (doc, seen) = dom::parse_html_noting(html, most);
        if seen.over {
            return Err(TooManyNodes { most });
        }
        Ok(ParsedPage::parsed((doc, seen), page_url))
    }

    fn parsed((doc, seen): (Document, dom::Seen), page_url: &Url) -> ParsedPage {
        // Without a `<base>` tag there is no `base` element to look for (no walk of the tree).
        let (base, has_base) = if seen.base {
            urls::document_base(&doc, page_url)
        } else {
            (page_url.clone(), false)
        };
        let deferred = main_content::deferred_possible(&doc, &seen);
        ParsedPage {
            doc,
            page_url: page_url.clone(),
            base,
            has_base,
            deferred,
        }
    }

    /// Metadata of the full page (compat notes §1.10), without engine fields.
    pub fn metadata(&self) -> Map<String, Value> {
        metadata::extract(&self.doc, &self.page_url)
    }

    /// Development aid: the main-content extractor's view of the page (after the same
    /// stripping as [`ParsedPage::clean`]), listing elements whose score is at least `min_abs`.
    #[doc(hidden)]
    pub fn explain_main_content(&self, min_abs: f32) -> String {
        let doc = self.doc.clone();
        let declared_article = main_content::declares_article(&doc);
        main_content::reveal_deferred(&doc);
        clean::strip_unwanted(&doc);
        main_content::explain(&doc, declared_article, min_abs)
    }

    /// Produces the cleaned `html` format (compat notes §1.7, §1.6).
    pub fn clean(&self, opts: &CleanOptions) -> Result<CleanedHtml, CleanError> {
        clean_doc(
            self.doc.clone(),
            &self.page_url,
            &self.base,
            self.has_base,
            self.deferred,
            opts,
        )
    }

    /// [`ParsedPage::clean`] on the parsed document itself, when the page is
    /// not needed afterwards: no copy of the tree (a page's largest
    /// allocation after the parse).
    pub fn into_clean(self, opts: &CleanOptions) -> Result<CleanedHtml, CleanError> {
        let ParsedPage {
            doc,
            page_url,
            base,
            has_base,
            deferred,
        } = self;
        clean_doc(doc, &page_url, &base, has_base, deferred, opts)
    }
}

/// Cleans `doc` (a page's parsed document, or a copy of it) in place.
fn clean_doc(
    doc: Document,
    page_url: &Url,
    page_base: &Url,
    has_base: bool,
    deferred: main_content::Deferred,
    opts: &CleanOptions,
) -> Result<CleanedHtml, CleanError> {
    let include = user_selectors::compile(opts.include_tags)?;
    let exclude = user_selectors::compile(opts.exclude_tags)?;
    if !include.is_empty() {
        clean::apply_include(&doc, &include);
    }
    let whole_page_main_content = opts.only_main_content && include.is_empty();
    // What the head says the page is (and who wrote it), read before the head goes.
    let head = if whole_page_main_content {
        main_content::read_head(&doc)
    } else {
        main_content::Head::default()
    };
    if whole_page_main_content && deferred.any() {
        // Script shells keep content in `<noscript>` or hidden streamed segments.
        main_content::reveal_deferred_possible(&doc, deferred);
    }
    if whole_page_main_content && exclude.is_empty() {
        // The stripping in the main-content walk (nothing between them reads the document).
        main_content::strip_and_remove_non_main(&doc, head.article, &head.author_notes);
    } else {
        clean::strip_unwanted(&doc);
        clean::apply_exclude(&doc, &exclude);
        if whole_page_main_content {
            main_content::strip_and_remove_non_main(&doc, head.article, &head.author_notes);
        } else if opts.only_main_content {
            main_content::remove_non_main_fragment(&doc);
        }
    }
    clean::rewrite_media_and_links(&doc, page_base);
    // Like upstream, links and images resolve against a `<base href>` that survived
    // cleaning (normally none, as `<head>` is gone), else the page URL.
    let base = if has_base {
        urls::document_base(&doc, page_url).0
    } else {
        page_url.clone()
    };
    Ok(CleanedHtml {
        doc,
        page_url: page_url.clone(),
        base,
    })
}

/// A cleaned document.
pub struct CleanedHtml {
    doc: Document,
    page_url: Url,
    base: Url,
}

impl CleanedHtml {
    /// The cleaned tree (tests compare what is written from it two ways).
    #[cfg(test)]
    pub(crate) fn document(&self) -> &Document {
        &self.doc
    }

    /// Serialized cleaned document: `<!DOCTYPE …>` (if the page had one) + `<html><body>…`
    /// (no `<head>`); with include tags, `<html><body><div>…matches…</div></body></html>`.
    pub fn html(&self) -> String {
        dom::html_string(&self.doc)
    }

    /// The cleaned document as a token stream (`ops`, `text`; the format of
    /// `distill_page_tokens`): what a plugin would parse from [`Self::html`].
    pub fn tokens(&self) -> (Vec<u8>, String) {
        crate::token_stream::encode(&self.doc)
    }

    /// Links of the cleaned document (compat notes §1.8).
    pub fn links(&self) -> Vec<String> {
        links::extract(&self.doc, &self.base)
    }

    /// Images of the cleaned document (compat notes §1.9), in document order.
    pub fn images(&self) -> Vec<String> {
        images::extract(&self.doc, &self.page_url, &self.base)
    }

    /// False when the cleaned body has no non-whitespace text and no `<img>`.
    pub fn has_content(&self) -> bool {
        let tree = &self.doc.tree;
        let root = self.doc.body().unwrap_or_else(|| self.doc.root()).id;
        Walker::new(tree, root).any(|id| {
            tree.query_node(&id, |n| match &n.data {
                NodeData::Text { contents } => contents.chars().any(|c| !c.is_whitespace()),
                NodeData::Element(el) => is(el, &local_name!("img")),
                _ => false,
            })
            .unwrap_or(false)
        })
    }
}
