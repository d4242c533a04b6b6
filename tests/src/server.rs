//! Starting and stopping the real `distill` binary for a test.
//!
//! [`TestServer::start`] spawns `$DISTILL_BIN` on an ephemeral port with a
//! fresh data directory under `target/e2e-tmp/`, waits (up to 60 s) for the
//! `distill listening on http://…` line on stdout, and keeps everything the
//! server writes to stderr in a buffer ([`TestServer::logs`]). The process is
//! killed when the `TestServer` is dropped. Servers kept in statics (see
//! [`shared`]) are never dropped, so every child is also killed at process exit
//! (an `atexit` hook) and, should the test process die abruptly, by the kernel
//! (`PR_SET_PDEATHSIG`, armed from a spawner thread that lives as long as the
//! process).

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use crate::cold_start::ColdStart;

/// How long a server may take to print its listening line. Generous: the first
/// server of a clean run compiles every plugin (the PDF converter alone takes
/// ~20 s of CPU) while other tests compete for the same two cores.
const START_TIMEOUT: Duration = Duration::from_secs(180);

/// Which plugins the server loads.
#[derive(Debug, Clone)]
pub enum Plugins {
    /// `$DISTILL_SHIPPED_PLUGINS_DIR` (markdown).
    Shipped,
    /// A temporary directory holding the shipped plugins plus the named
    /// test-only ones from `$DISTILL_TEST_PLUGINS_DIR` (file stems, e.g.
    /// `"misbehave"` for `misbehave.wasm`).
    ShippedAnd(&'static [&'static str]),
    /// An empty directory: no plugin at all.
    Empty,
    /// This directory, as it is (the test prepares it).
    Dir(PathBuf),
}

/// How to start a server.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// `DISTILL_ALLOW_PRIVATE_TARGETS` (on by default: the fixture site is on
    /// 127.0.0.1); `None` leaves the variable unset (the server's own default).
    pub allow_private_targets: Option<bool>,
    pub plugins: Plugins,
    /// `DISTILL_LOG_FORMAT=json` instead of text.
    pub json_logs: bool,
    /// `DISTILL_DATA_DIR` exactly as given; `None` = a fresh absolute directory.
    pub data_dir: Option<String>,
    /// Working directory of the process; `None` = the server's temp directory.
    pub cwd: Option<PathBuf>,
    /// Extra environment variables, applied last.
    pub env: Vec<(String, String)>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            allow_private_targets: Some(true),
            plugins: Plugins::Shipped,
            json_logs: false,
            data_dir: None,
            cwd: None,
            env: Vec::new(),
        }
    }
}

impl ServerOptions {
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_string(), value.to_string()));
        self
    }
}

/// A running `distill` process.
pub struct TestServer {
    url: String,
    child: Mutex<Child>,
    pid: u32,
    logs: Arc<Mutex<String>>,
    tmp: PathBuf,
    plugins_dir: PathBuf,
    /// Where the server keeps its Chromium profiles (`DATA_DIR/browser`).
    browser_profiles: PathBuf,
}

