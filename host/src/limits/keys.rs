//! API keys: records in `DATA_DIR/keys.json` (or `DISTILL_KEYS_FILE`), each
//! with the SHA-256 of its key (the key itself is shown once, at creation,
//! and never stored), a name and optional limits. The file is written
//! atomically (temporary file + rename) by `distill keys` and the admin API;
//! a running server notices a change on the next request (file identity and
//! modification time) and reloads it, so new and revoked keys take effect
//! without a restart. Lookup compares hashes in constant time.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// One key's record (what the file holds).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct KeyRecord {
    /// Public identifier (`key_...`), safe to log and to show.
    pub id: String,
    pub name: String,
    /// Hex SHA-256 of the key.
    pub hash: String,
    /// The key's first characters, for operators telling keys apart.
    pub prefix: String,
    /// Credits the key may spend; `None`: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credits: Option<u64>,
    /// Requests per minute per endpoint class; `None`: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpm: Option<u64>,
    /// Scrapes running at once; `None`: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Unix ms.
    pub created_at: i64,
    #[serde(default)]
    pub revoked: bool,
}

/// The file's contents.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KeyFile {
    pub keys: Vec<KeyRecord>,
}

/// Limits of a new key.
#[derive(Debug, Clone, Default)]
pub struct NewKey {
    pub name: String,
    pub credits: Option<u64>,
    pub rpm: Option<u64>,
    pub concurrency: Option<u64>,
}

/// Hex SHA-256 of a key.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What identifies a version of the file on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp {
        modified: m.modified().ok(),
        len: m.len(),
        inode,
    })
}

/// The key file and its in-memory copy.
pub struct KeyStore {
    path: PathBuf,
    loaded: Mutex<(Option<Stamp>, Arc<KeyFile>)>,
}

