//! A job's working plan, rebuilt from its stored request (so a worker after a
//! restart, or on another server, works the job the same way): scope, key
//! rules, limit, concurrency, pacing, robots and the scrape options.

use super::scope::Scope;
use super::url_norm::KeyRules;
use crate::api::crawl_request::{BatchRequest, CrawlRequest, SitemapMode, WebhookSpec};
use crate::api::extract_request::ExtractRequest;
use crate::api::{ApiError, scrape_request::Catalog};
use crate::jobs::{JobKind, JobRecord};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// How a job is worked.
#[derive(Debug, Clone)]
pub struct Plan {
    pub kind: JobKind,
    /// Crawl only: where links may lead.
    pub scope: Option<Scope>,
    pub rules: KeyRules,
    pub limit: u64,
    pub concurrency: usize,
    /// Pause between two pages of this job.
    pub delay: Duration,
    /// Follow links found on pages (not for batch scrapes or `sitemap: "only"`).
    pub follow_links: bool,
    pub sitemap: SitemapMode,
    pub robots: Option<String>,
    pub scrape_options: Map<String, Value>,
    pub webhook: Option<WebhookSpec>,
    /// The key whose credits the pages spend (the job's `bill_to`).
    pub bill_to: Option<String>,
    /// An extract job's request (its model step: `extract_step`).
    pub extract: Option<Arc<ExtractRequest>>,
}

impl Plan {
    pub fn family(&self) -> &'static str {
        match self.kind {
            JobKind::Crawl => "crawl",
            JobKind::Batch => "batch_scrape",
            JobKind::Extract => "extract",
        }
    }

    /// The plan of `job`; `robots_agent` is the operator's default agent.
    pub fn of(
        job: &JobRecord,
        catalog: &dyn Catalog,
        default_concurrency: usize,
        robots_agent: &str,
    ) -> Result<Plan, ApiError> {
        match job.kind {
            JobKind::Crawl => {
                let r = CrawlRequest::from_json(&job.request, catalog)?;
                let delay = Duration::from_secs_f64(r.delay_s);
                Ok(Plan {
                    kind: JobKind::Crawl,
                    scope: Some(Scope {
                        start: r.url.clone(),
                        include: r.include_paths,
                        exclude: r.exclude_paths,
                        regex_on_full_url: r.regex_on_full_url,
                        max_depth: r.max_discovery_depth,
                        entire_domain: r.crawl_entire_domain,
                        allow_external: r.allow_external_links,
                        allow_subdomains: r.allow_subdomains,
                    }),
                    rules: KeyRules {
                        ignore_query: r.ignore_query_parameters,
                        similar: r.deduplicate_similar_urls,
                    },
                    limit: r.limit,
                    // As upstream: a delay makes the crawl sequential.
                    concurrency: if delay.is_zero() {
                        r.max_concurrency.unwrap_or(default_concurrency)
                    } else {
                        1
                    },
                    delay,
                    follow_links: r.sitemap != SitemapMode::Only,
                    sitemap: r.sitemap,
                    robots: (!r.ignore_robots_txt)
                        .then(|| r.robots_user_agent.unwrap_or_else(|| robots_agent.to_string())),
                    scrape_options: r.scrape_options,
                    webhook: r.webhook,
                    bill_to: job.bill_to.clone(),
                    extract: None,
                })
            }
            JobKind::Batch => {
                let r = BatchRequest::from_json(&job.request, catalog)?;
                Ok(Plan {
                    kind: JobKind::Batch,
                    scope: None,
                    rules: KeyRules::default(),
                    limit: u64::MAX,
                    concurrency: r.max_concurrency.unwrap_or(default_concurrency),
                    delay: Duration::ZERO,
                    follow_links: false,
                    sitemap: SitemapMode::Skip,
                    robots: None,
                    scrape_options: r.scrape_options,
                    webhook: r.webhook,
                    bill_to: job.bill_to.clone(),
                    extract: None,
                })
            }
            JobKind::Extract => {
                let r = ExtractRequest::from_json(&job.request, catalog)?;
                Ok(Plan {
                    kind: JobKind::Extract,
                    scope: None,
                    rules: KeyRules::default(),
                    limit: u64::MAX,
                    concurrency: default_concurrency,
                    delay: Duration::ZERO,
                    follow_links: false,
                    sitemap: SitemapMode::Skip,
                    robots: None,
                    scrape_options: r.scrape_options.clone(),
                    webhook: None,
                    bill_to: job.bill_to.clone(),
                    extract: Some(Arc::new(r)),
                })
            }
        }
    }
}
