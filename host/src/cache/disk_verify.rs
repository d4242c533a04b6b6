//! `Disk::verify`: checks a closed cache file and its segment
//! files: redb's own integrity check; every entry decodes (a located value is
//! read from its segment, inside the file's length, and matches its length,
//! header and CRC); the `age` rows, the totals and each segment's live bytes
//! match the entries. For tests and start-up checks.

use super::codec;
use super::compact::{AGE, BYTES, COUNT, ENTRIES, SEGS, STATS, evictable};
use super::locator::{self, Form};
use super::segments;
use super::store::{StoreError, Usage};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata};
use std::collections::BTreeMap;
use std::os::unix::fs::FileExt;
use std::path::Path;

pub fn verify(path: &Path) -> Result<Usage, StoreError> {
    let mut db = Database::builder().open(path)?;
    if !db.check_integrity()? {
        return Err(StoreError::Corrupt(
            "redb integrity check repaired the file".into(),
        ));
    }
    let dir = segments::dir_for(path);
    let files = segments::list(&dir).map_err(|e| StoreError::Backend(e.to_string()))?;
    let r = db.begin_read()?;
    let entries = r.open_table(ENTRIES)?;
    let age = r.open_table(AGE)?;
    let stats = r.open_table(STATS)?;
    let (mut bytes, mut count, mut aged) = (0u64, 0u64, 0u64);
    let mut live: BTreeMap<u32, u64> = BTreeMap::new();
    for item in entries.iter()? {
        let (k, v) = item?;
        let key = k.value();
        let encoded = match locator::parse(v.value())? {
            Form::Inline(v) => v.to_vec(),
            Form::At(l) => {
                let end = l.offset + u64::from(l.len);
                if files.get(&l.segment).is_none_or(|&len| end > len) {
                    return Err(StoreError::Corrupt(format!(
                        "{key} points past segment {}'s end",
                        l.segment
                    )));
                }
                let file = std::fs::File::open(dir.join(format!("{:08x}.seg", l.segment)))
                    .map_err(|e| StoreError::Backend(e.to_string()))?;
                let mut buf = vec![0u8; l.len as usize];
                file.read_exact_at(&mut buf, l.offset)
                    .map_err(|e| StoreError::Backend(e.to_string()))?;
                l.check(&buf)?;
                *live.entry(l.segment).or_default() += u64::from(l.len);
                buf
            }
        };
        let s = codec::decode(&encoded)?;
        let accounted = age.get((s.stored_at_ms, key))?.map(|g| g.value());
        let size = (key.len() + encoded.len()) as u64;
        let want_row = evictable(key).then_some(size);
        if accounted != want_row {
            return Err(StoreError::Corrupt(format!("age row of {key} wrong")));
        }
        bytes += size;
        count += 1;
        aged += u64::from(want_row.is_some());
    }
    let mut rows: BTreeMap<u32, u64> = BTreeMap::new();
    for row in r.open_table(SEGS)?.iter()? {
        let (id, n) = row?;
        if n.value() > 0 {
            rows.insert(id.value(), n.value());
        }
    }
    if rows != live {
        return Err(StoreError::Corrupt(format!(
            "segment live bytes {rows:?} vs entries {live:?}"
        )));
    }
    let want = Usage {
        entries: stats.get(COUNT)?.map(|g| g.value()).unwrap_or(0),
        bytes: stats.get(BYTES)?.map(|g| g.value()).unwrap_or(0),
    };
    if want
        != (Usage {
            entries: count,
            bytes,
        })
        || age.len()? != aged
    {
        return Err(StoreError::Corrupt(format!(
            "totals {want:?} vs tables {count} entries, {bytes} bytes"
        )));
    }
    Ok(want)
}