impl TestServer {
    /// Starts a server; panics (with its logs) if it does not come up.
    pub fn start(opts: ServerOptions) -> TestServer {
        let tmp = fresh_tmp_dir();
        let plugins_dir = match opts.plugins {
            Plugins::Shipped => shipped_plugins_dir(),
            Plugins::ShippedAnd(names) => {
                let dir = tmp.join("plugins");
                fill_shipped_and(&dir, names);
                dir
            }
            Plugins::Empty => {
                let dir = tmp.join("plugins");
                std::fs::create_dir_all(&dir).unwrap();
                dir
            }
            Plugins::Dir(dir) => dir,
        };
        let data_dir = opts
            .data_dir
            .clone()
            .unwrap_or_else(|| tmp.join("data").to_string_lossy().into_owned());

        let mut cmd = Command::new(distill_bin());
        // Nothing from the caller's environment may configure the server
        // (the Makefile exports DISTILL_DATA_DIR, for instance).
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("DISTILL_") {
                cmd.env_remove(&key);
            }
        }
        cmd.env("DISTILL_HOST", "127.0.0.1")
            .env("DISTILL_PORT", "0")
            .env("DISTILL_PLUGINS_DIR", &plugins_dir)
            .env("DISTILL_DATA_DIR", &data_dir)
            .env("DISTILL_WASM_CACHE_DIR", shared_wasm_cache_dir())
            .env("DISTILL_LOG", "info")
            .env("DISTILL_LOG_FORMAT", if opts.json_logs { "json" } else { "text" });
        if let Some(allow) = opts.allow_private_targets {
            cmd.env(
                "DISTILL_ALLOW_PRIVATE_TARGETS",
                if allow { "true" } else { "false" },
            );
        }
        for (k, v) in &opts.env {
            cmd.env(k, v);
        }
        cmd.current_dir(opts.cwd.as_deref().unwrap_or(&tmp))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());

        let cache_dir = opts
            .env
            .iter()
            .rev()
            .find(|(key, _)| key == "DISTILL_WASM_CACHE_DIR")
            .map_or_else(shared_wasm_cache_dir, |(_, dir)| PathBuf::from(dir));
        let cold_start = ColdStart::begin(&cache_dir, &distill_bin(), &plugins_dir);

        let cwd = opts.cwd.clone().unwrap_or_else(|| tmp.clone());
        let browser_profiles = cwd.join(&data_dir).join("browser");
        let mut child = spawn_tied_to_process(cmd);
        let pid = child.id();
        register_pid(pid, &tmp, &browser_profiles);

        let logs = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = logs.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf));
                buf.clear();
            }
        });

        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(url) = line.strip_prefix("distill listening on ")
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });

        let started = Instant::now();
        let url = match rx.recv_timeout(START_TIMEOUT) {
            Ok(url) => url,
            Err(e) => {
                let _ = child.kill();
                let status = child.wait().ok();
                unregister_pid(pid);
                let _ = std::fs::remove_dir_all(&tmp);
                // Let the stderr reader catch up.
                std::thread::sleep(Duration::from_millis(200));
                panic!(
                    "distill did not start ({e:?}, exit status {status:?}, after {:?}); logs:\n{}",
                    started.elapsed(),
                    logs.lock().unwrap()
                );
            }
        };
        // stdout and stderr are separate pipes read by separate threads: the listening
        // line on stdout can arrive before the reader has taken the startup logs off
        // stderr. The server logs "distill listening" to stderr before it prints the
        // line on stdout, so once that log line is in the buffer, so is everything the
        // server logged while starting (plugins loaded or refused, grants, conflicts).
        let until = Instant::now() + START_TIMEOUT;
        while !logs.lock().unwrap().contains("distill listening") && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        cold_start.warmed();
        TestServer {
            url,
            child: Mutex::new(child),
            pid,
            logs,
            browser_profiles,
            tmp,
            plugins_dir,
        }
    }

    /// The plugins directory this server watches.
    pub fn plugins_dir(&self) -> &Path {
        &self.plugins_dir
    }

    /// Base URL, e.g. `http://127.0.0.1:40123` (no trailing slash).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// `url()` + `path`.
    pub fn endpoint(&self, path: &str) -> String {
        format!("{}{}", self.url, path)
    }

    /// A figure of the server's `/metrics`: the sum of its series, 0 if absent.
    pub async fn metric(&self, name: &str) -> f64 {
        let metrics = crate::client::get(&self.endpoint("/metrics")).await;
        metrics
            .body
            .lines()
            .filter(|l| {
                l.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with([' ', '{']))
            })
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Everything the server wrote to stderr so far.
    pub fn logs(&self) -> String {
        self.logs.lock().unwrap().clone()
    }

    /// Waits until `pred(logs)` holds or `timeout` passes; returns the last logs
    /// and whether the predicate held.
    pub fn wait_for_logs(&self, timeout: Duration, pred: impl Fn(&str) -> bool) -> (bool, String) {
        let deadline = Instant::now() + timeout;
        loop {
            let logs = self.logs();
            if pred(&logs) {
                return (true, logs);
            }
            if Instant::now() >= deadline {
                return (false, logs);
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// True while the process has not exited.
    pub fn is_running(&self) -> bool {
        matches!(self.child.lock().unwrap().try_wait(), Ok(None))
    }

    /// Sends SIGTERM (a graceful shutdown) and waits up to `timeout` for the
    /// process to exit; true when it did.
    pub fn terminate(&self, timeout: Duration) -> bool {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.pid as libc::pid_t, libc::SIGTERM) };
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if !self.is_running() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
        unregister_pid(self.pid);
        remove_chromium_singletons(&self.browser_profiles, 2);
        let _ = std::fs::remove_dir_all(&self.tmp);
    }
}

/// Removes the directories a Chromium of the killed server made in the
/// system temp dir for its single-instance socket (`org.chromium.Chromium.*`,
/// linked from its profile as `SingletonSocket`): the server removes them on
/// a graceful stop or at its next start, but a test server is killed and its
/// data dir goes with it.
fn remove_chromium_singletons(dir: &Path, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_symlink() && entry.file_name() == "SingletonSocket" {
            if let Some(linked) = std::fs::read_link(&path)
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                && linked
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("org.chromium.Chromium."))
            {
                let _ = std::fs::remove_dir_all(linked);
            }
        } else if kind.is_dir() && depth > 0 {
            remove_chromium_singletons(&path, depth - 1);
        }
    }
}

/// One default server per test binary (started on first use).
pub fn shared() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| TestServer::start(ServerOptions::default()))
}

// ---------------------------------------------------------------------------
// Locations of the binary, the plugins and scratch space.

fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| {
            if p.is_absolute() {
                p
            } else {
                workspace_dir().join(p)
            }
        })
        .unwrap_or_else(|| workspace_dir().join("target"))
}

fn from_env_or(var: &str, default: PathBuf) -> PathBuf {
    let path = std::env::var_os(var).map(PathBuf::from).unwrap_or(default);
    assert!(
        path.exists(),
        "{} does not exist (set {var}, or run `make test`, which builds it first)",
        path.display()
    );
    path
}

