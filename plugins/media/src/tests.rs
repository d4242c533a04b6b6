use super::*;
use distill_sdk::media::{ExtractedMedia, mock};
use distill_sdk::take_warnings;

fn page(html: &str) -> Page {
    Page::builder("https://example.test/watch/1").html(html).build()
}

fn urls(page: &Page, wanted: Wanted) -> Vec<String> {
    discover::candidates(page, wanted)
        .candidates
        .into_iter()
        .map(|c| c.url)
        .collect()
}

#[test]
fn video_sources_resolve_against_the_page_and_prefer_mp4() {
    let p = page(
        r#"<main><video poster="p.jpg"><source src="clip.ogv" type="video/ogg">
           <source src="/media/clip.mp4" type="video/mp4"></video></main>"#,
    );
    assert_eq!(
        urls(&p, Wanted::Video),
        [
            "https://example.test/media/clip.mp4",
            "https://example.test/watch/clip.ogv"
        ]
    );
    // For audio the same video is the fallback (its audio track), same order.
    assert_eq!(
        urls(&p, Wanted::Audio),
        [
            "https://example.test/media/clip.mp4",
            "https://example.test/watch/clip.ogv"
        ]
    );
    // An <audio> element's sources stay in document order.
    let a = page(r#"<audio><source src="a.ogg"><source src="a.mp3"></audio>"#);
    assert_eq!(
        urls(&a, Wanted::Audio),
        [
            "https://example.test/watch/a.ogg",
            "https://example.test/watch/a.mp3"
        ]
    );
}

#[test]
fn declared_media_comes_before_elements() {
    let p = page(
        r#"<head><meta property="og:video" content="https://cdn.test/a.mp4">
           <meta property="og:audio" content="/pod/ep1.mp3">
           <script type="application/ld+json">{"@graph":[{"@type":"VideoObject",
             "contentUrl":"https://cdn.test/b.webm","embedUrl":"https://player.test/embed/9"}]}</script>
           </head><body><video src="c.mp4"></video><audio src="d.ogg"></audio></body>"#,
    );
    assert_eq!(
        urls(&p, Wanted::Video),
        [
            "https://cdn.test/a.mp4",
            "https://cdn.test/b.webm",
            "https://example.test/watch/c.mp4"
        ]
    );
    assert_eq!(
        urls(&p, Wanted::Audio),
        [
            "https://example.test/pod/ep1.mp3",
            "https://example.test/watch/d.ogg",
            "https://cdn.test/a.mp4",
            "https://cdn.test/b.webm",
            "https://example.test/watch/c.mp4"
        ]
    );
}

#[test]
fn players_and_pages_are_not_taken_for_media() {
    let p = page(
        r#"<meta property="og:video" content="https://player.test/embed/9">
           <meta property="og:video:type" content="text/html">
           <script type="application/ld+json">{"@type":"VideoObject","embedUrl":"https://player.test/e/9"}</script>
           <meta property="og:audio" content="https://site.test/episode.html">"#,
    );
    assert!(urls(&p, Wanted::Video).is_empty());
    assert!(urls(&p, Wanted::Audio).is_empty());
}

#[test]
fn microdata_video_object_and_base_href() {
    let p = page(
        r#"<base href="https://static.test/v/"><div itemscope itemtype="https://schema.org/VideoObject">
           <link itemprop="contentUrl" href="talk.mp4"><meta itemprop="embedUrl" content="https://p.test/x"></div>"#,
    );
    assert_eq!(urls(&p, Wanted::Video), ["https://static.test/v/talk.mp4"]);
}

#[test]
fn the_scraped_url_serving_media_is_the_candidate() {
    let p = Page::builder("https://example.test/clip.mp4")
        .content_type(Some("video/mp4"))
        .html("\0\0\0 ftypisom")
        .build();
    assert_eq!(urls(&p, Wanted::Video), ["https://example.test/clip.mp4"]);
    let a = Page::builder("https://example.test/ep.mp3")
        .content_type(Some("audio/mpeg"))
        .build();
    assert_eq!(urls(&a, Wanted::Audio), ["https://example.test/ep.mp3"]);
    // An audio file has no video.
    assert!(urls(&a, Wanted::Video).is_empty());
}

#[test]
fn no_media_is_null_with_a_warning() {
    mock::set(|_, _| panic!("nothing to extract"));
    take_warnings();
    let value = Media::render("video", &page("<p>text only</p>"), &json!({})).unwrap();
    assert_eq!(value, Value::Null);
    assert_eq!(take_warnings(), ["video: no video found on the page"]);
    let p = page(r#"<video src="blob:https://example.test/1234"></video>"#);
    assert_eq!(Media::render("audio", &p, &json!({})).unwrap(), Value::Null);
    assert!(take_warnings()[0].contains("streamed by script"));
    mock::clear();
}

#[test]
fn the_host_link_is_the_value_and_failures_are_warnings() {
    mock::set(|url, kind| {
        if url.ends_with("broken.mp4") {
            return Err("the media file is larger than the 1 MiB limit".into());
        }
        assert_eq!(kind, MediaKind::Audio);
        Ok(ExtractedMedia {
            url: format!("https://distill.test/v2/media/signed/x.mp3?from={url}"),
            content_type: "audio/mpeg".into(),
            size: 10,
            expires_in_secs: 3600,
        })
    });
    take_warnings();
    let p = page(r#"<video src="ok.mp4"></video>"#);
    let value = Media::render("audio", &p, &json!({})).unwrap();
    assert_eq!(
        value,
        json!("https://distill.test/v2/media/signed/x.mp3?from=https://example.test/watch/ok.mp4")
    );
    assert!(take_warnings().is_empty());
    let p = page(r#"<video src="broken.mp4"></video>"#);
    assert_eq!(Media::render("video", &p, &json!({})).unwrap(), Value::Null);
    let warnings = take_warnings();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].starts_with("video: the media file is larger than the 1 MiB limit"),
        "{warnings:?}"
    );
    mock::clear();
}
