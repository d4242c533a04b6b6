//! The counters' older file: servers before the durable counters file kept
//! the limits in `DATA_DIR/limits/limits.redb`, in the page cache's format
//! (redb table `entries`: key → [`crate::cache::codec`] entry holding the
//! value as 8 little-endian bytes). At start the credits spent there are
//! added to the current file ([`super::file_counters`]) in one transaction
//! that also records the import, so a crash midway imports nothing and a
//! second start imports nothing twice; the old file is then renamed
//! `limits.redb.migrated`; one that cannot be read is left in place (logged).
//! Rate windows and slots are not carried over (they
//! last a minute, or the process).

use super::file_counters::FileCounters;
use crate::cache::codec;
use redb::{Database, ReadableDatabase, TableDefinition};
use std::path::{Path, PathBuf};

/// The cache format's table of entries.
const ENTRIES: TableDefinition<&str, &[u8]> = TableDefinition::new("entries");

/// The older file beside the current one.
pub fn old_file(current: &Path) -> PathBuf {
    current.with_file_name("limits.redb")
}

/// Live `credits:` counters of the old file: (key, value, expires at ms).
fn read_old(path: &Path, now_ms: i64) -> anyhow::Result<Vec<(String, i64, i64)>> {
    let db = Database::open(path)?;
    let r = db.begin_read()?;
    let table = match r.open_table(ENTRIES) {
        Ok(t) => t,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut out = Vec::new();
    for row in table.range("credits:".."credits;")? {
        let (key, value) = row?;
        let stored = codec::decode(value.value())?;
        let Ok(bytes) = <[u8; 8]>::try_from(stored.value.as_slice()) else {
            tracing::warn!(key = key.value(), "old limits file: counter not 8 bytes, skipped");
            continue;
        };
        if stored.expires_at_ms > now_ms {
            out.push((
                key.value().to_string(),
                i64::from_le_bytes(bytes),
                stored.expires_at_ms,
            ));
        }
    }
    Ok(out)
}

/// Imports the old file's credits into `counters` (whose file is `current`)
/// once, then renames the old file. Blocking: call at start-up. Returns how
/// many counters were imported (0 when there was no old file).
pub fn import_old_credits(current: &Path, counters: &FileCounters) -> anyhow::Result<usize> {
    let old = old_file(current);
    if !old.exists() {
        return Ok(0);
    }
    let found = read_old(&old, crate::cache::store::now_ms())?;
    let imported = counters.import_once("migrated:limits.redb", &found)?;
    let done = old.with_file_name("limits.redb.migrated");
    std::fs::rename(&old, &done)?;
    if imported {
        tracing::info!(
            counters = found.len(),
            from = %old.display(),
            "credits spent imported from the older limits file (renamed .migrated)"
        );
        Ok(found.len())
    } else {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::counters::Counters;
    use std::time::Duration;

    /// Writes a counter as the older servers did: the page cache's disk
    /// format, value as 8 little-endian bytes.
    fn write_old(path: &Path, entries: &[(&str, i64, i64)]) {
        let disk = crate::cache::disk::Disk::open(path, 64 << 20).unwrap();
        let now = crate::cache::store::now_ms();
        for (key, value, expires) in entries {
            disk.put(key, &codec::encode(&value.to_le_bytes(), now, *expires))
                .unwrap();
        }
        disk.flush().unwrap();
    }

    #[tokio::test]
    async fn credits_of_the_older_file_are_imported_once() {
        let dir = crate::test_dir::TestDir::new("limits-migrate");
        let current = dir.join("counters.redb");
        let now = crate::cache::store::now_ms();
        let far = now + 86_400_000;
        write_old(
            &old_file(&current),
            &[
                ("credits:key-a", 7, far),
                ("credits:key-b", 2, now - 1),
                ("rate:key-a:scrape:1", 3, far),
            ],
        );
        let counters = FileCounters::open(&current, &["rate:"]).unwrap();
        counters
            .add("credits:key-a", 1, Duration::from_secs(3600))
            .await
            .unwrap();
        assert_eq!(import_old_credits(&current, &counters).unwrap(), 1);
        assert_eq!(counters.get("credits:key-a").await.unwrap(), 8, "old 7 + new 1");
        assert_eq!(
            counters.get("credits:key-b").await.unwrap(),
            0,
            "expired: not imported"
        );
        assert_eq!(
            counters.get("rate:key-a:scrape:1").await.unwrap(),
            0,
            "rate windows stay behind"
        );
        assert!(!old_file(&current).exists());
        assert!(dir.join("limits.redb.migrated").exists());
        // The old file put back (a restore from backup): the import is not repeated.
        std::fs::rename(dir.join("limits.redb.migrated"), old_file(&current)).unwrap();
        assert_eq!(import_old_credits(&current, &counters).unwrap(), 0);
        assert_eq!(counters.get("credits:key-a").await.unwrap(), 8);
    }
}
