//! Optional `perf` profile of the server process: `perf record -g -p PID`
//! for a few seconds while the caller drives load, then `perf report`
//! summarised by shared object (wasm JIT code, the server binary, kernel,
//! libc), the hottest symbols, and the share of samples under page faults.
//! Skipped (with a note) when `perf` is missing or not permitted.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A summarised profile.
pub struct Profile {
    pub seconds: f64,
    /// (shared object, % of samples), largest first.
    pub by_dso: Vec<(String, f64)>,
    /// (shared object, symbol, % of samples), largest first.
    pub top_symbols: Vec<(String, String, f64)>,
    /// % of samples with `asm_exc_page_fault` on the stack.
    pub page_faults: Option<f64>,
}

/// A `perf record` in progress.
pub struct Recording {
    child: Child,
    data: PathBuf,
    seconds: f64,
}

/// Starts recording `pid` for `seconds`, or `None` if `perf` is unavailable.
pub fn start(pid: u32, data: &Path, seconds: u32) -> Option<Recording> {
    let ok = Command::new("perf")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(ok, Ok(s) if s.success()) {
        return None;
    }
    let child = Command::new("perf")
        .args(["record", "-F", "1999", "-g", "-p", &pid.to_string(), "-o"])
        .arg(data)
        .args(["--", "sleep", &seconds.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    Some(Recording {
        child,
        data: data.to_path_buf(),
        seconds: seconds as f64,
    })
}

impl Recording {
    /// Waits for the recording to end (killing it after `timeout`) and summarises it.
    pub fn finish(mut self, timeout: Duration) -> anyhow::Result<Profile> {
        let end = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait()? {
                anyhow::ensure!(
                    status.success(),
                    "perf record failed ({status}); not permitted here?"
                );
                break;
            }
            if Instant::now() >= end {
                let _ = self.child.kill();
                let _ = self.child.wait();
                anyhow::bail!("perf record did not finish within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let report = |extra: &[&str]| -> anyhow::Result<String> {
            let mut cmd = Command::new("perf");
            cmd.args(["report", "--stdio", "-i"]).arg(&self.data).args(extra);
            output_within(cmd, Duration::from_secs(60))
        };
        let by_dso = parse_rows(&report(&["--no-children", "--sort", "dso", "-g", "none"])?)
            .into_iter()
            .map(|(pct, cols)| (pretty_dso(&cols), pct))
            .collect();
        let top_symbols = parse_rows(&report(&["--no-children", "--sort", "dso,sym", "-g", "none"])?)
            .into_iter()
            .take(15)
            .map(|(pct, cols)| {
                let (dso, sym) = split_dso_sym(&cols);
                (pretty_dso(&dso), sym, pct)
            })
            .collect();
        let page_faults = report(&["--children", "--sort", "sym", "-g", "none"])?
            .lines()
            .find(|l| l.contains("asm_exc_page_fault"))
            .and_then(|l| l.split_whitespace().next()?.trim_end_matches('%').parse().ok());
        Ok(Profile {
            seconds: self.seconds,
            by_dso,
            top_symbols,
            page_faults,
        })
    }
}

/// Runs `cmd`, returning its stdout; killed after `timeout`.
fn output_within(mut cmd: Command, timeout: Duration) -> anyhow::Result<String> {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let end = Instant::now() + timeout;
    while child.try_wait()?.is_none() {
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            anyhow::bail!("perf report did not finish within {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(reader.join().unwrap_or_default())
}

/// `(percent, rest of line)` for each data row of a `perf report --stdio`.
fn parse_rows(text: &str) -> Vec<(f64, String)> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let l = l.trim();
            let (pct, rest) = l.split_once('%')?;
            Some((pct.trim().parse().ok()?, rest.trim().to_string()))
        })
        .collect()
}

/// Splits `DSO  [.] symbol` (the DSO may contain spaces, e.g. `[JIT] tid 1`).
fn split_dso_sym(cols: &str) -> (String, String) {
    for marker in ["[.]", "[k]"] {
        if let Some((dso, sym)) = cols.split_once(marker) {
            return (dso.trim().to_string(), sym.trim().to_string());
        }
    }
    (cols.to_string(), String::new())
}

fn pretty_dso(dso: &str) -> String {
    let dso = dso.trim();
    if dso.starts_with("[JIT]") {
        "wasm code (JIT-compiled plugin)".into()
    } else if dso == "[kernel.kallsyms]" {
        "kernel".into()
    } else if dso == "distill" {
        "server binary (native Rust)".into()
    } else {
        dso.to_string()
    }
}

/// A markdown rendering of the profile.
pub fn to_markdown(p: &Profile) -> String {
    let mut out = format!(
        "`perf record -g` of the server for {:.0} s of markdown scrapes at concurrency 1 (an extra, \
         unrecorded phase). Samples by shared object:\n\n",
        p.seconds
    );
    let mut t = crate::report::Table::new(&["shared object", "% of server samples"]);
    for (dso, pct) in p.by_dso.iter().filter(|(_, pct)| *pct >= 0.1) {
        t.row([dso.clone(), crate::stats::f(*pct, 1)]);
    }
    out.push_str(&t.to_markdown());
    if let Some(pf) = p.page_faults {
        out.push_str(&format!(
            "\n{}% of the samples are under a page fault (first touches of fresh memory: each call's new \
             wasm instance's linear memory, and the host's own allocations).\n",
            crate::stats::f(pf, 1)
        ));
    }
    out.push_str("\nHottest symbols (wasm frames have no symbols):\n\n");
    let mut t = crate::report::Table::new(&["%", "where", "symbol"]);
    for (dso, sym, pct) in &p.top_symbols {
        let sym = if sym.len() > 90 {
            format!("{}…", &sym[..sym.floor_char_boundary(90)])
        } else {
            sym.clone()
        };
        t.row([
            crate::stats::f(*pct, 2),
            dso.clone(),
            format!("`{}`", sym.replace('|', "\\|").replace('`', "'")),
        ]);
    }
    out.push_str(&t.to_markdown());
    out
}
