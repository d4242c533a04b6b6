//! A redb database file that is closed and reopened after an I/O error.
//!
//! After a failed write (a full or read-only disk) redb refuses every later
//! operation with "Previous I/O error occurred. Please close and re-open the
//! database". The page cache and the job queue would then stay broken until
//! the server restarts, even once space is back. [`ReopeningDb`] notes an
//! I/O error and, on the next call, drops the handle and opens the file again
//! (redb recovers it to its last commit); while the disk is still unusable the
//! reopen fails with the disk's error and is retried by the call after.

use redb::{Database, ReadTransaction, ReadableDatabase, WriteTransaction};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// Opens the file (the same call, with the same settings such as the page
/// cache's size, the owner used at start).
pub type Opener = Box<dyn Fn(&Path) -> Result<Database, redb::DatabaseError> + Send + Sync>;

/// A shared redb handle that reopens itself after an I/O error.
pub struct ReopeningDb {
    path: PathBuf,
    open: Opener,
    db: RwLock<Option<Arc<Database>>>,
    broken: AtomicBool,
}

impl ReopeningDb {
    /// Wraps an open database.
    pub fn new(
        path: &Path,
        open: impl Fn(&Path) -> Result<Database, redb::DatabaseError> + Send + Sync + 'static,
        db: Database,
    ) -> ReopeningDb {
        ReopeningDb {
            path: path.to_path_buf(),
            open: Box::new(open),
            db: RwLock::new(Some(Arc::new(db))),
            broken: AtomicBool::new(false),
        }
    }

    /// The database, reopened first when the last operation hit an I/O error.
    fn handle(&self) -> Result<Arc<Database>, redb::Error> {
        if self.broken.load(Ordering::SeqCst) {
            self.reopen()?;
        }
        self.db
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or(redb::Error::PreviousIo)
    }

    fn reopen(&self) -> Result<(), redb::Error> {
        let mut slot = self.db.write().unwrap_or_else(|e| e.into_inner());
        if !self.broken.load(Ordering::SeqCst) {
            return Ok(()); // another caller reopened it meanwhile
        }
        // Close first: redb allows one open handle per file. A transaction
        // still running elsewhere keeps the file open; the next call retries.
        *slot = None;
        let db = (self.open)(&self.path)?;
        *slot = Some(Arc::new(db));
        self.broken.store(false, Ordering::SeqCst);
        tracing::info!(file = %self.path.display(), "reopened the database after an I/O error");
        Ok(())
    }

    /// Remembers an I/O failure so that the next call reopens the file.
    fn note<T, E: Into<redb::Error>>(&self, result: Result<T, E>) -> Result<T, redb::Error> {
        result.map_err(|e| {
            let e: redb::Error = e.into();
            if matches!(e, redb::Error::Io(_) | redb::Error::PreviousIo)
                && !self.broken.swap(true, Ordering::SeqCst)
            {
                tracing::warn!(file = %self.path.display(), error = %e, "database write failed; it will be reopened");
            }
            e
        })
    }

    pub fn begin_write(&self) -> Result<WriteTransaction, redb::Error> {
        let db = self.handle()?;
        self.note(db.begin_write())
    }

    pub fn begin_read(&self) -> Result<ReadTransaction, redb::Error> {
        let db = self.handle()?;
        self.note(db.begin_read())
    }

    pub fn commit(&self, w: WriteTransaction) -> Result<(), redb::Error> {
        self.note(w.commit())
    }

    /// Records the outcome of a read or write made inside a transaction.
    pub fn check<T, E: Into<redb::Error>>(&self, result: Result<T, E>) -> Result<T, redb::Error> {
        self.note(result)
    }
}
