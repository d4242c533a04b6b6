//! Interact's `code` in `language: "node"`: a child `node` running
//! [`HARNESS`] (playwright-core over CDP to the server's Chromium, the
//! session's page as `page`). The code goes in on stdin (never through a
//! shell or the command line). The child runs under Node's permission model
//! (reads only playwright-core and its own scratch directory, writes only
//! the latter, no child processes, workers or native addons), with an empty
//! environment and a capped heap, in its own process group killed at the
//! timeout, and dies with the server (`PR_SET_PDEATHSIG`). stdout and stderr
//! are kept up to [`MAX_OUTPUT`] bytes each.

use crate::parent_death::die_with_parent;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

/// The harness the child runs.
pub const HARNESS: &str = include_str!("interact.js");

/// Bytes of stdout (and of stderr) kept; the rest is read and dropped.
pub const MAX_OUTPUT: usize = 1 << 20;

/// The child's JavaScript heap, MiB.
const HEAP_MIB: u32 = 256;

/// Where node and playwright-core are.
#[derive(Debug, Clone)]
pub struct NodeSettings {
    /// The `node` binary.
    pub node: PathBuf,
    /// The npm prefix holding `node_modules/playwright-core`.
    pub playwright_dir: PathBuf,
    /// Scratch directories of runs go under this one.
    pub scratch: PathBuf,
}

/// What one run gave.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeOutcome {
    pub stdout: String,
    pub stderr: String,
    /// The code's value (a string; JSON for other values), `null` when none.
    pub result: Value,
    pub exit_code: i32,
    /// True when the timeout killed the child.
    pub killed: bool,
}

impl NodeSettings {
    /// From the environment: `DISTILL_NODE` (default: `node` on `PATH`),
    /// `DISTILL_PLAYWRIGHT_DIR` (default: `target/tools/playwright` next to
    /// the server's build, else under the working directory); scratch
    /// directories under `data_dir/tmp/interact`.
    pub fn from_env(data_dir: &Path) -> NodeSettings {
        let node = std::env::var_os("DISTILL_NODE")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::split_paths(&std::env::var_os("PATH")?)
                    .map(|dir| dir.join("node"))
                    .find(|p| p.is_file())
            })
            .unwrap_or_else(|| PathBuf::from("/usr/bin/node"));
        let beside_build = std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.parent()?.join("tools").join("playwright")));
        let playwright_dir = std::env::var_os("DISTILL_PLAYWRIGHT_DIR")
            .map(PathBuf::from)
            .or(beside_build.filter(|d| d.is_dir()))
            .unwrap_or_else(|| PathBuf::from("target/tools/playwright"));
        NodeSettings {
            node,
            playwright_dir,
            scratch: data_dir.join("tmp").join("interact"),
        }
    }

    /// playwright-core's directory, or why it cannot be used.
    fn playwright(&self) -> Result<PathBuf, String> {
        let dir = self.playwright_dir.join("node_modules").join("playwright-core");
        if dir.join("package.json").is_file() {
            return Ok(dir);
        }
        Err(format!(
            "playwright-core is not installed in {} (`make browser-tools` installs it; \
             DISTILL_PLAYWRIGHT_DIR names another npm prefix)",
            self.playwright_dir.display()
        ))
    }
}

/// Runs `code` against the page `target_id` of the Chromium at `cdp_url`,
/// killing it after `timeout`.
pub async fn run(
    settings: &NodeSettings,
    cdp_url: &str,
    target_id: &str,
    code: &str,
    timeout: Duration,
) -> Result<CodeOutcome, String> {
    let playwright = settings.playwright()?;
    let run_dir = settings.scratch.join(uuid::Uuid::new_v4().simple().to_string());
    std::fs::create_dir_all(&run_dir).map_err(|e| format!("creating {}: {e}", run_dir.display()))?;
    let outcome = run_in(
        settings,
        &playwright,
        &run_dir,
        (cdp_url, target_id),
        code,
        timeout,
    )
    .await;
    let _ = std::fs::remove_dir_all(&run_dir);
    outcome
}

