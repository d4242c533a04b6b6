//! [`MediaStore`]: files the server produced for a response (screenshots,
//! PDFs of actions), kept in `DATA_DIR/media` and served by `GET /v2/media/{id}`.
//!
//! Ids are 128 random bits (UUID v4, hex) plus the file's extension, so they
//! cannot be guessed; a name that is not exactly of that shape is refused
//! before any file is touched. The directory is opened once through cap-std:
//! every access stays inside it. Files expire after [`MEDIA_TTL`] and a sweep
//! removes them.

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

/// How long a media file is served.
pub const MEDIA_TTL: Duration = Duration::from_secs(24 * 3600);

/// How often expired files are removed.
pub const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// The kinds of file the store holds: extension and Content-Type.
const KINDS: &[(&str, &str)] = &[
    ("png", "image/png"),
    ("jpeg", "image/jpeg"),
    ("pdf", "application/pdf"),
];

/// Files served under `/v2/media/`.
pub struct MediaStore {
    dir: Dir,
    /// `http://host:port` as clients reach this server.
    public_base: OnceLock<String>,
}

impl MediaStore {
    /// Opens (creating) `dir`; URLs are built on `public_base` (else on the
    /// address given to [`MediaStore::bound_to`]).
    pub fn open(dir: &Path, public_base: Option<&str>) -> anyhow::Result<Arc<MediaStore>> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("creating the media dir {}: {e}", dir.display()))?;
        let dir = Dir::open_ambient_dir(dir, ambient_authority())
            .map_err(|e| anyhow::anyhow!("opening the media dir {}: {e}", dir.display()))?;
        let base = OnceLock::new();
        if let Some(b) = public_base {
            let _ = base.set(b.trim_end_matches('/').to_string());
        }
        Ok(Arc::new(MediaStore {
            dir,
            public_base: base,
        }))
    }

    /// The server's bound address, used for URLs when no public URL was configured.
    pub fn bound_to(&self, addr: std::net::SocketAddr) {
        let host = if addr.ip().is_unspecified() {
            std::net::IpAddr::from([127, 0, 0, 1])
        } else {
            addr.ip()
        };
        let _ = self
            .public_base
            .set(format!("http://{}", std::net::SocketAddr::new(host, addr.port())));
    }

    /// `http://host:port` (or the configured public URL) as clients reach
    /// this server; empty before the server is bound.
    pub fn base_url(&self) -> &str {
        self.public_base.get().map(String::as_str).unwrap_or("")
    }

    /// Stores `bytes` as a new file of kind `ext` ("png", "jpeg", "pdf");
    /// returns its public URL.
    pub fn put(&self, bytes: &[u8], ext: &str) -> std::io::Result<String> {
        debug_assert!(KINDS.iter().any(|(e, _)| *e == ext));
        let id = format!("{}.{ext}", uuid::Uuid::new_v4().simple());
        self.dir.write(&id, bytes)?;
        let base = self.public_base.get().map(String::as_str).unwrap_or("");
        Ok(format!("{base}/v2/media/{id}"))
    }

    /// The file named `id` and its Content-Type, unless unknown or expired.
    pub fn get(&self, id: &str) -> Option<(Vec<u8>, &'static str)> {
        let content_type = content_type_of(id)?;
        let meta = self.dir.metadata(id).ok()?;
        if expired(meta.modified().ok()?.into_std(), SystemTime::now()) {
            return None;
        }
        Some((self.dir.read(id).ok()?, content_type))
    }

    /// Removes expired files; returns how many.
    pub fn sweep(&self) -> usize {
        let now = SystemTime::now();
        sweep_dir(&self.dir, |modified| expired(modified, now))
    }

    /// Sweeps every [`SWEEP_EVERY`] for the life of the process.
    pub fn start_sweeper(self: &Arc<Self>) {
        let store = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            loop {
                tick.tick().await;
                let Some(store) = store.upgrade() else { break };
                let removed = store.sweep();
                if removed > 0 {
                    tracing::info!(removed, "expired media files removed");
                }
            }
        });
    }
}

/// Removes every file of `dir` whose modification time `is_old` says is
/// past its life; returns how many (also the signed media store's sweep).
pub fn sweep_dir(dir: &Dir, is_old: impl Fn(SystemTime) -> bool) -> usize {
    let Ok(entries) = dir.entries() else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = entry
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .is_some_and(|t| is_old(t.into_std()));
        if old && dir.remove_file(&name).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn expired(modified: SystemTime, now: SystemTime) -> bool {
    now.duration_since(modified).is_ok_and(|age| age > MEDIA_TTL)
}

/// The Content-Type of a well-formed id (32 lowercase hex digits, a dot, a
/// known extension); `None` for anything else.
pub fn content_type_of(id: &str) -> Option<&'static str> {
    let (stem, ext) = id.split_once('.')?;
    if stem.len() != 32 || !stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    KINDS.iter().find(|(e, _)| *e == ext).map(|(_, ct)| *ct)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (Arc<MediaStore>, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("distill-media-{}", uuid::Uuid::new_v4().simple()));
        (MediaStore::open(&dir, Some("http://127.0.0.1:1/")).unwrap(), dir)
    }

    #[test]
    fn put_then_get_by_the_url_id() {
        let (s, dir) = store();
        let url = s.put(b"\x89PNG", "png").unwrap();
        let id = url.strip_prefix("http://127.0.0.1:1/v2/media/").unwrap();
        assert_eq!(s.get(id), Some((b"\x89PNG".to_vec(), "image/png")));
        let other = format!("{}.png", uuid::Uuid::new_v4().simple());
        assert_eq!(s.get(&other), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn ids_of_another_shape_are_refused() {
        for bad in [
            "../etc/passwd",
            "0123456789abcdef0123456789abcdef.exe",
            "0123456789ABCDEF0123456789abcdef.png",
            "0123456789abcdef0123456789abcde.png",
            "0123456789abcdef0123456789abcdef/.png",
            "",
        ] {
            assert_eq!(content_type_of(bad), None, "{bad}");
        }
        assert_eq!(
            content_type_of("0123456789abcdef0123456789abcdef.pdf"),
            Some("application/pdf")
        );
    }

    #[test]
    fn expiry_is_after_the_ttl() {
        let now = SystemTime::now();
        assert!(!expired(now - Duration::from_secs(60), now));
        assert!(expired(now - MEDIA_TTL - Duration::from_secs(1), now));
    }
}