impl KeyStore {
    /// Opens (reads, if present) the file at `path`.
    pub fn open(path: &Path) -> anyhow::Result<KeyStore> {
        let store = KeyStore {
            path: path.to_path_buf(),
            loaded: Mutex::new((None, Arc::new(KeyFile::default()))),
        };
        store.current_checked()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The records, reloaded first when the file changed; a file that cannot
    /// be read keeps the previous records (logged).
    pub fn current(&self) -> Arc<KeyFile> {
        match self.current_checked() {
            Ok(f) => f,
            Err(e) => {
                tracing::error!(file = %self.path.display(), "keys file unreadable, keeping the previous keys: {e}");
                self.loaded.lock().unwrap().1.clone()
            }
        }
    }

    fn current_checked(&self) -> anyhow::Result<Arc<KeyFile>> {
        let now = stamp(&self.path);
        let mut loaded = self.loaded.lock().unwrap();
        if loaded.0 != now || now.is_none() && !loaded.1.keys.is_empty() {
            loaded.1 = Arc::new(read(&self.path)?);
            loaded.0 = now;
        }
        Ok(loaded.1.clone())
    }

    /// True once any key was created (revoked ones count: revoking the last
    /// key must not open the server).
    pub fn auth_required(&self) -> bool {
        !self.current().keys.is_empty()
    }

    /// The active record whose hash matches `key` (every record compared, in
    /// constant time each).
    pub fn find(&self, key: &str) -> Option<KeyRecord> {
        let hash = hash_key(key);
        let file = self.current();
        let mut found = None;
        for record in &file.keys {
            if constant_time_eq(record.hash.as_bytes(), hash.as_bytes()) && !record.revoked {
                found = Some(record.clone());
            }
        }
        found
    }

    /// Creates a key: returns the key (shown once) and its record.
    pub fn create(&self, new: &NewKey) -> anyhow::Result<(String, KeyRecord)> {
        anyhow::ensure!(
            !new.name.trim().is_empty() && new.name.len() <= 128,
            "a key's name must have 1 to 128 characters"
        );
        let key = format!(
            "fc-{}{}",
            uuid::Uuid::new_v4().simple(),
            &uuid::Uuid::new_v4().simple().to_string()[..16]
        );
        let record = KeyRecord {
            id: format!("key_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            name: new.name.trim().to_string(),
            hash: hash_key(&key),
            prefix: key[..7].to_string(),
            credits: new.credits,
            rpm: new.rpm,
            concurrency: new.concurrency,
            created_at: crate::cache::store::now_ms(),
            revoked: false,
        };
        self.update(|file| {
            file.keys.push(record.clone());
            Ok(())
        })?;
        Ok((key, record))
    }

    /// Revokes the key with this id (or name); false when none matched.
    pub fn revoke(&self, id_or_name: &str) -> anyhow::Result<bool> {
        let mut hit = false;
        self.update(|file| {
            for r in file.keys.iter_mut().filter(|r| !r.revoked) {
                if r.id == id_or_name || r.name == id_or_name {
                    r.revoked = true;
                    hit = true;
                }
            }
            Ok(())
        })?;
        Ok(hit)
    }

    /// Read, change, write atomically (a lock file keeps the CLI and a server
    /// from interleaving).
    fn update(&self, change: impl FnOnce(&mut KeyFile) -> anyhow::Result<()>) -> anyhow::Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let _lock = FileLock::take(&self.path.with_extension("lock"))?;
        let mut file = read(&self.path)?;
        change(&mut file)?;
        let tmp = self.path.with_extension(format!("tmp.{}", std::process::id()));
        {
            use std::io::Write;
            let mut opts = std::fs::OpenOptions::new();
            opts.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
            let mut f = opts.open(&tmp)?;
            f.write_all(serde_json::to_string_pretty(&file)?.as_bytes())?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, &self.path)?;
        let mut loaded = self.loaded.lock().unwrap();
        *loaded = (stamp(&self.path), Arc::new(file));
        Ok(())
    }
}

fn read(path: &Path) -> anyhow::Result<KeyFile> {
    match std::fs::read(path) {
        Ok(bytes) => {
            serde_json::from_slice(&bytes).map_err(|e| anyhow::anyhow!("keys file {}: {e}", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KeyFile::default()),
        Err(e) => Err(anyhow::anyhow!("reading keys file {}: {e}", path.display())),
    }
}

/// An exclusive lock file (created with `create_new`, removed on drop);
/// waits up to 5 s, then takes over a stale one.
struct FileLock(PathBuf);

impl FileLock {
    fn take(path: &Path) -> anyhow::Result<FileLock> {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(_) => return Ok(FileLock(path.to_path_buf())),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if std::time::Instant::now() > until {
                        let _ = std::fs::remove_file(path);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => return Err(anyhow::anyhow!("locking {}: {e}", path.display())),
            }
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keys file in a fresh directory, removed with the directory.
    fn tmp(name: &str) -> (crate::test_dir::TestDir, PathBuf) {
        let dir = crate::test_dir::TestDir::new(&format!("keys-{name}"));
        let path = dir.join("keys.json");
        (dir, path)
    }

    #[test]
    fn create_find_revoke_and_reload_by_another_handle() {
        let (_dir, path) = tmp("crud");
        let server = KeyStore::open(&path).unwrap();
        assert!(!server.auth_required());
        let cli = KeyStore::open(&path).unwrap();
        let (key, record) = cli
            .create(&NewKey {
                name: "ci".into(),
                credits: Some(5),
                ..NewKey::default()
            })
            .unwrap();
        assert!(key.starts_with("fc-") && key.len() == 51, "{key}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&key), "the key itself is never stored");
        // The other handle sees the new key without reopening.
        assert_eq!(server.find(&key).unwrap().id, record.id);
        assert!(server.find("fc-wrong").is_none());
        assert!(cli.revoke(&record.id).unwrap());
        assert!(server.find(&key).is_none());
        assert!(server.auth_required(), "revoking the last key keeps auth on");
        assert!(!cli.revoke("nope").unwrap());
    }
}
