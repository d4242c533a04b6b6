//! [`SignedStore`]: extracted audio and video in `DATA_DIR/media-signed`
//! (through cap-std: every access stays inside the directory), served at
//! `GET /v2/media/signed/{file}?expires=..&signature=..`. File names are 128
//! random bits plus the extension; the link is signed ([`SigningKeys`]) and
//! stops working after the link lifetime; a sweep removes files older than it.

use super::signing::{LinkError, SigningKeys};
use crate::media::MediaStore;
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The route prefix of signed media links.
pub const ROUTE_PREFIX: &str = "/v2/media/signed/";

/// The kinds of file stored: extension and Content-Type.
pub const KINDS: &[(&str, &str)] = &[
    ("mp3", "audio/mpeg"),
    ("mp4", "video/mp4"),
    ("webm", "video/webm"),
];

/// Why a signed file cannot be served.
#[derive(Debug, PartialEq, Eq)]
pub enum ServeError {
    /// The name is not one this store makes, or the file is gone.
    NotFound,
    BadSignature,
    Expired,
}

/// A stored file, ready to serve.
pub struct ServedFile {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
    /// Seconds until the link expires.
    pub remaining_secs: u64,
}

/// A file just stored.
pub struct StoredLink {
    pub url: String,
    pub expires_in_secs: u64,
}

/// Signed, expiring media files.
pub struct SignedStore {
    dir: Dir,
    keys: SigningKeys,
    ttl: Duration,
    /// For the server's public base URL.
    urls: Arc<MediaStore>,
}

impl SignedStore {
    /// Opens (creating) `dir`; links last `ttl`.
    pub fn open(
        dir: &Path,
        keys: SigningKeys,
        ttl: Duration,
        urls: Arc<MediaStore>,
    ) -> anyhow::Result<Arc<Self>> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("creating the media dir {}: {e}", dir.display()))?;
        let dir = Dir::open_ambient_dir(dir, ambient_authority())
            .map_err(|e| anyhow::anyhow!("opening the media dir {}: {e}", dir.display()))?;
        Ok(Arc::new(SignedStore { dir, keys, ttl, urls }))
    }

    /// How long links (and files) live.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Stores `bytes` as a new file of kind `ext`; returns its signed link.
    pub fn put(&self, bytes: &[u8], ext: &str) -> std::io::Result<StoredLink> {
        debug_assert!(KINDS.iter().any(|(e, _)| *e == ext));
        let name = format!("{}.{ext}", uuid::Uuid::new_v4().simple());
        self.dir.write(&name, bytes)?;
        let expires = unix_now() + self.ttl.as_secs().max(1);
        let path = format!("{ROUTE_PREFIX}{name}");
        let signature = self.keys.sign(&path, expires);
        Ok(StoredLink {
            url: format!(
                "{}{path}?expires={expires}&signature={signature}",
                self.urls.base_url()
            ),
            expires_in_secs: self.ttl.as_secs().max(1),
        })
    }

    /// The file `name` when `expires` and `signature` are a valid, unexpired
    /// signature of its link.
    pub fn serve(
        &self,
        name: &str,
        expires: Option<&str>,
        signature: Option<&str>,
    ) -> Result<ServedFile, ServeError> {
        let content_type = content_type_of(name).ok_or(ServeError::NotFound)?;
        let (Some(expires), Some(signature)) = (expires, signature) else {
            return Err(ServeError::BadSignature);
        };
        let expires: u64 = expires.parse().map_err(|_| ServeError::BadSignature)?;
        let now = unix_now();
        self.keys
            .verify(&format!("{ROUTE_PREFIX}{name}"), expires, signature, now)
            .map_err(|e| match e {
                LinkError::BadSignature => ServeError::BadSignature,
                LinkError::Expired => ServeError::Expired,
            })?;
        let bytes = self.dir.read(name).map_err(|_| ServeError::NotFound)?;
        Ok(ServedFile {
            bytes,
            content_type,
            remaining_secs: expires - now,
        })
    }

    /// Removes files older than the link lifetime; returns how many.
    pub fn sweep(&self) -> usize {
        let now = SystemTime::now();
        crate::media::sweep_dir(&self.dir, |modified| {
            now.duration_since(modified).is_ok_and(|age| age >= self.ttl)
        })
    }

    /// Sweeps regularly (every half link lifetime, between 1 s and 10 min)
    /// for the life of the process.
    pub fn start_sweeper(self: &Arc<Self>) {
        let every = (self.ttl / 2).clamp(Duration::from_secs(1), Duration::from_secs(600));
        let store = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                let Some(store) = store.upgrade() else { break };
                let removed = store.sweep();
                if removed > 0 {
                    tracing::info!(removed, "expired extracted media files removed");
                }
            }
        });
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The Content-Type of a well-formed name (32 lowercase hex digits, a dot, a
/// known extension); `None` for anything else.
pub fn content_type_of(name: &str) -> Option<&'static str> {
    let (stem, ext) = name.split_once('.')?;
    if stem.len() != 32 || !stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    content_type_for(ext)
}

