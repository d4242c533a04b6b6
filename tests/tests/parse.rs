//! `POST /v2/parse` over HTTP: HTML uploads through the page pipeline, the
//! response shape shared with scrape, and every upload error with upstream's
//! messages. (Document converters have their own tests.)

use distill_e2e::{parse_upload, read_fixture, shared};
use serde_json::json;

#[tokio::test]
async fn an_html_upload_is_parsed_like_a_page() {
    let html = read_fixture("article.html");
    let r = parse_upload(
        shared().url(),
        "upload.html",
        None,
        html.into_bytes(),
        Some(&json!({ "formats": ["markdown", "html", "links"], "origin": "python-sdk@4.55.0" })),
    )
    .await;
    r.assert_ok();
    assert!(r.markdown().contains("# Lichens on Old Walls"), "{}", r.pretty());
    assert_eq!(r.metadata()["sourceURL"], "upload.html");
    assert_eq!(r.metadata()["statusCode"], 200);
    assert!(r.metadata()["scrapeId"].as_str().is_some_and(|s| s.len() == 36));
    assert!(
        r.data()["html"].as_str().unwrap().contains("<h1"),
        "{}",
        r.pretty()
    );
    assert!(r.data()["links"].is_array());
}

#[tokio::test]
async fn html_is_recognised_by_its_declared_type_when_the_name_has_no_extension() {
    let r = parse_upload(
        shared().url(),
        "page",
        Some("text/html"),
        b"<h1>Hi there</h1>".to_vec(),
        None,
    )
    .await;
    r.assert_ok();
    assert_eq!(r.markdown(), "# Hi there");
}

#[tokio::test]
async fn upload_errors_use_upstream_messages() {
    let url = shared().url();
    let html = b"<p>x</p>".to_vec();
    let r = parse_upload(url, "a.html", None, html.clone(), Some(&json!([1]))).await;
    r.assert_error(400, "BAD_REQUEST");
    assert_eq!(r.error(), "The 'options' field must parse to a JSON object.");

    let r = parse_upload(url, "a.exe", Some("application/octet-stream"), html.clone(), None).await;
    r.assert_error(400, "UNSUPPORTED_FILE_TYPE");
    assert!(
        r.error()
            .starts_with("Unsupported upload type. Supported file extensions: .html, .htm, .xhtml"),
        "{}",
        r.pretty()
    );

    for (options, message) in [
        (
            json!({"actions": [{"type": "wait", "milliseconds": 5}]}),
            "Parse uploads do not support actions.",
        ),
        (
            json!({"formats": [{"type": "screenshot"}]}),
            "Parse uploads do not support screenshot output.",
        ),
        (json!({"waitFor": 100}), "Parse uploads do not support waitFor."),
        (
            json!({"mobile": true}),
            "Parse uploads do not support mobile rendering.",
        ),
        (
            json!({"location": {"country": "DE"}}),
            "Parse uploads do not support location overrides.",
        ),
        (
            json!({"proxy": "enhanced"}),
            "Parse uploads only support proxy values of auto or basic.",
        ),
    ] {
        let r = parse_upload(url, "a.html", None, html.clone(), Some(&options)).await;
        r.assert_error(400, "PARSE_UNSUPPORTED_OPTIONS");
        assert_eq!(r.error(), message);
    }

    let r = parse_upload(url, "a.html", None, html.clone(), Some(&json!({"bogus": true}))).await;
    r.assert_error(400, "BAD_REQUEST");
}

#[tokio::test]
async fn a_body_without_a_file_or_too_large_is_refused() {
    let url = shared().url();
    let r = distill_e2e::post_raw(
        &format!("{url}/v2/parse"),
        "{}",
        &[("content-type", "application/json")],
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
    assert_eq!(
        r.error(),
        "Missing file upload. Send multipart/form-data with a 'file' field and optional 'options' JSON string."
    );
    let form = reqwest::multipart::Form::new().text("options", "{}");
    let resp = distill_e2e::client::http()
        .post(format!("{url}/v2/parse"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);

    let big = vec![b'a'; 50 * 1024 * 1024 + 1];
    let r = parse_upload(url, "big.html", None, big, None).await;
    r.assert_error(400, "BAD_REQUEST");
    assert_eq!(r.error(), "Uploaded file exceeds maximum size of 50MB.");
    // The server is fine afterwards.
    parse_upload(url, "a.html", None, b"<p>ok</p>".to_vec(), None)
        .await
        .assert_ok();
}

#[tokio::test]
async fn an_html_upload_in_an_undeclared_legacy_charset_is_decoded() {
    // Shift_JIS, with no BOM, no charset in the upload's type and no <meta>: the bytes are
    // not UTF-8, so the charset is guessed (the fixture is html/tests/fixtures/legacy's).
    let bytes = include_bytes!("../../html/tests/fixtures/legacy/shift_jis.html").to_vec();
    let r = parse_upload(shared().url(), "old.html", Some("text/html"), bytes, None).await;
    r.assert_ok();
    assert!(r.markdown().contains("日本語のページです"), "{}", r.pretty());
    assert!(!r.markdown().contains('\u{FFFD}'), "{}", r.pretty());
}
