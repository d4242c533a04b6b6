//! Reading CPU time and memory of a process from `/proc` (Linux): utime+stime
//! in clock ticks, per-thread run time from `schedstat` (nanoseconds, a
//! finer cross-check), `VmHWM`/`VmRSS`, and this process's own CPU clock.

use std::time::Duration;

/// Clock ticks per second (`sysconf(_SC_CLK_TCK)`).
pub fn clock_ticks_per_sec() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as u64 } else { 100 }
}

/// A CPU-time reading of a process.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuSample {
    /// utime + stime from `/proc/PID/stat`.
    pub ticks: u64,
    /// Sum over live threads of the first field of `/proc/PID/task/*/schedstat`.
    pub sched: Option<Duration>,
}

impl CpuSample {
    pub fn read(pid: u32) -> anyhow::Result<CpuSample> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
        // Fields after the command name (which may hold spaces) start at field 3.
        let rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r)
            .ok_or_else(|| anyhow::anyhow!("unexpected /proc/{pid}/stat"))?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |n: usize| -> anyhow::Result<u64> {
            Ok(fields
                .get(n - 3)
                .ok_or_else(|| anyhow::anyhow!("short stat"))?
                .parse()?)
        };
        Ok(CpuSample {
            ticks: field(14)? + field(15)?,
            sched: sched_total(pid),
        })
    }

    /// CPU time elapsed between two readings, from the tick counters.
    pub fn ticks_since(&self, earlier: &CpuSample) -> Duration {
        let ticks = self.ticks.saturating_sub(earlier.ticks);
        Duration::from_secs_f64(ticks as f64 / clock_ticks_per_sec() as f64)
    }

    /// The same from schedstat (threads that exited in between are missed).
    pub fn sched_since(&self, earlier: &CpuSample) -> Option<Duration> {
        Some(self.sched?.saturating_sub(earlier.sched?))
    }
}

fn sched_total(pid: u32) -> Option<Duration> {
    let mut total: u64 = 0;
    for entry in std::fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let text = std::fs::read_to_string(entry.path().join("schedstat")).ok()?;
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// A `kB` field of `/proc/PID/status` (e.g. `VmHWM`, `VmRSS`), in KiB.
pub fn status_kib(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.strip_prefix(':')?;
        value.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

/// CPU time consumed so far by this process (all threads).
pub fn self_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
