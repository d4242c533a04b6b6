//! The embedded store's value files: large values are appended to numbered
//! segment files in a directory beside the redb file (one `writev` per
//! batch), and `entries` keeps a [`super::locator::Locator`] to them, so a
//! new key's insert no longer reads back and rewrites the B-tree leaf of a
//! random earlier value. The writer appends to one active segment and starts
//! the next once it passes its target size. Before every durable redb commit
//! the segments written since get an `fdatasync` ([`Segments::sync`]), so the
//! file's durable state only points at synced bytes. A segment retired by
//! compaction or emptied by eviction is deleted only after a durable commit
//! no longer points into it; readers hold an `Arc<File>`, so a value being
//! read when its segment is deleted still reads.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{IoSlice, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// The segment directory of the redb file at `db`.
pub fn dir_for(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".values");
    PathBuf::from(name)
}

fn file_name(id: u32) -> String {
    format!("{id:08x}.seg")
}

fn id_of(name: &str) -> Option<u32> {
    u32::from_str_radix(name.strip_suffix(".seg")?, 16).ok()
}

/// The segment files on disk: id → length.
pub fn list(dir: &Path) -> std::io::Result<HashMap<u32, u64>> {
    let mut out = HashMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e),
    };
    for e in entries {
        let e = e?;
        if let Some(id) = e.file_name().to_str().and_then(id_of) {
            out.insert(id, e.metadata()?.len());
        }
    }
    Ok(out)
}

/// One segment: its file and how many bytes it holds.
struct Segment {
    file: Arc<File>,
    len: u64,
}

/// The writer's side: which segment takes appends.
struct Active {
    id: u32,
    /// The file's cursor is at the segment's end (false after a failed write).
    cursor_ok: bool,
    /// Written since the last `fdatasync`.
    unsynced: bool,
}

/// The segment files of one cache.
pub struct Segments {
    dir: PathBuf,
    /// Start a new segment once the active one holds this many bytes.
    target: u64,
    files: RwLock<HashMap<u32, Segment>>,
    active: Mutex<Option<Active>>,
    /// Segments to delete after the next durable commit.
    retired: Mutex<Vec<u32>>,
    /// Segments that lost live values while they took appends: looked at
    /// again by the next transaction once another one does.
    deferred: Mutex<std::collections::BTreeSet<u32>>,
    /// The id the next new segment takes (ids are never reused in a run).
    next_id: std::sync::atomic::AtomicU32,
}

impl Segments {
    /// Opens the segment files in `dir` (created if missing), except
    /// `keep`'s complement: files no durable entry points into (left by a
    /// crash) are deleted. Appends go to a new segment.
    pub fn open(dir: &Path, target: u64, keep: impl Fn(u32) -> bool) -> std::io::Result<Segments> {
        std::fs::create_dir_all(dir)?;
        let mut files = HashMap::new();
        for (id, len) in list(dir)? {
            let path = dir.join(file_name(id));
            if !keep(id) {
                std::fs::remove_file(&path)?;
                continue;
            }
            let file = OpenOptions::new().read(true).write(true).open(&path)?;
            files.insert(
                id,
                Segment {
                    file: Arc::new(file),
                    len,
                },
            );
        }
        let next_id = files.keys().max().map_or(1, |m| m + 1);
        Ok(Segments {
            next_id: std::sync::atomic::AtomicU32::new(next_id),
            dir: dir.to_path_buf(),
            target,
            files: RwLock::new(files),
            active: Mutex::new(None),
            retired: Mutex::new(Vec::new()),
            deferred: Mutex::new(std::collections::BTreeSet::new()),
        })
    }

    /// The active segment, if one was started.
    pub fn active_id(&self) -> Option<u32> {
        self.active.lock().expect("segments lock").as_ref().map(|a| a.id)
    }

    /// Length in bytes of segment `id` (0 when unknown).
    pub fn len_of(&self, id: u32) -> u64 {
        self.files
            .read()
            .expect("segments lock")
            .get(&id)
            .map_or(0, |s| s.len)
    }

