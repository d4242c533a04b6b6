//! The `audio` and `video` formats end to end: media the tests generate with
//! ffmpeg's test sources (lavfi `testsrc` / `sine`), served with pages from a
//! loopback fixture of this file's own; the returned signed links download a
//! valid MP3 / MP4 (checked by header and by ffprobe's duration); tampered
//! and expired links are refused; failures are null + a warning.

use distill_e2e::background::serve_router;
use distill_e2e::client::{get, scrape};
use distill_e2e::server::{ServerOptions, TestServer};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Seconds of generated media.
const SECONDS: f64 = 3.0;

/// The generated media and the pages that show it, served on 127.0.0.1.
struct MediaSite {
    base: String,
    dir: PathBuf,
}

impl MediaSite {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .output()
        .expect("ffmpeg must be installed (make setup installs Debian's ffmpeg)");
    assert!(
        out.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Generates the media files once per test binary.
fn generate(dir: &Path) {
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let duration = SECONDS.to_string();
    let video = format!("testsrc=duration={duration}:size=160x120:rate=10");
    let tone = format!("sine=frequency=440:duration={duration}");
    // H.264 + AAC in MP4 (moov at the end, as ffmpeg writes it by default).
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        &video,
        "-f",
        "lavfi",
        "-i",
        &tone,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-c:a",
        "aac",
        "-shortest",
        &p("clip.mp4"),
    ]);
    // The same streams in Matroska: remuxed to MP4 for `video`.
    ffmpeg(&[
        "-i",
        &p("clip.mp4"),
        "-c",
        "copy",
        "-f",
        "matroska",
        &p("clip.mkv"),
    ]);
    // Audio only, as WAV (PCM).
    ffmpeg(&["-f", "lavfi", "-i", &tone, &p("tone.wav")]);
    // Over the 1 MiB cap the test server is given.
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=640x480:rate=25",
        "-t",
        "3",
        "-c:v",
        "mpeg4",
        "-q:v",
        "1",
        &p("big.mp4"),
    ]);
    // A truncated MP4: its index (moov, at the end) is missing.
    let clip = std::fs::read(dir.join("clip.mp4")).unwrap();
    std::fs::write(dir.join("corrupt.mp4"), &clip[..clip.len() / 2]).unwrap();
    assert!(std::fs::metadata(dir.join("big.mp4")).unwrap().len() > 1 << 20);
}

const ARTICLE: &str = "<h1>Wall gardens</h1><p>Moss grows on north-facing walls where the stone \
     stays damp through the summer, and ferns follow where the mortar crumbles.</p>";

