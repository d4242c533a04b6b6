//! Where the official Python and JS SDKs the tests drive are: installed by the
//! Makefile (`make sdk-tools`) under `target/tools/sdk`, their driver scripts in
//! `tests/sdk/`.

use std::path::PathBuf;

/// The repository's root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `target/tools/sdk` (`py/` a venv with firecrawl-py, `js/` an npm prefix with
/// @mendable/firecrawl-js); panics, naming the make target, when they are missing.
pub fn official_sdks_dir() -> PathBuf {
    let dir = repo_root().join("target/tools/sdk");
    assert!(
        dir.join("py/.installed").exists() && dir.join("js/.installed").exists(),
        "{} is missing the SDKs: `make test` installs them (make sdk-tools)",
        dir.display()
    );
    dir
}