/// Compiled plugin code shared by every test server of every test binary
/// (`DISTILL_TEST_WASM_CACHE_DIR`, else `target/test-wasm-cache`): the PDF
/// converter alone takes ~20 s to compile, so each server must not redo it.
pub fn shared_wasm_cache_dir() -> PathBuf {
    std::env::var_os("DISTILL_TEST_WASM_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/test-wasm-cache"))
}

/// `$DISTILL_BIN`, else `target/release/distill`.
pub fn distill_bin() -> PathBuf {
    from_env_or("DISTILL_BIN", target_dir().join("release/distill"))
}

/// `$DISTILL_SHIPPED_PLUGINS_DIR`, else `target/release/plugins`.
pub fn shipped_plugins_dir() -> PathBuf {
    from_env_or(
        "DISTILL_SHIPPED_PLUGINS_DIR",
        target_dir().join("release/plugins"),
    )
}

/// `$DISTILL_TEST_PLUGINS_DIR`, else `target/test-plugins`.
pub fn test_plugins_dir() -> PathBuf {
    from_env_or("DISTILL_TEST_PLUGINS_DIR", target_dir().join("test-plugins"))
}

/// Where `make` puts example plugins built from other languages
/// (`$DISTILL_EXAMPLE_PLUGINS_DIR`, else `target/example-plugins`).
pub fn example_plugins_dir() -> PathBuf {
    std::env::var_os("DISTILL_EXAMPLE_PLUGINS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("example-plugins"))
}

pub fn copy_wasm_files(from: &Path, to: &Path) {
    let mut copied = 0;
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wasm") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
            copied += 1;
        }
    }
    assert!(copied > 0, "no *.wasm in {}", from.display());
}

/// A new empty directory `target/e2e-tmp/<pid>-<n>-<nanos>/`.
pub fn fresh_tmp_dir() -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let dir = target_dir().join("e2e-tmp").join(format!(
        "{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A [`fresh_tmp_dir`] removed (with its contents) when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        TempDir(fresh_tmp_dir())
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Default for TempDir {
    fn default() -> Self {
        TempDir::new()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------
// Making sure no server outlives the test process.

type SpawnJob = (Command, mpsc::Sender<std::io::Result<Child>>);

/// Spawns `cmd` from a thread that lives until the process exits, with
/// `PR_SET_PDEATHSIG = SIGKILL` (the signal fires when the *spawning thread*
/// dies, so it must not be a short-lived test thread).
fn spawn_tied_to_process(mut cmd: Command) -> Child {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnJob>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnJob>();
        std::thread::Builder::new()
            .name("e2e-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .unwrap();
        Mutex::new(tx)
    });
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let (tx, rx) = mpsc::channel();
    spawner.lock().unwrap().send((cmd, tx)).unwrap();
    rx.recv().unwrap().expect("spawning distill")
}

/// Live servers: pid, scratch dir, Chromium profiles dir.
static LIVE: Mutex<Vec<(u32, PathBuf, PathBuf)>> = Mutex::new(Vec::new());

fn register_pid(pid: u32, dir: &Path, browser_profiles: &Path) {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        // SAFETY: registering a plain extern "C" function.
        unsafe { libc::atexit(kill_live_servers) };
    });
    LIVE.lock()
        .unwrap()
        .push((pid, dir.to_path_buf(), browser_profiles.to_path_buf()));
}

fn unregister_pid(pid: u32) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(p, _, _)| *p != pid);
}

extern "C" fn kill_live_servers() {
    let live = match LIVE.try_lock() {
        Ok(mut live) => std::mem::take(&mut *live),
        Err(_) => return,
    };
    for (pid, dir, browser_profiles) in live {
        // SAFETY: signalling and reaping our own child.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
            libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
        }
        remove_chromium_singletons(&browser_profiles, 2);
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A plugins directory holding the shipped plugins except `left_out` (file
/// stems): a server on it lacks those formats.
pub fn plugins_dir_without(left_out: &[&str]) -> PathBuf {
    let dir = fresh_tmp_dir().join("plugins");
    std::fs::create_dir_all(&dir).unwrap();
    copy_wasm_files(&shipped_plugins_dir(), &dir);
    for name in left_out {
        std::fs::remove_file(dir.join(format!("{name}.wasm"))).unwrap();
    }
    dir
}

/// A fresh plugins directory with the shipped plugins and the named test
/// plugins (`<name>.wasm` from [`test_plugins_dir`]), for a test that needs
/// its path (e.g. to change it while the server runs); [`Plugins::ShippedAnd`]
/// makes the same directory inside the server's own temporary directory.
pub fn plugins_dir_with(test_plugins: &[&str]) -> PathBuf {
    let dir = fresh_tmp_dir().join("plugins");
    fill_shipped_and(&dir, test_plugins);
    dir
}

/// Creates `dir` and copies the shipped plugins and the named test plugins
/// into it.
fn fill_shipped_and(dir: &Path, test_plugins: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    copy_wasm_files(&shipped_plugins_dir(), dir);
    for name in test_plugins {
        let file = format!("{name}.wasm");
        let from = test_plugins_dir().join(&file);
        std::fs::copy(&from, dir.join(&file)).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
    }
}
