//! Local OCR for PDF pages without a text layer: poppler's `pdftoppm` renders a
//! page, `tesseract` reads it. Both are Debian packages the Makefile installs;
//! when either is missing, OCR is reported as unavailable (never faked).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The OCR tools, when installed.
#[derive(Debug, Clone)]
pub struct Ocr {
    pdftoppm: PathBuf,
    tesseract: PathBuf,
    work_dir: PathBuf,
}

/// Finds an executable on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

impl Ocr {
    /// The tools if both are installed; `work_dir` holds temporary page images.
    pub fn detect(work_dir: &Path) -> Option<Ocr> {
        Some(Ocr {
            pdftoppm: find_on_path("pdftoppm")?,
            tesseract: find_on_path("tesseract")?,
            work_dir: work_dir.to_path_buf(),
        })
    }

    /// OCRs 1-based `pages` of `pdf`, giving up at `deadline`. Returns the text
    /// of each page that could be read. Blocking: run on a blocking thread.
    pub fn pages(&self, pdf: &[u8], pages: &[u32], deadline: Instant) -> Result<Vec<(u32, String)>, String> {
        let dir = self.work_dir.join(format!("ocr-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("OCR work directory: {e}"))?;
        let result = self.run(&dir, pdf, pages, deadline);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    fn run(
        &self,
        dir: &Path,
        pdf: &[u8],
        pages: &[u32],
        deadline: Instant,
    ) -> Result<Vec<(u32, String)>, String> {
        let input = dir.join("input.pdf");
        std::fs::write(&input, pdf).map_err(|e| format!("OCR input: {e}"))?;
        let mut out = Vec::new();
        for &page in pages {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < Duration::from_millis(200) {
                return Err(format!("no time left for OCR of page {page}"));
            }
            let prefix = dir.join(format!("p{page}"));
            let n = page.to_string();
            run_with_timeout(
                Command::new(&self.pdftoppm)
                    .args(["-f", &n, "-l", &n, "-r", "200", "-gray", "-png", "-singlefile"])
                    .arg(&input)
                    .arg(&prefix),
                left,
            )?;
            let image = prefix.with_extension("png");
            let left = deadline.saturating_duration_since(Instant::now());
            let text = run_with_timeout(
                Command::new(&self.tesseract)
                    .arg(&image)
                    .arg("-")
                    .arg("--psm")
                    .arg("3"),
                left,
            )?;
            out.push((page, text.trim().to_string()));
        }
        Ok(out)
    }
}

/// Runs a command, killing it past `limit`; returns its stdout.
fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Result<String, String> {
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting {cmd:?}: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("OCR timed out".to_string());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for OCR: {e}")),
        }
    }
    let output = child.wait_with_output().map_err(|e| format!("OCR output: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            cmd.get_program().to_string_lossy(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
