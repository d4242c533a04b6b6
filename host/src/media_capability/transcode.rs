//! From a fetched media file to what a format asked for: ffprobe reads its
//! container and streams; `audio` extracts the first audio track to MP3;
//! `video` keeps MP4 and WebM files as they are and remuxes anything else to
//! MP4 (no re-encoding). Every argument is fixed here or a file name of ours:
//! nothing from the page reaches the command line. Demuxers are limited to
//! plain media containers and protocols to local files, so a playlist or
//! concat file cannot make ffmpeg open other files or the network.

use super::child::{ChildLimits, ChildOutput, ChildStats, run};
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MediaKind {
    Audio,
    Video,
}

/// Demuxers ffmpeg may use on fetched files (by their ffmpeg names).
const DEMUXERS: &str =
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mp3,ogg,wav,flac,aac,avi,flv,mpegts,asf,aiff,caf,m4v";

/// Codecs a WebM file may hold for it to be served as WebM.
const WEBM_CODECS: &[&str] = &["vp8", "vp9", "av1", "vorbis", "opus"];

/// The input's name inside the private directory.
pub const INPUT: &str = "input";

/// The ffmpeg tools.
#[derive(Clone, Debug)]
pub struct Tools {
    pub ffmpeg: PathBuf,
    pub ffprobe: PathBuf,
}

/// A produced file.
#[derive(Debug)]
pub struct Produced {
    pub path: PathBuf,
    pub ext: &'static str,
    /// The ffmpeg run that made it, if one ran (a kept file needs none).
    pub stats: Option<ChildStats>,
}

#[derive(Deserialize, Default)]
struct Probe {
    #[serde(default)]
    streams: Vec<Stream>,
    #[serde(default)]
    format: Format,
}

#[derive(Deserialize, Default)]
struct Stream {
    #[serde(default)]
    codec_type: String,
    #[serde(default)]
    codec_name: String,
}

#[derive(Deserialize, Default)]
struct Format {
    #[serde(default)]
    format_name: String,
}

fn common_input_args() -> Vec<OsString> {
    [
        "-hide_banner",
        "-loglevel",
        "error",
        "-protocol_whitelist",
        "file",
        "-format_whitelist",
        DEMUXERS,
    ]
    .iter()
    .map(OsString::from)
    .collect()
}

/// Produces `kind` from `dir/input`. The error is one sentence for the
/// response's warning.
pub async fn produce(
    tools: &Tools,
    dir: &Path,
    kind: MediaKind,
    limits: ChildLimits,
) -> Result<Produced, String> {
    let probe = probe(tools, dir, limits).await?;
    let wanted = match kind {
        MediaKind::Audio => "audio",
        MediaKind::Video => "video",
    };
    let Some(stream) = probe.streams.iter().find(|s| s.codec_type == wanted) else {
        return Err(format!("the media file has no {wanted} track"));
    };
    if stream.codec_name.is_empty() || stream.codec_name == "none" {
        return Err(format!("the media file's {wanted} codec is not supported"));
    }
    match kind {
        MediaKind::Audio => to_mp3(tools, dir, &stream.codec_name, limits).await,
        MediaKind::Video => {
            if let Some(ext) = keepable(dir, &probe) {
                return Ok(Produced {
                    path: dir.join(INPUT),
                    ext,
                    stats: None,
                });
            }
            remux_mp4(tools, dir, &stream.codec_name, limits).await
        }
    }
}

async fn probe(tools: &Tools, dir: &Path, limits: ChildLimits) -> Result<Probe, String> {
    let mut args = common_input_args();
    args.extend(
        [
            "-show_entries",
            "format=format_name:stream=codec_type,codec_name",
            "-of",
            "json",
        ]
        .iter()
        .map(OsString::from),
    );
    args.push(format!("file:{INPUT}").into());
    let out = run_tool(&tools.ffprobe, &args, dir, limits).await?;
    if !out.success {
        return Err(failure(
            "the file is not media ffmpeg can read (corrupt or of an unsupported format)",
            &out,
        ));
    }
    serde_json::from_str(&out.stdout).map_err(|e| format!("ffprobe's answer could not be read: {e}"))
}