/// The fixture's pages: path → HTML.
fn pages() -> Vec<(&'static str, String)> {
    let page = |head: &str, body: &str| {
        format!(
            "<!doctype html><html><head><title>Media test</title>{head}</head><body><main>{ARTICLE}{body}</main></body></html>"
        )
    };
    vec![
        (
            "/video.html",
            page(
                "",
                r#"<video controls><source src="media/clip.ogv" type="video/ogg"><source src="/media/clip.mp4" type="video/mp4"></video>"#,
            ),
        ),
        (
            "/og-audio.html",
            page(
                r#"<meta property="og:audio" content="/media/tone.wav"><meta property="og:audio:type" content="audio/wav">"#,
                "",
            ),
        ),
        ("/mkv.html", page("", r#"<video src="/media/clip.mkv"></video>"#)),
        ("/plain.html", page("", "")),
        ("/big.html", page("", r#"<video src="/media/big.mp4"></video>"#)),
        (
            "/corrupt.html",
            page("", r#"<video src="/media/corrupt.mp4"></video>"#),
        ),
    ]
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("mp4") => "video/mp4",
        Some("mkv") => "video/x-matroska",
        Some("wav") => "audio/wav",
        _ => "text/html; charset=utf-8",
    }
}

fn media_site() -> &'static MediaSite {
    static SITE: OnceLock<MediaSite> = OnceLock::new();
    SITE.get_or_init(|| {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("distill-media-site-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("media")).unwrap();
        generate(&dir.join("media"));
        for (path, html) in pages() {
            std::fs::write(dir.join(path.trim_start_matches('/')), html).unwrap();
        }
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let root = dir.clone();
        let app = axum::Router::new().fallback(move |uri: axum::http::Uri| {
            let root = root.clone();
            async move { serve_file(&root, uri.path()) }
        });
        serve_router("media-site", listener, app);
        MediaSite { base, dir }
    })
}

fn serve_file(root: &Path, path: &str) -> axum::response::Response {
    use axum::response::IntoResponse;
    let rel = path.trim_start_matches('/');
    if rel.contains("..") {
        return axum::http::StatusCode::BAD_REQUEST.into_response();
    }
    match std::fs::read(root.join(rel)) {
        Ok(bytes) => ([(axum::http::header::CONTENT_TYPE, content_type(path))], bytes).into_response(),
        Err(_) => axum::http::StatusCode::NOT_FOUND.into_response(),
    }
}

/// One server for the tests that do not change its settings: a 1 MiB cap.
fn shared() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| TestServer::start(ServerOptions::default().env("DISTILL_MEDIA_MAX_MIB", "1")))
}

/// Downloads a signed link; returns its status, Content-Type and body.
async fn download(url: &str) -> (u16, String, Vec<u8>) {
    let r = reqwest::get(url).await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, ct, r.bytes().await.unwrap().to_vec())
}

/// ffprobe's view of a file: (format name, duration in seconds, codec types).
fn probe(bytes: &[u8]) -> (String, f64, Vec<String>) {
    let file = std::env::temp_dir().join(format!("distill-media-probe-{}", uuid_like()));
    std::fs::write(&file, bytes).unwrap();
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=format_name,duration:stream=codec_type",
            "-of",
            "json",
        ])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        out.status.success(),
        "ffprobe: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let duration = v["format"]["duration"].as_str().unwrap().parse().unwrap();
    let types = v["streams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["codec_type"].as_str().unwrap().to_string())
        .collect();
    (
        v["format"]["format_name"].as_str().unwrap().to_string(),
        duration,
        types,
    )
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

fn assert_duration(d: f64) {
    assert!(
        (d - SECONDS).abs() < 0.5,
        "duration {d} s, expected about {SECONDS} s"
    );
}

/// Checks an MP3 link: 200, audio/mpeg, an ID3 tag or an MPEG frame sync, the duration.
async fn assert_mp3(url: &str) {
    let (status, ct, bytes) = download(url).await;
    assert_eq!(status, 200, "{url}");
    assert_eq!(ct, "audio/mpeg");
    assert!(
        bytes.starts_with(b"ID3") || (bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0),
        "not an MP3: {:02x?}",
        &bytes[..4]
    );
    let (format, duration, types) = probe(&bytes);
    assert_eq!(format, "mp3");
    assert_eq!(types, ["audio"]);
    assert_duration(duration);
}

/// Checks an MP4 link: 200, video/mp4, `ftyp`, a video stream, the duration; returns the bytes.
async fn assert_mp4(url: &str) -> Vec<u8> {
    let (status, ct, bytes) = download(url).await;
    assert_eq!(status, 200, "{url}");
    assert_eq!(ct, "video/mp4");
    assert_eq!(&bytes[4..8], b"ftyp", "not an MP4");
    let (format, duration, types) = probe(&bytes);
    assert!(format.contains("mp4"), "{format}");
    assert!(types.iter().any(|t| t == "video"), "{types:?}");
    assert_duration(duration);
    bytes
}

fn link(data: &Value, field: &str) -> String {
    let url = data[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} is not a URL: {data:#}"));
    assert!(
        url.contains("/v2/media/signed/") && url.contains("signature="),
        "{url}"
    );
    url.to_string()
}

fn warning(data: &Value) -> String {
    data["warning"].as_str().unwrap_or("").to_string()
}

#[tokio::test]
async fn a_page_with_a_video_gives_its_audio_as_mp3_and_its_video_as_mp4() {
    let site = media_site();
    let r = scrape(
        shared().url(),
        &json!({ "url": site.url("/video.html"), "formats": ["markdown", "audio", "video"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Moss grows"), "{}", r.pretty());
    assert_mp3(&link(r.data(), "audio")).await;
    // The MP4 <source> is preferred and, being MP4, served as it is.
    let video = assert_mp4(&link(r.data(), "video")).await;
    assert_eq!(video, std::fs::read(site.dir.join("media/clip.mp4")).unwrap());
    assert!(r.data().get("warning").is_none(), "{}", r.pretty());
}

#[tokio::test]
async fn a_page_with_only_og_audio_gives_audio_and_no_video() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/og-audio.html"), "formats": ["markdown", "audio", "video"] }),
    )
    .await;
    r.assert_ok();
    assert_mp3(&link(r.data(), "audio")).await;
    assert_eq!(r.data()["video"], Value::Null);
    assert!(
        warning(r.data()).contains("video: no video found on the page"),
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn a_direct_mp4_url_is_the_media_itself() {
    let site = media_site();
    let r = scrape(
        shared().url(),
        &json!({ "url": site.url("/media/clip.mp4"), "formats": ["audio", "video"] }),
    )
    .await;
    r.assert_ok();
    assert_mp3(&link(r.data(), "audio")).await;
    let video = assert_mp4(&link(r.data(), "video")).await;
    assert_eq!(video, std::fs::read(site.dir.join("media/clip.mp4")).unwrap());
}

#[tokio::test]
async fn a_matroska_video_is_remuxed_to_mp4() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/mkv.html"), "formats": ["video"] }),
    )
    .await;
    r.assert_ok();
    let url = link(r.data(), "video");
    assert!(url.contains(".mp4?"), "{url}");
    assert_mp4(&url).await;
}

#[tokio::test]
async fn a_page_without_media_gives_nulls_and_warnings() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/plain.html"), "formats": ["markdown", "audio", "video"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Moss grows"));
    assert_eq!(r.data()["audio"], Value::Null);
    assert_eq!(r.data()["video"], Value::Null);
    let w = warning(r.data());
    assert!(w.contains("audio: no audio or video found on the page"), "{w}");
    assert!(w.contains("video: no video found on the page"), "{w}");
}

#[tokio::test]
async fn a_file_over_the_size_cap_is_null_with_the_reason() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/big.html"), "formats": ["markdown", "video", "audio"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Moss grows"));
    assert_eq!(r.data()["video"], Value::Null);
    assert_eq!(r.data()["audio"], Value::Null);
    let w = warning(r.data());
    assert!(
        w.contains("video: the media file is larger than the 1 MiB limit"),
        "{w}"
    );
    assert!(
        w.contains("audio: the media file is larger than the 1 MiB limit"),
        "{w}"
    );
}

