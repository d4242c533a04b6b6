//! What the benchmarks ran on: CPU model, cores, memory, kernel, rustc, load
//! average and the date, read from `/proc` and `rustc -V`.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// A description of the machine at the start of the run.
pub struct Machine {
    pub cpu_model: String,
    pub logical_cpus: usize,
    pub available_parallelism: usize,
    pub mem_total_gib: f64,
    pub kernel: String,
    pub rustc: String,
    pub load_avg: String,
    pub date_utc: String,
}

impl Machine {
    pub fn probe() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")?
                    .split_once(':')
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let logical_cpus = cpuinfo.lines().filter(|l| l.starts_with("processor")).count();
        let mem_kib: f64 = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
            .unwrap_or(0.0);
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let rustc = Command::new(rustc)
            .arg("-V")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpu_model,
            logical_cpus,
            available_parallelism: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            mem_total_gib: mem_kib / (1024.0 * 1024.0),
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| "unknown".into()),
            rustc,
            load_avg: load_avg(),
            date_utc: utc_now(),
        }
    }

    /// A markdown bullet list.
    pub fn to_markdown(&self) -> String {
        format!(
            "- CPU: {} ({} logical CPUs in /proc/cpuinfo, {} available to this process)\n\
             - Memory: {:.1} GiB\n\
             - Kernel: Linux {}\n\
             - Compiler: {}\n\
             - Load average at start (1/5/15 min): {}\n\
             - Date: {}\n",
            self.cpu_model,
            self.logical_cpus,
            self.available_parallelism,
            self.mem_total_gib,
            self.kernel,
            self.rustc,
            self.load_avg,
            self.date_utc
        )
    }
}

/// The first three fields of `/proc/loadavg`.
pub fn load_avg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
    }
}
