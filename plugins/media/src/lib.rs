//! Distill format plugin `media`: the `audio` and `video` formats. It finds
//! the page's primary media ([`discover`], rule in docs/MEDIA.md) and asks
//! the host (`media` capability) to fetch it and produce an MP3 (`audio`) or
//! an MP4 / WebM (`video`); the value is the signed URL the host returns,
//! valid for one hour.
//!
//! Nothing found, or every candidate failing (too large, no such track,
//! unsupported codec, ffmpeg unavailable, ...) → `null` and a warning naming
//! the reason; the rest of the scrape is unaffected.

pub mod discover;

use discover::{Candidate, Wanted};
use distill_sdk::media::{self, MediaKind};
use distill_sdk::{FormatPlugin, Page, PluginError, PluginInfo, Value, json};

/// Candidates tried before giving up (each is a fetch and an ffmpeg run).
pub const MAX_ATTEMPTS: usize = 3;

/// The plugin.
pub struct Media;

impl FormatPlugin for Media {
    fn info() -> PluginInfo {
        PluginInfo::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
            .description("The page's primary audio (MP3) and video (MP4/WebM), at signed links that expire.")
            .format("audio")
            .format("video")
            .capability("media")
            // A scraped URL that is itself a media file arrives as the page's
            // raw HTML (decoded bytes, up to the page cap), twice.
            .memory_limit_mib(512)
    }

    fn render(format: &str, page: &Page, _options: &Value) -> Result<Value, PluginError> {
        let (wanted, kind) = match format {
            "audio" => (Wanted::Audio, MediaKind::Audio),
            "video" => (Wanted::Video, MediaKind::Video),
            other => {
                return Err(PluginError::unsupported(format!(
                    "this plugin does not render the '{other}' format"
                )));
            }
        };
        let found = discover::candidates(page, wanted);
        Ok(match extract_first(format, &found.candidates, kind) {
            Ok(url) => json!(url),
            Err(why) => {
                let why = if found.candidates.is_empty() {
                    found.nothing_found_reason(format)
                } else {
                    why
                };
                distill_sdk::warning(format!("{format}: {why}"));
                Value::Null
            }
        })
    }
}

/// The signed URL of the first candidate the host could extract, or the
/// first failure's reason.
fn extract_first(format: &str, candidates: &[Candidate], kind: MediaKind) -> Result<String, String> {
    let mut first_error = None;
    for candidate in candidates.iter().take(MAX_ATTEMPTS) {
        match media::extract(&candidate.url, kind) {
            Ok(extracted) => return Ok(extracted.url),
            Err(why) => {
                distill_sdk::log::warn(&format!(
                    "{format}: {} from {} failed: {why}",
                    candidate.url, candidate.source
                ));
                first_error.get_or_insert(format!("{why} ({}, {})", candidate.source, candidate.url));
            }
        }
    }
    Err(first_error.unwrap_or_default())
}

distill_sdk::export_plugin!(format: Media);

#[cfg(test)]
mod tests;
