//! Signed media links: HMAC-SHA256 over the link's path and expiry with a
//! server secret. The current key signs; the previous one (when configured)
//! still verifies, so keys rotate without breaking links already handed out
//! (docs/MEDIA.md). Without a configured key the server generates one and
//! keeps it in `DATA_DIR/media-signing.key` (mode 0600).

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::io::{Read, Write};
use std::path::Path;

type HmacSha256 = Hmac<Sha256>;

/// Shortest secret accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 16;

/// The file holding the generated secret, inside the data directory.
pub const KEY_FILE: &str = "media-signing.key";

/// The secrets links are signed and verified with.
#[derive(Clone)]
pub struct SigningKeys {
    current: Vec<u8>,
    previous: Option<Vec<u8>>,
}

/// Why a link is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No or a malformed `expires` / `signature`, or a signature no key made.
    BadSignature,
    /// The signature is right but the expiry has passed.
    Expired,
}

impl SigningKeys {
    /// Keys from configured secrets.
    pub fn new(current: &[u8], previous: Option<&[u8]>) -> anyhow::Result<SigningKeys> {
        anyhow::ensure!(
            current.len() >= MIN_KEY_BYTES,
            "the media signing key must be at least {MIN_KEY_BYTES} bytes"
        );
        if let Some(p) = previous {
            anyhow::ensure!(
                p.len() >= MIN_KEY_BYTES,
                "the previous media signing key must be at least {MIN_KEY_BYTES} bytes"
            );
        }
        Ok(SigningKeys {
            current: current.to_vec(),
            previous: previous.map(<[u8]>::to_vec),
        })
    }

    /// The configured key, else the one kept in `data_dir` (generated on first start).
    pub fn configured_or_stored(
        configured: Option<&str>,
        previous: Option<&str>,
        data_dir: &Path,
    ) -> anyhow::Result<SigningKeys> {
        let previous = previous.map(str::as_bytes);
        match configured {
            Some(key) => SigningKeys::new(key.as_bytes(), previous),
            None => SigningKeys::new(&stored_key(data_dir)?, previous),
        }
    }

    /// The signature (hex) of `path` valid until `expires` (Unix seconds).
    pub fn sign(&self, path: &str, expires: u64) -> String {
        hex::encode(mac(&self.current, path, expires).finalize().into_bytes())
    }

    /// Checks a link's signature, then its expiry (a tampered expiry is a bad
    /// signature, not an expired link).
    pub fn verify(&self, path: &str, expires: u64, signature: &str, now: u64) -> Result<(), LinkError> {
        let Ok(signature) = hex::decode(signature) else {
            return Err(LinkError::BadSignature);
        };
        let keys = std::iter::once(&self.current).chain(self.previous.as_ref());
        // `verify_slice` compares in constant time.
        let valid = keys
            .into_iter()
            .any(|key| mac(key, path, expires).verify_slice(&signature).is_ok());
        if !valid {
            return Err(LinkError::BadSignature);
        }
        if now >= expires {
            return Err(LinkError::Expired);
        }
        Ok(())
    }
}

fn mac(key: &[u8], path: &str, expires: u64) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(path.as_bytes());
    mac.update(b"\n");
    mac.update(expires.to_string().as_bytes());
    mac
}

/// Reads the stored secret, or creates one (32 bytes from the OS, hex, 0600).
fn stored_key(data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    let path = data_dir.join(KEY_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let key = text.trim().as_bytes().to_vec();
        anyhow::ensure!(
            key.len() >= MIN_KEY_BYTES,
            "{} holds a key shorter than {MIN_KEY_BYTES} bytes",
            path.display()
        );
        return Ok(key);
    }
    let mut random = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut random))
        .map_err(|e| anyhow::anyhow!("reading random bytes for the media signing key: {e}"))?;
    let key = hex::encode(random);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            file.write_all(key.as_bytes())
                .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
            Ok(key.into_bytes())
        }
        // Another server sharing the data dir wrote it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => stored_key(data_dir),
        Err(e) => Err(anyhow::anyhow!("creating {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_800_000_000;

    #[test]
    fn a_signed_link_verifies_until_it_expires() {
        let keys = SigningKeys::new(b"0123456789abcdef0123", None).unwrap();
        let sig = keys.sign("/v2/media/signed/a.mp3", NOW + 60);
        assert_eq!(keys.verify("/v2/media/signed/a.mp3", NOW + 60, &sig, NOW), Ok(()));
        assert_eq!(
            keys.verify("/v2/media/signed/a.mp3", NOW + 60, &sig, NOW + 60),
            Err(LinkError::Expired)
        );
    }

    #[test]
    fn tampering_with_path_expiry_or_signature_is_a_bad_signature() {
        let keys = SigningKeys::new(b"0123456789abcdef0123", None).unwrap();
        let sig = keys.sign("/v2/media/signed/a.mp3", NOW + 60);
        let bad = Err(LinkError::BadSignature);
        assert_eq!(keys.verify("/v2/media/signed/b.mp3", NOW + 60, &sig, NOW), bad);
        assert_eq!(keys.verify("/v2/media/signed/a.mp3", NOW + 61, &sig, NOW), bad);
        let mut flipped = sig.clone().into_bytes();
        flipped[0] = if flipped[0] == b'0' { b'1' } else { b'0' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert_eq!(
            keys.verify("/v2/media/signed/a.mp3", NOW + 60, &flipped, NOW),
            bad
        );
        assert_eq!(keys.verify("/v2/media/signed/a.mp3", NOW + 60, "zz", NOW), bad);
        // An expired link with a forged expiry is refused as forged.
        assert_eq!(keys.verify("/v2/media/signed/a.mp3", NOW - 1, &sig, NOW), bad);
    }

    #[test]
    fn the_previous_key_still_verifies_after_rotation() {
        let old = SigningKeys::new(b"old-key-old-key-old-key", None).unwrap();
        let sig = old.sign("/p", NOW + 60);
        let rotated = SigningKeys::new(b"new-key-new-key-new-key", Some(b"old-key-old-key-old-key")).unwrap();
        assert_eq!(rotated.verify("/p", NOW + 60, &sig, NOW), Ok(()));
        let dropped = SigningKeys::new(b"new-key-new-key-new-key", None).unwrap();
        assert_eq!(
            dropped.verify("/p", NOW + 60, &sig, NOW),
            Err(LinkError::BadSignature)
        );
        assert!(SigningKeys::new(b"short", None).is_err());
    }

    #[test]
    fn a_generated_key_is_kept_in_the_data_dir() {
        let dir = std::env::temp_dir().join(format!("distill-keys-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = SigningKeys::configured_or_stored(None, None, &dir).unwrap();
        let second = SigningKeys::configured_or_stored(None, None, &dir).unwrap();
        assert_eq!(first.sign("/p", NOW), second.sign("/p", NOW));
        let text = std::fs::read_to_string(dir.join(KEY_FILE)).unwrap();
        assert_eq!(text.len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