#[tokio::test]
async fn a_corrupt_file_is_null_with_the_reason() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/corrupt.html"), "formats": ["markdown", "audio"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Moss grows"));
    assert_eq!(r.data()["audio"], Value::Null);
    let w = warning(r.data());
    assert!(w.contains("audio: the file is not media ffmpeg can read"), "{w}");
}

#[tokio::test]
async fn tampered_links_are_refused_with_403() {
    let r = scrape(
        shared().url(),
        &json!({ "url": media_site().url("/og-audio.html"), "formats": ["audio"] }),
    )
    .await;
    r.assert_ok();
    let url = link(r.data(), "audio");
    assert_eq!(download(&url).await.0, 200);
    let (path, query) = url.split_once('?').unwrap();
    let expires: u64 = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("expires="))
        .unwrap()
        .parse()
        .unwrap();
    let signature = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("signature="))
        .unwrap();
    let mut flipped = signature.as_bytes().to_vec();
    flipped[10] = if flipped[10] == b'a' { b'b' } else { b'a' };
    let flipped = String::from_utf8(flipped).unwrap();
    let other_name = {
        let (dir, name) = path.rsplit_once('/').unwrap();
        format!(
            "{dir}/{}{}",
            if name.starts_with('0') { "1" } else { "0" },
            &name[1..]
        )
    };
    for tampered in [
        format!("{path}?expires={expires}&signature={flipped}"),
        format!("{path}?expires={}&signature={signature}", expires + 3600),
        format!("{path}?expires={expires}"),
        path.to_string(),
        format!("{other_name}?expires={expires}&signature={signature}"),
    ] {
        let reply = get(&tampered).await;
        reply.assert_error(403, "MEDIA_SIGNATURE_INVALID");
        assert!(reply.error().contains("signature"), "{}", reply.pretty());
    }
}

