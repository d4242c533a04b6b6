//! Runs ffmpeg / ffprobe as a child process: no shell, a cleared environment,
//! a private working directory, stdout and stderr into files there, and
//! limits set between fork and exec — address space (memory), CPU seconds,
//! output file size, no core dumps, killed with the server — plus a wall-clock
//! watchdog at the request's deadline. Reports `ru_maxrss` from `wait4` for
//! the benchmark — an upper bound: Linux carries the forking process's
//! high-water mark into the child across `exec`.

use crate::parent_death::die_with_parent;
use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits of one child.
#[derive(Clone, Copy, Debug)]
pub struct ChildLimits {
    /// Address-space cap (RLIMIT_AS), bytes.
    pub memory_bytes: u64,
    /// Largest file the child may write (RLIMIT_FSIZE), bytes.
    pub max_file_bytes: u64,
    /// When the child is killed.
    pub deadline: Instant,
}

/// How a child ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChildStats {
    pub wall: Duration,
    /// User + system CPU time.
    pub cpu: Duration,
    /// `ru_maxrss`, KiB: the child's peak, or the parent's size at fork if larger.
    pub peak_rss_kib: u64,
}

/// What a finished child left.
#[derive(Debug)]
pub struct ChildOutput {
    pub success: bool,
    /// Killed by the watchdog or by the CPU limit.
    pub timed_out: bool,
    /// Killed by a signal (other than the time limits).
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub stats: ChildStats,
}

/// Runs `program` with `args` in `dir` (which must be private to this call).
/// Errors are only for a child that could not be started.
pub async fn run(
    program: &Path,
    args: &[OsString],
    dir: &Path,
    limits: ChildLimits,
) -> std::io::Result<ChildOutput> {
    let stdout_path = dir.join("child.stdout");
    let stderr_path = dir.join("child.stderr");
    let remaining = limits.deadline.saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Ok(ChildOutput {
            success: false,
            timed_out: true,
            signal: None,
            stdout: String::new(),
            stderr: String::new(),
            stats: ChildStats::default(),
        });
    }
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .env_clear()
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path)?)
        .stderr(std::fs::File::create(&stderr_path)?);
    let cpu_secs = remaining.as_secs() + 1;
    let memory = limits.memory_bytes;
    let fsize = limits.max_file_bytes;
    // SAFETY: only async-signal-safe calls (setrlimit) run between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            set_limit(libc::RLIMIT_AS, memory)?;
            set_limit(libc::RLIMIT_CPU, cpu_secs)?;
            set_limit(libc::RLIMIT_FSIZE, fsize)?;
            set_limit(libc::RLIMIT_CORE, 0)
        });
    }
    // Killed with the server (set after the limits, as it was).
    die_with_parent(&mut cmd, false);
    let started = Instant::now();
    let child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    // `None` while the child runs; the watchdog kills only then (the child is
    // not reaped before this is set, so its pid cannot have been reused).
    let finished = Arc::new(Mutex::new(false));
    let killed = Arc::new(Mutex::new(false));
    let watchdog = {
        let finished = finished.clone();
        let killed = killed.clone();
        tokio::spawn(async move {
            tokio::time::sleep_until(limits.deadline.into()).await;
            let done = finished.lock().expect("watchdog lock");
            if !*done {
                // SAFETY: plain syscall on a child we have not reaped yet.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                *killed.lock().expect("watchdog lock") = true;
            }
        })
    };
    let (status, rusage) = tokio::task::spawn_blocking(move || wait(pid, &finished))
        .await
        .map_err(std::io::Error::other)??;
    watchdog.abort();
    drop(child);
    let wall = started.elapsed();
    let signal = status.signal();
    let timed_out = *killed.lock().expect("watchdog lock") || signal == Some(libc::SIGXCPU);
    let read = |p: &PathBuf| {
        let bytes = std::fs::read(p).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Ok(ChildOutput {
        success: status.success(),
        timed_out,
        signal: signal.filter(|_| !timed_out),
        stdout: read(&stdout_path),
        stderr: read(&stderr_path),
        stats: ChildStats {
            wall,
            cpu: timeval(rusage.ru_utime) + timeval(rusage.ru_stime),
            peak_rss_kib: rusage.ru_maxrss.max(0) as u64,
        },
    })
}

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value as libc::rlim_t,
        rlim_max: value as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct we pass.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Waits for the child to exit without reaping it, marks it finished (so the
/// watchdog leaves it alone), then reaps it with its resource usage.
fn wait(
    pid: libc::pid_t,
    finished: &Mutex<bool>,
) -> std::io::Result<(std::process::ExitStatus, libc::rusage)> {
    loop {
        // SAFETY: zeroed siginfo is a valid out-parameter for waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    *finished.lock().expect("watchdog lock") = true;
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid out-parameter for wait4.
    let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut rusage) };
        if r == pid {
            return Ok((std::process::ExitStatus::from_raw(status), rusage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("distill-child-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn limits(secs: u64) -> ChildLimits {
        ChildLimits {
            memory_bytes: 512 << 20,
            max_file_bytes: 1 << 20,
            deadline: Instant::now() + Duration::from_secs(secs),
        }
    }

    #[tokio::test]
    async fn output_and_status_are_reported() {
        let dir = scratch();
        let out = run(Path::new("/bin/echo"), &["hello".into()], &dir, limits(5))
            .await
            .unwrap();
        assert!(out.success && !out.timed_out);
        assert_eq!(out.stdout, "hello\n");
        assert!(out.stats.peak_rss_kib > 0);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn a_child_past_the_deadline_is_killed() {
        let dir = scratch();
        let started = Instant::now();
        let out = run(Path::new("/bin/sleep"), &["30".into()], &dir, limits(1))
            .await
            .unwrap();
        assert!(!out.success && out.timed_out, "{out:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn the_environment_is_cleared() {
        let dir = scratch();
        let out = run(Path::new("/usr/bin/env"), &[], &dir, limits(5))
            .await
            .unwrap();
        assert!(out.success);
        assert_eq!(out.stdout, "");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