async fn run_in(
    settings: &NodeSettings,
    playwright: &Path,
    run_dir: &Path,
    (cdp_url, target_id): (&str, &str),
    code: &str,
    timeout: Duration,
) -> Result<CodeOutcome, String> {
    let harness = run_dir.join("harness.js");
    std::fs::write(&harness, HARNESS).map_err(|e| format!("writing the harness: {e}"))?;
    let marker = format!("__distill_result_{}__", uuid::Uuid::new_v4().simple());
    let mut cmd = Command::new(&settings.node);
    cmd.arg(permission_flag(&settings.node).await)
        .arg(format!("--allow-fs-read={}/", playwright.display()))
        .arg(format!("--allow-fs-read={}/", run_dir.display()))
        .arg(format!("--allow-fs-write={}/", run_dir.display()))
        // playwright-core probes these at load (WSL detection).
        .arg("--allow-fs-read=/proc/version")
        .arg("--allow-fs-read=/proc/sys/fs/binfmt_misc/WSLInterop")
        .arg("--allow-fs-read=/run/WSL")
        .arg("--no-warnings")
        .arg(format!("--max-old-space-size={HEAP_MIB}"))
        .arg(&harness)
        .env_clear()
        .env("DISTILL_PLAYWRIGHT", playwright)
        .env("DISTILL_RESULT_MARKER", &marker)
        .env("DISTILL_CDP_URL", cdp_url)
        .env("DISTILL_TARGET_ID", target_id)
        .env("TMPDIR", run_dir)
        .env("HOME", run_dir)
        .current_dir(run_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    die_with_parent(cmd.as_std_mut(), true);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("starting {}: {e}", settings.node.display()))?;
    let pid = child.id().unwrap_or(0) as i32;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let code = code.to_string();
    let feeding = tokio::spawn(async move {
        let _ = stdin.write_all(code.as_bytes()).await;
    });
    let stdout = tokio::spawn(read_capped(child.stdout.take().ok_or("no stdout")?));
    let stderr = tokio::spawn(read_capped(child.stderr.take().ok_or("no stderr")?));
    let (status, killed) = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(status) => (status.map_err(|e| e.to_string())?, false),
        Err(_) => {
            // SAFETY: a plain syscall on the child's own process group.
            unsafe { libc::killpg(pid, libc::SIGKILL) };
            let _ = child.start_kill();
            (child.wait().await.map_err(|e| e.to_string())?, true)
        }
    };
    feeding.abort();
    let stdout = stdout.await.unwrap_or_default();
    let stderr = stderr.await.unwrap_or_default();
    let (stdout, result) = split_result(&stdout, &marker);
    let exit_code = status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + status.signal().unwrap_or(0)
    });
    Ok(CodeOutcome {
        stdout,
        stderr,
        result,
        exit_code,
        killed,
    })
}

/// Node 22 names the permission model `--permission`; Node 20 and 21
/// `--experimental-permission`.
async fn permission_flag(node: &Path) -> &'static str {
    let version = Command::new(node).arg("--version").output().await;
    let major = version
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| {
            v.trim()
                .trim_start_matches('v')
                .split('.')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .unwrap_or(0);
    if major >= 22 {
        "--permission"
    } else {
        "--experimental-permission"
    }
}

/// Reads `stream` to its end, keeping the first [`MAX_OUTPUT`] bytes.
async fn read_capped(mut stream: impl AsyncRead + Unpin) -> String {
    let mut kept = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let mut dropped = false;
    while let Ok(n) = stream.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let room = MAX_OUTPUT.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
        dropped |= n > room;
    }
    let mut text = String::from_utf8_lossy(&kept).into_owned();
    if dropped {
        text.push_str("\n[output truncated]");
    }
    text
}

/// The code's own stdout and its result (after the last marker line).
fn split_result(stdout: &str, marker: &str) -> (String, Value) {
    let tag = format!("\n{marker}");
    match stdout.rfind(&tag) {
        Some(at) => {
            let line = stdout[at + tag.len()..].lines().next().unwrap_or("");
            let result = serde_json::from_str(line).unwrap_or(Value::Null);
            (stdout[..at].to_string(), result)
        }
        None => (stdout.to_string(), Value::Null),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_is_split_from_the_codes_own_output() {
        let (out, result) = split_result("hello\nworld\n\n__m__\"title\"\n", "__m__");
        assert_eq!(out, "hello\nworld\n");
        assert_eq!(result, Value::String("title".into()));
        let (out, result) = split_result("no marker\n", "__m__");
        assert_eq!((out.as_str(), result), ("no marker\n", Value::Null));
    }

    #[tokio::test]
    async fn output_past_the_cap_is_dropped_and_said() {
        let big = vec![b'x'; MAX_OUTPUT + 10];
        let text = read_capped(&big[..]).await;
        assert!(text.ends_with("[output truncated]"));
        assert_eq!(text.len(), MAX_OUTPUT + "\n[output truncated]".len());
    }
}