#[tokio::test]
async fn zero_data_retention_refuses_the_media_formats() {
    for format in ["audio", "video"] {
        let r = scrape(
            shared().url(),
            &json!({ "url": media_site().url("/video.html"), "formats": ["markdown", format], "zeroDataRetention": true }),
        )
        .await;
        r.assert_error(400, "SCRAPE_ZDR_VIOLATION_ERROR");
        assert!(r.error().contains(&format!("'{format}'")), "{}", r.pretty());
    }
}

#[tokio::test]
async fn links_expire_with_410_and_their_files_are_swept() {
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("distill-media-expiry-{}", uuid_like()));
    let server = TestServer::start(ServerOptions {
        data_dir: Some(data.to_string_lossy().into_owned()),
        ..ServerOptions::default().env("DISTILL_MEDIA_LINK_TTL_SECS", "2")
    });
    let r = scrape(
        server.url(),
        &json!({ "url": media_site().url("/og-audio.html"), "formats": ["audio"] }),
    )
    .await;
    r.assert_ok();
    let url = link(r.data(), "audio");
    assert_eq!(download(&url).await.0, 200);
    let stored = data.join("media-signed");
    assert_eq!(std::fs::read_dir(&stored).unwrap().count(), 1);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let reply = get(&url).await;
    reply.assert_error(410, "MEDIA_LINK_EXPIRED");
    assert!(reply.error().contains("expired"), "{}", reply.pretty());
    // The sweep (every second with this lifetime) removes the file.
    let started = Instant::now();
    while std::fs::read_dir(&stored).unwrap().count() > 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "expired file not swept"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn a_rotated_key_keeps_old_links_valid_until_it_is_dropped() {
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("distill-media-rotation-{}", uuid_like()));
    let start = |key: &str, previous: Option<&str>| {
        let mut opts = ServerOptions {
            data_dir: Some(data.to_string_lossy().into_owned()),
            ..ServerOptions::default()
        }
        .env("DISTILL_MEDIA_SIGNING_KEY", key);
        if let Some(p) = previous {
            opts = opts.env("DISTILL_MEDIA_SIGNING_KEY_PREVIOUS", p);
        }
        TestServer::start(opts)
    };
    let old = start("the-old-secret-0123456789", None);
    let r = scrape(
        old.url(),
        &json!({ "url": media_site().url("/og-audio.html"), "formats": ["audio"] }),
    )
    .await;
    let url = link(r.data(), "audio");
    let path_and_query = &url[old.url().len()..];
    drop(old);
    let rotated = start("the-new-secret-9876543210", Some("the-old-secret-0123456789"));
    assert_eq!(download(&rotated.endpoint(path_and_query)).await.0, 200);
    drop(rotated);
    let dropped = start("the-new-secret-9876543210", None);
    get(&dropped.endpoint(path_and_query))
        .await
        .assert_error(403, "MEDIA_SIGNATURE_INVALID");
    drop(dropped);
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn without_ffmpeg_the_formats_are_null_with_the_reason() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_FFMPEG", "/nonexistent/ffmpeg"));
    let r = scrape(
        server.url(),
        &json!({ "url": media_site().url("/video.html"), "formats": ["markdown", "audio", "video"] }),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("Moss grows"));
    assert_eq!(r.data()["audio"], Value::Null);
    assert_eq!(r.data()["video"], Value::Null);
    let w = warning(r.data());
    assert!(w.contains("audio: ffmpeg is not available on this server"), "{w}");
    assert!(w.contains("video: ffmpeg is not available on this server"), "{w}");
}

#[tokio::test]
async fn without_the_operators_permission_the_formats_are_null_with_the_reason() {
    let server = TestServer::start(ServerOptions::default().env("DISTILL_ALLOWED_CAPABILITIES", "llm"));
    let r = scrape(
        server.url(),
        &json!({ "url": media_site().url("/video.html"), "formats": ["markdown", "video"] }),
    )
    .await;
    r.assert_ok();
    assert_eq!(r.data()["video"], Value::Null);
    let w = warning(r.data());
    assert!(
        w.contains("video: the operator does not allow the 'media' capability"),
        "{w}"
    );
}
