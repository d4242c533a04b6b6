//! Screenshots and PDFs of a page, stored in the [`MediaStore`] and returned
//! as URLs. Screenshot options are the format's and the action's (`fullPage`,
//! `quality`, `viewport`): PNG, or JPEG at `quality` when one is given; a
//! `viewport` resizes the page for the capture; the page's own metrics are
//! restored after it and after a full-page capture.

use super::emulate::{DESKTOP, MOBILE};
use crate::media::MediaStore;
use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::cdp::browser_protocol::page::{CaptureScreenshotFormat, PrintToPdfParams};
use chromiumoxide::page::{Page, ScreenshotParams};
use serde_json::{Map, Value};

/// Screenshot options as validated by the API.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShotOptions {
    pub full_page: bool,
    pub quality: Option<i64>,
    pub viewport: Option<(i64, i64)>,
}

impl ShotOptions {
    /// From the format's options or an action's fields.
    pub fn from_json(o: &Map<String, Value>) -> ShotOptions {
        let viewport = o
            .get("viewport")
            .and_then(|v| Some((v.get("width")?.as_i64()?, v.get("height")?.as_i64()?)));
        ShotOptions {
            full_page: o.get("fullPage").and_then(Value::as_bool).unwrap_or(false),
            quality: o.get("quality").and_then(Value::as_i64),
            viewport,
        }
    }
}

/// Takes a screenshot of `page`; returns its media URL.
pub async fn screenshot(
    page: &Page,
    opts: &ShotOptions,
    mobile: bool,
    media: &MediaStore,
) -> Result<String, String> {
    let err = |e: chromiumoxide::error::CdpError| e.to_string();
    if let Some((w, h)) = opts.viewport {
        page.execute(SetDeviceMetricsOverrideParams::new(w, h, 1.0, mobile))
            .await
            .map_err(err)?;
    }
    let mut params = ScreenshotParams::builder().full_page(opts.full_page);
    let ext = match opts.quality {
        Some(q) => {
            params = params.format(CaptureScreenshotFormat::Jpeg).quality(q);
            "jpeg"
        }
        None => {
            params = params.format(CaptureScreenshotFormat::Png);
            "png"
        }
    };
    let shot = page.screenshot(params.build()).await.map_err(err);
    // chromiumoxide clears the metrics override after a full-page capture.
    if opts.viewport.is_some() || opts.full_page {
        let restore = if mobile {
            SetDeviceMetricsOverrideParams::new(MOBILE.0, MOBILE.1, MOBILE.2, true)
        } else {
            SetDeviceMetricsOverrideParams::new(DESKTOP.0, DESKTOP.1, 1.0, false)
        };
        page.execute(restore).await.map_err(err)?;
    }
    media
        .put(&shot?, ext)
        .map_err(|e| format!("storing the screenshot: {e}"))
}

/// Paper sizes in inches (width, height).
fn paper(format: &str) -> (f64, f64) {
    match format {
        "A0" => (33.1, 46.8),
        "A1" => (23.4, 33.1),
        "A2" => (16.54, 23.4),
        "A3" => (11.7, 16.54),
        "A4" => (8.27, 11.7),
        "A5" => (5.83, 8.27),
        "A6" => (4.13, 5.83),
        "Legal" => (8.5, 14.0),
        "Tabloid" => (11.0, 17.0),
        "Ledger" => (17.0, 11.0),
        _ => (8.5, 11.0),
    }
}

/// Prints `page` to PDF (`format`, `landscape`, `scale` of the pdf action);
/// returns its media URL.
pub async fn pdf(page: &Page, action: &Map<String, Value>, media: &MediaStore) -> Result<String, String> {
    let (w, h) = paper(action.get("format").and_then(Value::as_str).unwrap_or("Letter"));
    let params = PrintToPdfParams {
        landscape: Some(action.get("landscape").and_then(Value::as_bool).unwrap_or(false)),
        scale: Some(action.get("scale").and_then(Value::as_f64).unwrap_or(1.0)),
        paper_width: Some(w),
        paper_height: Some(h),
        print_background: Some(true),
        ..Default::default()
    };
    let bytes = page.pdf(params).await.map_err(|e| e.to_string())?;
    media
        .put(&bytes, "pdf")
        .map_err(|e| format!("storing the PDF: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_from_json() {
        let o = json!({"fullPage": true, "quality": 80, "viewport": {"width": 640, "height": 480}});
        assert_eq!(
            ShotOptions::from_json(o.as_object().unwrap()),
            ShotOptions {
                full_page: true,
                quality: Some(80),
                viewport: Some((640, 480)),
            }
        );
        assert_eq!(ShotOptions::from_json(&Map::new()), ShotOptions::default());
    }
}
