//! markitdown on the same fixtures, through `bench/documents_markitdown.py`:
//! each fixture is copied as `upload.<ext>` (markitdown picks its converter
//! by extension) and converted twice; the warm conversion is timed.

use super::fixtures::{Fixture, Outcome, score};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

pub struct Outputs {
    by_extension: Option<serde_json::Map<String, Value>>,
    pub note: String,
}

impl Outputs {
    pub fn missing(why: &str) -> Outputs {
        Outputs {
            by_extension: None,
            note: why.to_string(),
        }
    }

    fn entry(&self, extension: &str) -> Option<&Value> {
        self.by_extension.as_ref()?.get(extension)
    }

    /// markitdown's result for a fixture, `None` when markitdown did not run.
    pub fn outcome(&self, fx: &Fixture) -> Option<Outcome> {
        self.by_extension.as_ref()?;
        let Some(e) = self.entry(fx.extension) else {
            return Some(score(fx, Err("no result")));
        };
        Some(match e["error"].as_str() {
            Some(err) => score(fx, Err(err)),
            None => score(fx, Ok(e["markdown"].as_str().unwrap_or(""))),
        })
    }

    /// Warm seconds for the fixture file `file` (by its own extension).
    pub fn seconds(&self, file: &str) -> Option<f64> {
        let ext = file.rsplit('.').next()?;
        let e = self.entry(&format!("own:{file}")).or_else(|| self.entry(ext))?;
        if e["error"].is_string() {
            None
        } else {
            e["seconds"].as_f64()
        }
    }
}

/// Runs markitdown with `python` on every fixture (and on the timed office files).
pub fn run(python: &Path, fixtures_dir: &Path, fixtures: &[Fixture]) -> anyhow::Result<Outputs> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("documents_markitdown.py");
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data/markitdown");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let mut args = Vec::new();
    let mut keys = Vec::new();
    for fx in fixtures {
        let dst = work.join(format!("upload.{}", fx.extension));
        std::fs::copy(fixtures_dir.join(fx.file), &dst)?;
        args.push(dst.clone());
        keys.push((dst.to_string_lossy().into_owned(), fx.extension.to_string()));
    }
    {
        let file = "docx-lo.docx";
        let dst = work.join(file);
        std::fs::copy(fixtures_dir.join(file), &dst)?;
        args.push(dst.clone());
        keys.push((dst.to_string_lossy().into_owned(), format!("own:{file}")));
    }
    eprintln!("  markitdown on {} files", args.len());
    let out = Command::new(python).arg(&script).args(&args).output()?;
    if !out.status.success() {
        return Ok(Outputs::missing(&format!(
            "markitdown failed to run: {}",
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        )));
    }
    let mut parsed: serde_json::Map<String, Value> = serde_json::from_slice(&out.stdout)?;
    let mut by_extension = serde_json::Map::new();
    for (path, key) in keys {
        if let Some(v) = parsed.remove(&path) {
            by_extension.insert(key, v);
        }
    }
    let version = Command::new(python)
        .args([
            "-c",
            "import importlib.metadata as m; print(m.version('markitdown'))",
        ])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    Ok(Outputs {
        by_extension: Some(by_extension),
        note: format!("markitdown {version} (PyPI, extras pdf,docx,pptx,xlsx,xls), in the same run."),
    })
}
