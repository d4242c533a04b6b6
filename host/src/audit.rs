//! The audit log: one JSON object per line, appended to a file the operator
//! names (`DISTILL_AUDIT_LOG`), rotated by size (`audit.jsonl` →
//! `audit.jsonl.1` → ... up to `keep` files, the oldest dropped). Writes go
//! through one task in order, so a request never waits on the disk.
//! Records carry what the server layer gives them; with zeroDataRetention
//! that is never the URL or content.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use tokio::sync::mpsc;

/// Where and how much.
#[derive(Debug, Clone)]
pub struct AuditSettings {
    pub path: PathBuf,
    /// Rotate when the file would pass this many bytes.
    pub max_bytes: u64,
    /// Rotated files kept besides the current one.
    pub keep: usize,
}

/// A handle to the writer task.
#[derive(Clone)]
pub struct AuditLog {
    tx: mpsc::Sender<Value>,
}

impl AuditLog {
    /// Opens (creates) the file and starts the writer task.
    pub fn open(settings: AuditSettings) -> anyhow::Result<AuditLog> {
        if let Some(dir) = settings.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut writer = Writer::open(settings)?;
        let (tx, mut rx) = mpsc::channel::<Value>(4096);
        std::thread::Builder::new()
            .name("distill-audit".into())
            .spawn(move || {
                while let Some(record) = rx.blocking_recv() {
                    if let Err(e) = writer.write(&record) {
                        tracing::error!("audit log write failed: {e}");
                    }
                }
            })?;
        Ok(AuditLog { tx })
    }

    /// Queues a record (dropped with an error log if 4096 are already queued).
    pub fn record(&self, record: Value) {
        if self.tx.try_send(record).is_err() {
            tracing::error!("audit log queue full: a record was dropped");
        }
    }
}

struct Writer {
    settings: AuditSettings,
    file: std::fs::File,
    size: u64,
}

impl Writer {
    fn open(settings: AuditSettings) -> std::io::Result<Writer> {
        let file = append(&settings.path)?;
        let size = file.metadata()?.len();
        Ok(Writer { settings, file, size })
    }

    fn write(&mut self, record: &Value) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        if self.size > 0 && self.size + line.len() as u64 > self.settings.max_bytes {
            self.rotate()?;
        }
        self.file.write_all(&line)?;
        self.file.flush()?;
        self.size += line.len() as u64;
        Ok(())
    }

    fn rotate(&mut self) -> std::io::Result<()> {
        let path = &self.settings.path;
        let keep = self.settings.keep.max(1);
        let _ = std::fs::remove_file(numbered(path, keep));
        for n in (1..keep).rev() {
            let from = numbered(path, n);
            if from.exists() {
                std::fs::rename(&from, numbered(path, n + 1))?;
            }
        }
        std::fs::rename(path, numbered(path, 1))?;
        self.file = append(path)?;
        self.size = 0;
        Ok(())
    }
}

fn numbered(path: &Path, n: usize) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{n}"));
    PathBuf::from(s)
}

fn append(path: &Path) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rotates_by_size_and_keeps_n_files() {
        let dir = crate::test_dir::TestDir::new("audit");
        let path = dir.join("audit.jsonl");
        let mut w = Writer::open(AuditSettings {
            path: path.clone(),
            max_bytes: 100,
            keep: 2,
        })
        .unwrap();
        for i in 0..12 {
            w.write(&json!({"n": i, "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}))
                .unwrap();
        }
        let current = std::fs::read_to_string(&path).unwrap();
        assert!(current.contains("\"n\":11"), "{current}");
        assert!(numbered(&path, 1).exists() && numbered(&path, 2).exists());
        assert!(!numbered(&path, 3).exists());
        for f in [path.clone(), numbered(&path, 1), numbered(&path, 2)] {
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                serde_json::from_str::<Value>(line).unwrap();
            }
        }
    }
}
