//! What a finished scrape or parse costs in credits (spec, docs/OPERATORS.md):
//! 1 per scrape; a PDF converted by the pdf parser 1 per page (`numPages`);
//! a PDF returned raw (`parsers: []`) a flat 1; lockdown 5 on a cache hit and
//! 1 on a miss; a page fetched through the enhanced proxy pool 5 (`auto` when
//! its enhanced retry succeeded; not on a cache hit); the `json` format (or
//! changeTracking's json mode) 5. Other failures cost nothing. The same
//! rules bill `/v2/scrape`, `/v2/parse`, their MCP tools and every page a
//! crawl or batch scrape stores.

use super::PipelineError;
use crate::api::ScrapeOptions;
use crate::cache::entry::DocFacts;
use serde_json::Value;

/// The credits a finished request costs.
pub fn cost(opts: &ScrapeOptions, outcome: &Result<Value, PipelineError>) -> u64 {
    let data = match outcome {
        Ok(data) => data,
        Err(PipelineError::LockdownCacheMiss) => return 1,
        Err(_) => return 0,
    };
    let metadata = &data["metadata"];
    let hit = metadata["cacheState"] == "hit";
    // The enhanced pool (asked for, or `auto`'s retry that succeeded); a
    // cache hit used no proxy.
    let enhanced = metadata["proxyUsed"] == "enhanced" && !hit;
    charge(opts, DocFacts::of(data), hit, enhanced)
}

/// The credits a document served from the cache costs, from the facts
/// stored with it (the same rules, without parsing the document).
pub fn cost_of_hit(opts: &ScrapeOptions, facts: DocFacts) -> u64 {
    charge(opts, facts, true, false)
}

fn charge(opts: &ScrapeOptions, facts: DocFacts, cache_hit: bool, enhanced_proxy: bool) -> u64 {
    let mut credits = u64::from(facts.pages.max(1));
    if opts.lockdown && cache_hit {
        credits = credits.max(5);
    }
    if enhanced_proxy {
        credits = credits.max(5);
    }
    let wants_model_json = opts.formats.iter().any(|f| {
        f.name == "json"
            || f.name == "changeTracking"
                && f.options
                    .get("modes")
                    .and_then(Value::as_array)
                    .is_some_and(|m| m.iter().any(|x| x == "json"))
    });
    if wants_model_json {
        credits = credits.max(5);
    }
    credits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ScrapeRequest;
    use serde_json::json;

    fn opts(body: Value) -> ScrapeOptions {
        ScrapeRequest::from_json(&body, &|name: &str| name == "json")
            .unwrap()
            .options
    }

    fn page(metadata: Value) -> Result<Value, PipelineError> {
        Ok(json!({ "markdown": "x", "metadata": metadata }))
    }

    #[test]
    fn billing_rules() {
        let plain = opts(json!({"url": "https://a.b"}));
        assert_eq!(cost(&plain, &page(json!({"contentType": "text/html"}))), 1);
        let pdf = json!({"contentType": "application/pdf", "numPages": 7});
        assert_eq!(cost(&plain, &page(pdf)), 7, "1 per PDF page");
        // numPages of something not a PDF is not billed per page.
        assert_eq!(
            cost(&plain, &page(json!({"contentType": "text/html", "numPages": 7}))),
            1
        );
        assert_eq!(
            cost(&plain, &page(json!({"contentType": "application/pdf"}))),
            1,
            "raw PDF: flat 1"
        );
        let lockdown = opts(json!({"url": "https://a.b", "lockdown": true}));
        assert_eq!(cost(&lockdown, &page(json!({"cacheState": "hit"}))), 5);
        assert_eq!(cost(&lockdown, &Err(PipelineError::LockdownCacheMiss)), 1);
        assert_eq!(
            cost(&plain, &Err(PipelineError::NoCachedData)),
            0,
            "failures are free"
        );
        assert_eq!(cost(&plain, &page(json!({"proxyUsed": "enhanced"}))), 5);
        assert_eq!(cost(&plain, &page(json!({"proxyUsed": "basic"}))), 1);
        let stored = json!({"proxyUsed": "enhanced", "cacheState": "hit"});
        assert_eq!(cost(&plain, &page(stored)), 1, "a cache hit used no proxy");
        let json_format = opts(json!({"url": "https://a.b", "formats": [{"type": "json", "prompt": "p"}]}));
        assert_eq!(cost(&json_format, &page(json!({}))), 5);
        // A hit billed from its stored facts follows the same rules.
        let facts = DocFacts { pages: 3 };
        assert_eq!(cost_of_hit(&plain, facts), 3);
        assert_eq!(cost_of_hit(&lockdown, facts), 5);
        assert_eq!(cost_of_hit(&json_format, DocFacts { pages: 1 }), 5);
    }
}
