//! The `images` format (compat notes §1.9) from the cleaned document: `img` src/data-src/
//! srcset, `picture source[srcset]`, og/twitter/itemprop image metas, icon links,
//! `video[poster]` and inline `background` `url(...)`s — deduplicated in document order.

use std::collections::HashSet;

use dom_query::{Document, Element, NodeId, Tree};
use url::Url;

use crate::dom::{
    DATA_SRC, LocalName, Walker, attr, contains_ignore_ascii_case, is, local_name, with_element,
};
use crate::srcset::candidate_urls;

const META_PROPERTIES: [&str; 3] = ["og:image", "og:image:url", "og:image:secure_url"];
const META_NAMES: [&str; 2] = ["twitter:image", "twitter:image:src"];
const LINK_RELS: [&str; 3] = ["icon", "apple-touch-icon", "image_src"];

/// Upstream's `url(['"]?([^'")]+)['"]?\)` over an inline style, yielding the captured URLs.
pub(crate) fn css_urls(style: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = style[from..].find("url(") {
        let start = from + found + 4;
        from = from + found + 1;
        let rest = &style[start..];
        let body = rest.strip_prefix(['\'', '"']).unwrap_or(rest);
        let len = body.find(['\'', '"', ')']).unwrap_or(body.len());
        if len == 0 {
            continue;
        }
        let after = &body[len..];
        let after = after.strip_prefix(['\'', '"']).unwrap_or(after);
        if after.starts_with(')') {
            out.push(&body[..len]);
            from = style.len() - after.len() + 1;
        }
    }
    out
}

/// Raw image references carried by one element, in attribute order.
fn element_refs(tree: &Tree, id: NodeId, el: &Element, out: &mut Vec<String>) {
    let mut push = |v: &str| out.push(v.to_string());
    let get = |name: &LocalName| attr(el, name);
    let srcset_urls = || get(&local_name!("srcset")).into_iter().flat_map(candidate_urls);
    if is(el, &local_name!("img")) {
        get(&local_name!("src")).into_iter().for_each(&mut push);
        get(&DATA_SRC).into_iter().for_each(&mut push);
        srcset_urls().for_each(&mut push);
    } else if is(el, &local_name!("source")) {
        if has_picture_ancestor(tree, id) {
            srcset_urls().for_each(&mut push);
        }
    } else if is(el, &local_name!("meta")) {
        let is_image = get(&local_name!("property")).is_some_and(|p| META_PROPERTIES.contains(&p))
            || get(&local_name!("name")).is_some_and(|n| META_NAMES.contains(&n))
            || get(&local_name!("itemprop")) == Some("image");
        if is_image {
            get(&local_name!("content")).into_iter().for_each(&mut push);
        }
    } else if is(el, &local_name!("link")) {
        let rel = get(&local_name!("rel")).unwrap_or_default();
        if LINK_RELS.iter().any(|r| contains_ignore_ascii_case(rel, r)) {
            get(&local_name!("href")).into_iter().for_each(&mut push);
        }
    } else if is(el, &local_name!("video")) {
        get(&local_name!("poster")).into_iter().for_each(&mut push);
    }
    if let Some(style) = get(&local_name!("style")).filter(|s| s.contains("background")) {
        css_urls(style)
            .into_iter()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .for_each(push);
    }
}

fn has_picture_ancestor(tree: &Tree, id: NodeId) -> bool {
    tree.ancestors_of(&id, None).iter().any(|a| a.has_name("picture"))
}

/// Upstream `resolve_image_url` + final filter; `None` drops the reference.
fn resolve(src: &str, page_url: &Url, base: &Url) -> Option<String> {
    let resolved = if src.starts_with("data:")
        || src.starts_with("blob:")
        || src.starts_with("http://")
        || src.starts_with("https://")
    {
        src.to_string()
    } else if src.starts_with("//") {
        page_url.join(src).ok()?.into()
    } else {
        base.join(src).ok()?.into()
    };
    let keep = !resolved.is_empty()
        && !resolved.to_lowercase().starts_with("javascript:")
        && (resolved.starts_with("data:") || resolved.starts_with("blob:") || Url::parse(&resolved).is_ok());
    keep.then_some(resolved)
}

/// All image URLs of `doc`: protocol-relative ones against `page_url`, others against `base`.
pub(crate) fn extract(doc: &Document, page_url: &Url, base: &Url) -> Vec<String> {
    let tree = &doc.tree;
    let mut refs = Vec::new();
    for id in Walker::new(tree, doc.root().id) {
        with_element(tree, id, |el| element_refs(tree, id, el, &mut refs));
    }
    let mut seen = HashSet::new();
    refs.iter()
        .filter_map(|r| resolve(r, page_url, base))
        .filter(|u| seen.insert(u.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn page() -> Url {
        Url::parse("https://example.com/a/page").unwrap()
    }

    #[test]
    fn css_url_capture_matches_upstream_regex() {
        assert_eq!(
            css_urls("background: url('a.png') no-repeat, url(\"b.png\"), url(c.png)"),
            ["a.png", "b.png", "c.png"]
        );
        assert_eq!(css_urls("background:url('')"), Vec::<&str>::new());
        assert_eq!(css_urls("background:url(x'y)"), Vec::<&str>::new());
        assert_eq!(css_urls("url(url(z.png))"), ["url(z.png"]);
    }

    #[test]
    fn collects_every_source_in_document_order() {
        let doc = parse(
            "<head><link rel='Shortcut Icon' href='/fav.ico'><meta property='og:image' content='/og.png'></head>\
             <body><img src='/1.png' data-src='2.png' srcset='3.png 1x, //cdn.example/4.png 2x'>\
             <picture><source srcset='5.webp 1x, 6.webp 2x'><img src='/1.png'></picture>\
             <source srcset='not-in-picture.png'>\
             <video poster='/poster.jpg'></video>\
             <div style='background-image: url(\"/bg.jpg\")'></div>\
             <img src='data:image/gif;base64,R0l'><img src='blob:https://example.com/x'>\
             <img src='javascript:alert(1)'><img src='http://[bad'></body>",
        );
        assert_eq!(
            extract(&doc, &page(), &page()),
            [
                "https://example.com/fav.ico",
                "https://example.com/og.png",
                "https://example.com/1.png",
                "https://example.com/a/2.png",
                "https://example.com/a/3.png",
                "https://cdn.example/4.png",
                "https://example.com/a/5.webp",
                "https://example.com/a/6.webp",
                "https://example.com/poster.jpg",
                "https://example.com/bg.jpg",
                "data:image/gif;base64,R0l",
                "blob:https://example.com/x",
            ]
        );
    }

    #[test]
    fn relative_uses_base_and_protocol_relative_uses_page() {
        let base = Url::parse("http://static.example/img/").unwrap();
        let doc = parse("<img src='x.png'><img src='//cdn.example/y.png'>");
        assert_eq!(
            extract(&doc, &page(), &base),
            ["http://static.example/img/x.png", "https://cdn.example/y.png"]
        );
    }
}
