//! The `media` capability behind the `audio` and `video` formats: fetch the
//! media file a plugin chose (through the address guard, with a size cap and
//! the request's deadline), extract its audio to MP3 or keep / remux its
//! video ([`transcode`], Debian's ffmpeg as a limited child process in a
//! private temporary directory), store the result ([`signed_store`]) and
//! return a signed link that expires (docs/MEDIA.md).

pub mod child;
pub mod signed_store;
pub mod signing;
pub mod transcode;

use crate::fetch::FetchError;
use crate::fetch::http::{HttpFetcher, HttpGet};
use crate::fetch::target_guard::TargetGuard;
use child::ChildLimits;
use signed_store::SignedStore;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
pub use transcode::{MediaKind, Tools};

/// What the service needs from the configuration.
pub struct MediaSettings {
    /// Largest media file fetched, bytes.
    pub max_bytes: u64,
    /// ffmpeg's address-space cap, bytes.
    pub ffmpeg_memory_bytes: u64,
    /// The ffmpeg binary (ffprobe is taken from the same directory).
    pub ffmpeg: PathBuf,
    /// Where private temporary directories are made.
    pub tmp_dir: PathBuf,
    pub guard: TargetGuard,
    pub user_agent: String,
}

/// A stored file and its link.
#[derive(Debug, Clone)]
pub struct Extracted {
    pub url: String,
    pub content_type: &'static str,
    pub size: u64,
    pub expires_in_secs: u64,
}

/// The `media` capability.
pub struct MediaService {
    fetcher: HttpFetcher,
    store: Arc<SignedStore>,
    /// `Err` says why ffmpeg cannot be used.
    tools: Result<Tools, String>,
    settings: MediaSettings,
}

impl MediaService {
    pub fn new(settings: MediaSettings, store: Arc<SignedStore>) -> anyhow::Result<Arc<Self>> {
        let fetcher = HttpFetcher::new(settings.guard, settings.max_bytes, &settings.user_agent)?;
        let tools = find_tools(&settings.ffmpeg);
        if let Err(why) = &tools {
            tracing::warn!("the audio and video formats cannot extract media: {why}");
        }
        std::fs::create_dir_all(&settings.tmp_dir)
            .map_err(|e| anyhow::anyhow!("creating {}: {e}", settings.tmp_dir.display()))?;
        Ok(Arc::new(MediaService {
            fetcher,
            store,
            tools,
            settings,
        }))
    }

    /// The signed store (for the route that serves it).
    pub fn store(&self) -> &Arc<SignedStore> {
        &self.store
    }

    /// Fetches `url` and produces `kind` from it before `deadline`. The error
    /// is one sentence naming the reason, for the response's warning.
    pub async fn extract(&self, url: &str, kind: MediaKind, deadline: Instant) -> Result<Extracted, String> {
        let tools = self.tools.as_ref().map_err(Clone::clone)?;
        let url = url::Url::parse(url)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| "the media URL is not an absolute http(s) URL".to_string())?;
        let fetched = self
            .fetcher
            .get(HttpGet {
                url: &url,
                headers: &[],
                skip_tls_verification: false,
                deadline,
            })
            .await
            .map_err(|e| self.fetch_failure(e))?;
        if !(200..300).contains(&fetched.status) {
            return Err(format!("the media URL answered HTTP {}", fetched.status));
        }
        if fetched.body.is_empty() {
            return Err("the media file is empty".to_string());
        }
        let scratch = Scratch::new(&self.settings.tmp_dir)
            .map_err(|e| format!("no temporary directory for the media: {e}"))?;
        std::fs::write(scratch.path().join(transcode::INPUT), &fetched.body)
            .map_err(|e| format!("writing the media file failed: {e}"))?;
        drop(fetched);
        let limits = ChildLimits {
            memory_bytes: self.settings.ffmpeg_memory_bytes,
            // Remuxing never grows a file much; MP3 of a video is smaller.
            max_file_bytes: self.settings.max_bytes.saturating_mul(2).max(1 << 20),
            deadline,
        };
        let produced = transcode::produce(tools, scratch.path(), kind, limits).await?;
        let bytes =
            std::fs::read(&produced.path).map_err(|e| format!("reading the extracted media failed: {e}"))?;
        if bytes.is_empty() {
            return Err("ffmpeg produced an empty file".to_string());
        }
        let link = self
            .store
            .put(&bytes, produced.ext)
            .map_err(|e| format!("storing the extracted media failed: {e}"))?;
        let content_type = signed_store::content_type_for(produced.ext).unwrap_or("application/octet-stream");
        Ok(Extracted {
            url: link.url,
            content_type,
            size: bytes.len() as u64,
            expires_in_secs: link.expires_in_secs,
        })
    }

    fn fetch_failure(&self, e: FetchError) -> String {
        match e {
            FetchError::TooLarge { .. } => format!(
                "the media file is larger than the {} MiB limit",
                self.settings.max_bytes / (1 << 20)
            ),
            FetchError::Timeout { .. } => {
                "fetching the media did not finish within the request's time".into()
            }
            FetchError::Blocked { reason, .. } => format!("the media URL is not allowed: {reason}"),
            other => format!("fetching the media failed: {other}"),
        }
    }
}

/// ffmpeg and ffprobe, when both are executable files.
pub fn find_tools(ffmpeg: &Path) -> Result<Tools, String> {
    let ffprobe = ffmpeg.with_file_name("ffprobe");
    for tool in [ffmpeg, ffprobe.as_path()] {
        let executable = std::fs::metadata(tool).is_ok_and(|m| {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        });
        if !executable {
            return Err(format!(
                "ffmpeg is not available on this server ({} is missing; install Debian's ffmpeg or set DISTILL_FFMPEG)",
                tool.display()
            ));
        }
    }
    Ok(Tools {
        ffmpeg: ffmpeg.to_path_buf(),
        ffprobe,
    })
}

/// A private temporary directory (mode 0700), removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(parent: &Path) -> std::io::Result<Scratch> {
        let path = parent.join(format!("media-{}", uuid::Uuid::new_v4().simple()));
        let mut builder = std::fs::DirBuilder::new();
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&path)?;
        Ok(Scratch(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