/// The Content-Type of a stored kind (`"mp3"`, `"mp4"`, `"webm"`).
pub fn content_type_for(ext: &str) -> Option<&'static str> {
    KINDS.iter().find(|(e, _)| *e == ext).map(|(_, ct)| *ct)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(ttl: Duration) -> (Arc<SignedStore>, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("distill-signed-{}", uuid::Uuid::new_v4().simple()));
        let urls = MediaStore::open(&dir.join("screens"), Some("http://127.0.0.1:9")).unwrap();
        let keys = SigningKeys::new(b"test-key-test-key-test", None).unwrap();
        (
            SignedStore::open(&dir.join("signed"), keys, ttl, urls).unwrap(),
            dir,
        )
    }

    fn parts(url: &str) -> (String, String, String) {
        let rest = url.strip_prefix("http://127.0.0.1:9/v2/media/signed/").unwrap();
        let (name, query) = rest.split_once('?').unwrap();
        let mut expires = String::new();
        let mut signature = String::new();
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap();
            match k {
                "expires" => expires = v.to_string(),
                "signature" => signature = v.to_string(),
                _ => panic!("{k}"),
            }
        }
        (name.to_string(), expires, signature)
    }

    #[test]
    fn a_stored_file_is_served_by_its_signed_link_only() {
        let (s, dir) = store(Duration::from_secs(3600));
        let link = s.put(b"ID3data", "mp3").unwrap();
        assert_eq!(link.expires_in_secs, 3600);
        let (name, expires, sig) = parts(&link.url);
        let served = s.serve(&name, Some(&expires), Some(&sig)).unwrap();
        assert_eq!(served.bytes, b"ID3data");
        assert_eq!(served.content_type, "audio/mpeg");
        assert!(served.remaining_secs > 3590);
        assert_eq!(
            s.serve(&name, Some(&expires), None).err(),
            Some(ServeError::BadSignature)
        );
        let later = (expires.parse::<u64>().unwrap() + 10).to_string();
        assert_eq!(
            s.serve(&name, Some(&later), Some(&sig)).err(),
            Some(ServeError::BadSignature)
        );
        assert_eq!(
            s.serve("../x.mp3", Some(&expires), Some(&sig)).err(),
            Some(ServeError::NotFound)
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn files_past_the_lifetime_expire_and_are_swept() {
        let (s, dir) = store(Duration::from_secs(1));
        let link = s.put(b"\0\0\0\x18ftypmp42", "mp4").unwrap();
        let (name, expires, sig) = parts(&link.url);
        std::thread::sleep(Duration::from_millis(2100));
        assert_eq!(
            s.serve(&name, Some(&expires), Some(&sig)).err(),
            Some(ServeError::Expired)
        );
        assert_eq!(s.sweep(), 1);
        assert!(!dir.join("signed").join(&name).exists());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
