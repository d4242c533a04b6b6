//! What a page's head says it is, read before the head is stripped. A page declares itself
//! an article with Open Graph's `og:type` `article` or a JSON-LD item of an article type
//! (`Article`, `NewsArticle`, `BlogPosting`…), unless its JSON-LD also calls it a
//! collection (`CollectionPage`, `ItemList`: a category page whose CMS writes
//! `og:type article` everywhere). A short post declares itself as much as a long one,
//! while its few paragraphs alone do not read as an article (see [`super::score`]).

use dom_query::{Document, NodeData, NodeRef};

/// schema.org types of one article or post.
const ARTICLE_TYPES: &[&str] = &[
    "AnalysisNewsArticle",
    "Article",
    "BlogPosting",
    "NewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "TechArticle",
];

/// schema.org types of a page that lists other pages.
const COLLECTION_TYPES: &[&str] = &["CollectionPage", "ItemList", "SearchResultsPage"];

/// What the head's elements said so far.
#[derive(Default)]
struct Declared {
    article: bool,
    collection: bool,
}

/// What the page's `<head>` says, read in one walk before the head is stripped.
#[derive(Default)]
pub(crate) struct Head {
    /// The head declares the page an article or a blog post (and not a collection).
    pub(crate) article: bool,
    /// Its writers' biographies from JSON-LD, as [`super::author_notes`] compares them.
    pub(crate) author_notes: Vec<String>,
}

/// Reads the page's `<head>`: its declared type and its writers' biographies.
pub(crate) fn read_head(doc: &Document) -> Head {
    let mut head_facts = Head::default();
    let Some(head) = doc.head() else {
        return head_facts;
    };
    let mut seen = Declared::default();
    for child in head.children() {
        match head_element(&child) {
            HeadElement::OgArticle => seen.article = true,
            HeadElement::JsonLd => {
                let text = child.text();
                read_json_ld(&text, &mut seen);
                super::author_notes::read_json_ld(&text, &mut head_facts.author_notes);
            }
            HeadElement::Other => {}
        }
    }
    head_facts.article = seen.article && !seen.collection;
    head_facts
}

/// Whether the page's `<head>` declares it an article or a blog post (and not a
/// collection).
pub(crate) fn declares_article(doc: &Document) -> bool {
    read_head(doc).article
}

enum HeadElement {
    OgArticle,
    JsonLd,
    Other,
}

fn head_element(node: &NodeRef) -> HeadElement {
    node.query(|n| {
        let NodeData::Element(el) = &n.data else {
            return HeadElement::Other;
        };
        let attr = |name: &str| {
            el.attrs
                .iter()
                .find(|a| &*a.name.local == name)
                .map(|a| a.value.trim())
        };
        match &*el.name.local {
            "meta" => {
                let og_type = attr("property")
                    .or_else(|| attr("name"))
                    .is_some_and(|p| p.eq_ignore_ascii_case("og:type"));
                let article = attr("content")
                    .is_some_and(|c| c.len() >= 7 && c.as_bytes()[..7].eq_ignore_ascii_case(b"article"));
                if og_type && article {
                    HeadElement::OgArticle
                } else {
                    HeadElement::Other
                }
            }
            "script" if attr("type").is_some_and(|t| t.eq_ignore_ascii_case("application/ld+json")) => {
                HeadElement::JsonLd
            }
            _ => HeadElement::Other,
        }
    })
    .unwrap_or(HeadElement::Other)
}

/// Notes the article and collection types a JSON-LD text names (`"@type": "NewsArticle"`,
/// `"@type": ["CollectionPage", …]`: the first name of a list).
fn read_json_ld(json: &str, seen: &mut Declared) {
    let mut rest = json;
    while let Some(at) = rest.find("\"@type\"") {
        rest = &rest[at + "\"@type\"".len()..];
        let value = rest.trim_start().strip_prefix(':').unwrap_or("").trim_start();
        let value = value.strip_prefix('[').unwrap_or(value).trim_start();
        let Some(v) = value.strip_prefix('"') else {
            continue;
        };
        let name = &v[..v.find('"').unwrap_or(0)];
        seen.article |= ARTICLE_TYPES.contains(&name);
        seen.collection |= COLLECTION_TYPES.contains(&name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(head: &str) -> bool {
        declares_article(&Document::from(format!(
            "<html><head>{head}</head><body><p>x</p></body></html>"
        )))
    }

    #[test]
    fn og_type_article_declares_an_article() {
        assert!(declared(r#"<meta property="og:type" content="article">"#));
        assert!(declared(r#"<meta name="og:type" content="Article:post">"#));
        assert!(!declared(r#"<meta property="og:type" content="website">"#));
        assert!(!declared(r#"<meta property="og:title" content="article">"#));
    }

    #[test]
    fn json_ld_article_types_declare_an_article_unless_it_is_a_collection() {
        let ld = |json: &str| format!(r#"<script type="application/ld+json">{json}</script>"#);
        assert!(declared(&ld(
            r#"{"@context":"https://schema.org","@type": "BlogPosting"}"#
        )));
        assert!(declared(&ld(
            r#"{"@graph":[{"@type":"WebPage"},{"@type":["NewsArticle"]}]}"#
        )));
        assert!(!declared(&ld(r#"{"@type":"WebPage","name":"Article"}"#)));
        let collection = format!(
            r#"<meta property="og:type" content="article">{}"#,
            ld(r#"{"@type": ["CollectionPage"], "mainEntity": {"@type": "ItemList"}}"#)
        );
        assert!(!declared(&collection));
    }
}
