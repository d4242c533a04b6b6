//! The real local language model for the model tests: `scripts/local-llm.py`
//! (llama.cpp's server from PyPI xllamacpp) serving SmolLM2-135M-Instruct on a
//! free loopback port with one thread, installed by `make local-llm` under
//! `target/tools/llm` (or `$DISTILL_LOCAL_LLM_DIR`). Started once per test
//! process ([`local_llm`]); killed at exit, and by the kernel should the test
//! process die (the launcher sets `PR_SET_PDEATHSIG`).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The model's context window the tests run it with (tokens).
pub const LOCAL_LLM_CONTEXT: u32 = 4096;

/// A running local model.
pub struct LocalLlm {
    port: u16,
}

impl LocalLlm {
    /// `http://127.0.0.1:<port>/v1`, for `DISTILL_LLM_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

/// Where `make local-llm` put the interpreter and the weights.
pub fn local_llm_dir() -> PathBuf {
    std::env::var_os("DISTILL_LOCAL_LLM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tools/llm"))
}

/// Whether `make local-llm` has run.
pub fn local_llm_installed() -> bool {
    let dir = local_llm_dir();
    dir.join("venv/bin/python").exists() && dir.join("SmolLM2-135M-Instruct.Q4_1.gguf").exists()
}

static CHILD: Mutex<Option<Child>> = Mutex::new(None);

/// Model calls of the tests, one at a time: the model decodes one request at
/// a time (one thread), so concurrent tests would only queue inside it and
/// count the wait against their HTTP timeouts.
pub async fn local_llm_turn() -> tokio::sync::MutexGuard<'static, ()> {
    static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    TURN.lock().await
}

/// The shared local model of this test process, started on first use.
/// Panics with the command to run when it is not installed.
pub fn local_llm() -> &'static LocalLlm {
    static LLM: OnceLock<LocalLlm> = OnceLock::new();
    LLM.get_or_init(start)
}

fn start() -> LocalLlm {
    assert!(
        local_llm_installed(),
        "the local model is not installed in {}: run `make local-llm` (make test does)",
        local_llm_dir().display()
    );
    let dir = local_llm_dir();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/local-llm.py");
    let mut command = Command::new(dir.join("venv/bin/python"));
    command
        .arg(script)
        .arg("--model")
        .arg(dir.join("SmolLM2-135M-Instruct.Q4_1.gguf"))
        .args([
            "--port",
            &port.to_string(),
            "--ctx",
            &LOCAL_LLM_CONTEXT.to_string(),
            "--threads",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // The launcher's PR_SET_PDEATHSIG fires when the *thread* that spawned it
    // ends: spawn from a thread that lives as long as the test process, not
    // from the (short-lived) test thread that happens to start the model.
    let (spawned_tx, spawned_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = spawned_tx.send(command.spawn());
        loop {
            std::thread::park();
        }
    });
    let mut child = spawned_rx
        .recv()
        .expect("the spawner thread answers")
        .expect("start scripts/local-llm.py");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("local-llm listening on") {
                let _ = tx.send(());
            }
        }
    });
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        if rx.recv_timeout(Duration::from_millis(200)).is_ok() {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the local model exited before listening: {status}");
        }
        assert!(
            Instant::now() < until,
            "the local model did not listen within 120 s"
        );
    }
    *CHILD.lock().unwrap() = Some(child);
    extern "C" fn stop_at_exit() {
        if let Ok(mut slot) = CHILD.lock()
            && let Some(mut child) = slot.take()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
    // SAFETY: registering a plain `extern "C"` function with libc's atexit.
    unsafe {
        libc::atexit(stop_at_exit);
    }
    LocalLlm { port }
}