/// `Some(ext)` when the fetched file can be served as it is.
fn keepable(dir: &Path, probe: &Probe) -> Option<&'static str> {
    let mut head = [0u8; 12];
    let n = std::fs::File::open(dir.join(INPUT))
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    let format = probe.format.format_name.as_str();
    // ISO BMFF with an `ftyp` box whose brand is not QuickTime's.
    if format.contains("mp4") && head.len() >= 12 && &head[4..8] == b"ftyp" && &head[8..12] != b"qt  " {
        return Some("mp4");
    }
    let webm_codecs = probe
        .streams
        .iter()
        .filter(|s| s.codec_type == "video" || s.codec_type == "audio")
        .all(|s| WEBM_CODECS.contains(&s.codec_name.as_str()));
    if format.contains("webm") && head.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) && webm_codecs {
        return Some("webm");
    }
    None
}

async fn to_mp3(tools: &Tools, dir: &Path, codec: &str, limits: ChildLimits) -> Result<Produced, String> {
    let mut args = common_input_args();
    args.extend(["-nostdin", "-i"].iter().map(OsString::from));
    args.push(format!("file:{INPUT}").into());
    let encode: &[&str] = if codec == "mp3" {
        &["-c:a", "copy"]
    } else {
        &["-c:a", "libmp3lame", "-q:a", "4"]
    };
    args.extend(
        ["-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1"]
            .iter()
            .chain(encode)
            .chain(&["-f", "mp3", "-y", "file:output.mp3"])
            .map(OsString::from),
    );
    let out = run_tool(&tools.ffmpeg, &args, dir, limits).await?;
    if !out.success {
        return Err(failure(&format!("extracting the audio ({codec}) failed"), &out));
    }
    Ok(Produced {
        path: dir.join("output.mp3"),
        ext: "mp3",
        stats: Some(out.stats),
    })
}

async fn remux_mp4(tools: &Tools, dir: &Path, codec: &str, limits: ChildLimits) -> Result<Produced, String> {
    let mut args = common_input_args();
    args.extend(["-nostdin", "-i"].iter().map(OsString::from));
    args.push(format!("file:{INPUT}").into());
    args.extend(
        [
            "-map",
            "0:v:0",
            "-map",
            "0:a:0?",
            "-c",
            "copy",
            "-map_metadata",
            "-1",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
            "-y",
            "file:output.mp4",
        ]
        .iter()
        .map(OsString::from),
    );
    let out = run_tool(&tools.ffmpeg, &args, dir, limits).await?;
    if !out.success {
        let unsupported = out.stderr.contains("not currently supported in container")
            || out.stderr.contains("Could not find tag for codec");
        if unsupported {
            return Err(format!(
                "the video's codecs ({codec} video) cannot be stored in MP4 without re-encoding"
            ));
        }
        return Err(failure(
            &format!("remuxing the video ({codec}) to MP4 failed"),
            &out,
        ));
    }
    Ok(Produced {
        path: dir.join("output.mp4"),
        ext: "mp4",
        stats: Some(out.stats),
    })
}

async fn run_tool(
    program: &Path,
    args: &[OsString],
    dir: &Path,
    limits: ChildLimits,
) -> Result<ChildOutput, String> {
    let out = run(program, args, dir, limits).await.map_err(|e| {
        format!(
            "{} could not be started: {e}",
            program.file_name().unwrap_or_default().to_string_lossy()
        )
    })?;
    if out.timed_out {
        return Err("processing the media did not finish within the request's time".to_string());
    }
    Ok(out)
}

/// `what`, and why: the signal, or ffmpeg's last error line (shortened).
fn failure(what: &str, out: &ChildOutput) -> String {
    if let Some(signal) = out.signal {
        return format!("{what}: ffmpeg was stopped by signal {signal} (memory limit?)");
    }
    let last = out
        .stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no message");
    let mut last: String = last.chars().filter(|c| !c.is_control()).take(200).collect();
    if last.ends_with('.') {
        last.pop();
    }
    format!("{what}: {last}")
}
