//! Sitemaps: `<urlset>` pages and `<sitemapindex>` indexes (XML, optionally
//! gzip-compressed), fetched from robots.txt's `Sitemap:` lines and
//! `/sitemap.xml`. Indexes are followed to [`MAX_INDEX_DEPTH`], at most
//! [`MAX_SITEMAPS`] files and [`MAX_SITEMAP_BYTES`] per file after
//! decompression (a gzip bomb stops there).

use super::fetcher::RawFetcher;
use flate2::read::GzDecoder;
use std::io::Read;
use url::Url;

pub const MAX_SITEMAPS: usize = 64;
pub const MAX_INDEX_DEPTH: usize = 3;
pub const MAX_SITEMAP_BYTES: u64 = 50 << 20;

/// What one sitemap file holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Page URLs (`<urlset>`).
    pub pages: Vec<String>,
    /// Further sitemaps (`<sitemapindex>`).
    pub sitemaps: Vec<String>,
}

/// Gunzips when the bytes start with the gzip magic; caps the size.
pub fn decompress(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = String::new();
        GzDecoder::new(bytes)
            .take(MAX_SITEMAP_BYTES)
            .read_to_string(&mut out)
            .ok()?;
        Some(out)
    } else {
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Reads `<loc>` values; an index's go to `sitemaps`, a urlset's to `pages`.
/// CDATA sections are accepted. Text that is not a sitemap yields nothing.
pub fn parse(xml: &str) -> Parsed {
    let is_index = xml.contains("<sitemapindex") || xml.contains(":sitemapindex");
    let mut locs = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<loc>").or_else(|| rest.find(":loc>")) {
        let after = &rest[start..];
        let open_end = after.find('>').map(|i| i + 1).unwrap_or(after.len());
        let body = &after[open_end..];
        let Some(close) = body.find("</") else { break };
        let raw = body[..close].trim();
        let raw = raw
            .strip_prefix("<![CDATA[")
            .and_then(|r| r.strip_suffix("]]>"))
            .unwrap_or(raw);
        let loc = unescape(raw.trim());
        if !loc.is_empty() {
            locs.push(loc);
        }
        rest = &body[close..];
    }
    if is_index {
        Parsed {
            pages: Vec::new(),
            sitemaps: locs,
        }
    } else {
        Parsed {
            pages: locs,
            sitemaps: Vec::new(),
        }
    }
}

/// Every page URL reachable from `roots` (sitemap URLs), following indexes.
/// Stops at `max_urls`. Unreachable or malformed files are skipped.
pub async fn collect(fetcher: &RawFetcher, roots: Vec<Url>, max_urls: usize) -> Vec<String> {
    let mut pages = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut frontier: std::collections::VecDeque<(Url, usize)> = roots.into_iter().map(|u| (u, 0)).collect();
    let mut files = 0;
    while let Some((url, depth)) = frontier.pop_front() {
        if files >= MAX_SITEMAPS || pages.len() >= max_urls || !seen.insert(url.to_string()) {
            continue;
        }
        files += 1;
        let Some(body) = fetcher.get_ok(&url).await else {
            continue;
        };
        let Some(text) = decompress(&body) else { continue };
        let parsed = parse(&text);
        pages.extend(parsed.pages.into_iter().take(max_urls - pages.len()));
        if depth < MAX_INDEX_DEPTH {
            for s in parsed.sitemaps {
                if let Ok(u) = url.join(&s) {
                    frontier.push_back((u, depth + 1));
                }
            }
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    #[test]
    fn urlset_and_index() {
        let set = "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
            <url><loc>http://a.test/x?a=1&amp;b=2</loc><lastmod>2024</lastmod></url>\
            <url><loc> <![CDATA[http://a.test/y]]> </loc></url></urlset>";
        assert_eq!(
            parse(set).pages,
            vec!["http://a.test/x?a=1&b=2", "http://a.test/y"]
        );
        let index = "<sitemapindex><sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap></sitemapindex>";
        let p = parse(index);
        assert!(p.pages.is_empty());
        assert_eq!(p.sitemaps, vec!["http://a.test/s1.xml.gz"]);
        assert_eq!(parse("<html>not a sitemap</html>"), Parsed::default());
    }

    #[test]
    fn gzip() {
        let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
        enc.write_all(b"<urlset><url><loc>http://a.test/z</loc></url></urlset>")
            .unwrap();
        let text = decompress(&enc.finish().unwrap()).unwrap();
        assert_eq!(parse(&text).pages, vec!["http://a.test/z"]);
    }
}