    /// Appends `values` end to end in one write; returns the segment and the
    /// offset of the first. Starts a new segment when the active one is full.
    pub fn append(&self, values: &[&[u8]]) -> std::io::Result<(u32, u64)> {
        let mut active = self.active.lock().expect("segments lock");
        let full = active.as_ref().is_some_and(|a| self.len_of(a.id) >= self.target);
        if full {
            self.sync_locked(&mut active)?;
            *active = None;
        }
        if active.is_none() {
            *active = Some(self.create()?);
        }
        let a = active.as_mut().expect("just set");
        let (file, start) = {
            let files = self.files.read().expect("segments lock");
            let s = &files[&a.id];
            (s.file.clone(), s.len)
        };
        let mut f = &*file;
        if !a.cursor_ok {
            f.seek(SeekFrom::Start(start))?;
            a.cursor_ok = true;
        }
        a.unsynced = true;
        let mut slices: Vec<IoSlice> = values.iter().map(|v| IoSlice::new(v)).collect();
        let mut rest = &mut slices[..];
        let total: u64 = values.iter().map(|v| v.len() as u64).sum();
        while !rest.is_empty() {
            match f.write_vectored(rest) {
                Ok(0) => {
                    a.cursor_ok = false;
                    return Err(std::io::ErrorKind::WriteZero.into());
                }
                Ok(n) => IoSlice::advance_slices(&mut rest, n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // A partial write is overwritten by the next append.
                    a.cursor_ok = false;
                    return Err(e);
                }
            }
        }
        if let Some(s) = self.files.write().expect("segments lock").get_mut(&a.id) {
            s.len = start + total;
        }
        Ok((a.id, start))
    }

    /// A new empty segment after the highest id, its directory entry synced
    /// (a durable commit may point into it).
    fn create(&self) -> std::io::Result<Active> {
        let id = self.next_id.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(self.dir.join(file_name(id)))?;
        File::open(&self.dir)?.sync_all()?;
        self.files.write().expect("segments lock").insert(
            id,
            Segment {
                file: Arc::new(file),
                len: 0,
            },
        );
        Ok(Active {
            id,
            cursor_ok: true,
            unsynced: false,
        })
    }

    /// `len` bytes at `offset` of segment `id`; `None` when that segment is
    /// gone (deleted after a compaction: read the key's locator again).
    pub fn read(&self, id: u32, offset: u64, len: usize) -> std::io::Result<Option<Vec<u8>>> {
        let Some(file) = self
            .files
            .read()
            .expect("segments lock")
            .get(&id)
            .map(|s| s.file.clone())
        else {
            return Ok(None);
        };
        let mut out = vec![0u8; len];
        file.read_exact_at(&mut out, offset)?;
        Ok(Some(out))
    }

    /// `fdatasync`s what was appended since the last call: run before every
    /// durable commit.
    pub fn sync(&self) -> std::io::Result<()> {
        self.sync_locked(&mut self.active.lock().expect("segments lock"))
    }

    fn sync_locked(&self, active: &mut Option<Active>) -> std::io::Result<()> {
        if let Some(a) = active.as_mut().filter(|a| a.unsynced) {
            let file = self.files.read().expect("segments lock")[&a.id].file.clone();
            file.sync_data()?;
            a.unsynced = false;
        }
        Ok(())
    }

    /// Marks segment `id` (never the active one) for deletion after the next
    /// durable commit (a committed transaction no longer points into it).
    pub fn retire(&self, id: u32) {
        self.retired.lock().expect("segments lock").push(id);
    }

    /// Forgets the retirements (a commit failed: the file may reopen at an
    /// earlier state that still points into them; the next open's sweep
    /// deletes what no durable entry uses).
    pub fn keep_retired(&self) {
        self.retired.lock().expect("segments lock").clear();
    }

    /// Deletes the retired segments: call right after a durable commit.
    pub fn delete_retired(&self) {
        let ids = std::mem::take(&mut *self.retired.lock().expect("segments lock"));
        for id in ids {
            self.files.write().expect("segments lock").remove(&id);
            if let Err(e) = std::fs::remove_file(self.dir.join(file_name(id))) {
                tracing::warn!(segment = id, error = %e, "cache: segment not deleted");
            }
        }
    }

    /// Notes a segment to look at again ([`Segments::take_deferred`]).
    pub fn defer(&self, id: u32) {
        self.deferred.lock().expect("segments lock").insert(id);
    }

    /// The deferred segments, emptied.
    pub fn take_deferred(&self) -> std::collections::BTreeSet<u32> {
        std::mem::take(&mut *self.deferred.lock().expect("segments lock"))
    }

    /// Ends the active segment (synced first): the next append starts a new
    /// one, and the ended segment can be retired or compacted like any other
    /// (it is deferred to the next [`Segments::take_deferred`]).
    pub fn seal(&self) -> std::io::Result<()> {
        let mut active = self.active.lock().expect("segments lock");
        self.sync_locked(&mut active)?;
        if let Some(a) = active.take() {
            self.defer(a.id);
        }
        Ok(())
    }

    /// Each segment file's length, except those retired (deleted after the
    /// next durable commit).
    pub fn lens(&self) -> Vec<(u32, u64)> {
        let retired = self.retired.lock().expect("segments lock").clone();
        self.files
            .read()
            .expect("segments lock")
            .iter()
            .filter(|(id, _)| !retired.contains(id))
            .map(|(&id, s)| (id, s.len))
            .collect()
    }

    /// Bytes of all segment files.
    pub fn total_len(&self) -> u64 {
        self.files
            .read()
            .expect("segments lock")
            .values()
            .map(|s| s.len)
            .sum()
    }
}
