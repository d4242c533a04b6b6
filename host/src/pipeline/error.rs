//! Why a scrape or parse failed, in the pipeline's own terms. The server maps
//! these to HTTP statuses and upstream's error codes in one place
//! (`server::error_map`); the pipeline itself knows nothing of HTTP.

use crate::fetch::FetchError;
use crate::fetch::select::SelectError;
use crate::plugins::PluginCallError;

/// Where a document came from: an upload (the client's file) or a scraped
/// URL (the site's file). Decides whose fault a conversion failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Upload,
    Scrape,
}

/// A failed scrape or parse.
#[derive(Debug)]
pub enum PipelineError {
    /// A requested format is served by no loaded plugin.
    FormatUnavailable { format: String },
    /// `zeroDataRetention` with a format that stores files (audio, video).
    StoresMedia { format: String },
    /// No engine can serve the request (e.g. actions without a browser).
    NoEngine(SelectError),
    /// `lockdown`: only the cache may answer, and it has nothing.
    LockdownCacheMiss,
    /// `minAge`: only the cache may answer, and it has nothing.
    NoCachedData,
    /// Fetching the page failed.
    Fetch { error: FetchError, timeout_ms: u64 },
    /// An `includeTags` / `excludeTags` selector is not valid CSS.
    InvalidSelector(String),
    /// An upload has no converter for its extension.
    NoConverter { extension: String },
    /// A request's options for a converter do not match what it declares.
    ConverterOptions { file: String, message: String },
    /// A format plugin failed.
    Format {
        format: String,
        error: PluginCallError,
        timeout_ms: u64,
    },
    /// A format plugin returned something that is not JSON.
    FormatOutput {
        plugin: String,
        format: String,
        message: String,
    },
    /// Format plugins consume each other in a circle.
    FormatCycle { formats: Vec<String> },
    /// A converter failed on a document.
    Convert {
        file: String,
        origin: Origin,
        error: PluginCallError,
        timeout_ms: u64,
    },
    /// The request's timeout passed while `stage` waited its turn.
    Timeout { stage: &'static str, timeout_ms: u64 },
    /// The page's markup makes more than `most` elements and comments
    /// (`DISTILL_MAX_PAGE_NODES`).
    TooManyNodes { most: usize },
    /// A bug: something panicked. The id is in the log.
    Internal { error_id: String },
}

impl PipelineError {
    /// Logs `what` with a fresh error id and returns the internal error.
    pub fn internal(what: impl std::fmt::Display) -> Self {
        let error_id = uuid::Uuid::now_v7().to_string();
        tracing::error!(error_id = %error_id, "{what}");
        PipelineError::Internal { error_id }
    }
}
