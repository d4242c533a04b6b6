//! Tests' scratch directories: a fresh directory under the system temp dir
//! for one test, removed when the test drops it (pass or fail), so a test run
//! leaves nothing behind.

use std::path::{Path, PathBuf};

/// A directory that exists for as long as this value lives.
pub struct TestDir(PathBuf);

impl TestDir {
    /// Creates `distill-<name>-<unique>` under the temp dir.
    pub fn new(name: &str) -> TestDir {
        let dir = std::env::temp_dir().join(format!("distill-{name}-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        TestDir(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory.
    pub fn join(&self, rest: impl AsRef<Path>) -> PathBuf {
        self.0.join(rest)
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
