//! Benchmark 6: the `audio` / `video` formats' ffmpeg step, as the server runs
//! it (`distill::media_capability::transcode`: same arguments, same child
//! limits). Inputs are generated here with ffmpeg's test sources (lavfi
//! `testsrc` 640x360 25 fps H.264 + `sine` AAC, in MP4 and in Matroska), so
//! the figures measure extraction, not the network: seconds of wall time and
//! of CPU per minute of media, and the ffmpeg child's `ru_maxrss` from
//! `wait4` (an upper bound: Linux keeps the bench's own size, inherited at
//! fork, in the child's high-water mark across `exec`).

use distill::media_capability::child::ChildLimits;
use distill::media_capability::transcode::{self, MediaKind};
use distill::media_capability::{Scratch, find_tools};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Config {
    /// Lengths of the generated media, seconds.
    pub lengths: Vec<u32>,
    /// Runs per case (the median is reported).
    pub rounds: usize,
    pub work_dir: PathBuf,
}

/// One case's figures.
pub struct Case {
    pub what: &'static str,
    pub media_secs: u32,
    pub input_mib: f64,
    pub wall_per_min: f64,
    pub cpu_per_min: f64,
    pub peak_rss_mib: f64,
}

pub struct Results {
    pub cases: Vec<Case>,
    pub ffmpeg_version: String,
}

fn generate(dir: &Path, secs: u32) -> anyhow::Result<(PathBuf, PathBuf)> {
    let mp4 = dir.join(format!("bench-{secs}s.mp4"));
    let mkv = dir.join(format!("bench-{secs}s.mkv"));
    if !mp4.is_file() {
        let status = Command::new("ffmpeg")
            .args(["-v", "error", "-y", "-f", "lavfi", "-i"])
            .arg(format!("testsrc=duration={secs}:size=640x360:rate=25"))
            .args(["-f", "lavfi", "-i"])
            .arg(format!("sine=frequency=440:duration={secs}"))
            .args([
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-c:a",
                "aac",
                "-shortest",
            ])
            .arg(&mp4)
            .status()?;
        anyhow::ensure!(status.success(), "generating {}", mp4.display());
    }
    if !mkv.is_file() {
        let status = Command::new("ffmpeg")
            .args(["-v", "error", "-y", "-i"])
            .arg(&mp4)
            .args(["-c", "copy", "-f", "matroska"])
            .arg(&mkv)
            .status()?;
        anyhow::ensure!(status.success(), "generating {}", mkv.display());
    }
    Ok((mp4, mkv))
}

pub async fn run(cfg: &Config) -> anyhow::Result<Results> {
    let tools = find_tools(Path::new("/usr/bin/ffmpeg")).map_err(|e| anyhow::anyhow!(e))?;
    std::fs::create_dir_all(&cfg.work_dir)?;
    let version = Command::new(&tools.ffmpeg).arg("-version").output()?;
    let ffmpeg_version = String::from_utf8_lossy(&version.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    let mut cases = Vec::new();
    for &secs in &cfg.lengths {
        eprintln!("  generating {secs} s of media");
        let (mp4, mkv) = generate(&cfg.work_dir, secs)?;
        for (what, input, kind) in [
            ("audio: MP4 (H.264 + AAC) → MP3", &mp4, MediaKind::Audio),
            ("video: Matroska → MP4 remux", &mkv, MediaKind::Video),
        ] {
            let mut walls = Vec::new();
            let mut cpus = Vec::new();
            let mut peaks = Vec::new();
            for _ in 0..cfg.rounds {
                let scratch = Scratch::new(&cfg.work_dir)?;
                std::fs::copy(input, scratch.path().join(transcode::INPUT))?;
                let limits = ChildLimits {
                    memory_bytes: 1 << 30,
                    max_file_bytes: 4 << 30,
                    deadline: Instant::now() + Duration::from_secs(600),
                };
                let produced = transcode::produce(&tools, scratch.path(), kind, limits)
                    .await
                    .map_err(|e| anyhow::anyhow!(e))?;
                let stats = produced
                    .stats
                    .ok_or_else(|| anyhow::anyhow!("no ffmpeg run measured"))?;
                walls.push(stats.wall.as_secs_f64());
                cpus.push(stats.cpu.as_secs_f64());
                peaks.push(stats.peak_rss_kib as f64 / 1024.0);
            }
            let per_min = 60.0 / secs as f64;
            cases.push(Case {
                what,
                media_secs: secs,
                input_mib: std::fs::metadata(input)?.len() as f64 / (1 << 20) as f64,
                wall_per_min: crate::stats::median(&walls) * per_min,
                cpu_per_min: crate::stats::median(&cpus) * per_min,
                peak_rss_mib: peaks.iter().cloned().fold(0.0, f64::max),
            });
        }
    }
    Ok(Results {
        cases,
        ffmpeg_version,
    })
}

pub fn to_markdown(r: &Results) -> String {
    use crate::stats::f;
    let mut out = format!(
        "The ffmpeg step of the `audio` / `video` formats, run as the server runs it \
         (`media_capability::transcode`: same arguments, limits and child process), on media \
         generated with ffmpeg's test sources (640x360 25 fps H.264 + AAC). Median of the runs; \
         peak memory is the child's `ru_maxrss` (largest of the runs), an upper bound that \
         includes this process's own size inherited at fork. {}.\n\n\
         | case | media | input | wall s per minute of media | CPU s per minute | ffmpeg peak RSS |\n\
         |---|---:|---:|---:|---:|---:|\n",
        r.ffmpeg_version
    );
    for c in &r.cases {
        out.push_str(&format!(
            "| {} | {} s | {} MiB | {} | {} | {} MiB |\n",
            c.what,
            c.media_secs,
            f(c.input_mib, 1),
            f(c.wall_per_min, 2),
            f(c.cpu_per_min, 2),
            f(c.peak_rss_mib, 1)
        ));
    }
    out.push_str(
        "\nFetching the file is not included (loopback or network time comes on top); the \
         server runs one ffmpeg per requested format, under `DISTILL_FFMPEG_MEMORY_MIB` (1024).\n",
    );
    out
}
