//! A page's setup before navigation: viewport (desktop or `mobile`: device
//! metrics, touch, a mobile User-Agent), `location` (Accept-Language and
//! the locale from `languages`, timezone, geolocation), request `headers` (a `User-Agent` header replaces
//! ours; others, `Cookie` included, go with every request) and
//! `skipTlsVerification`.

use crate::api::ScrapeOptions;
use chromiumoxide::cdp::browser_protocol::emulation::{
    SetDeviceMetricsOverrideParams, SetGeolocationOverrideParams, SetLocaleOverrideParams,
    SetTimezoneOverrideParams, SetTouchEmulationEnabledParams,
};
use chromiumoxide::cdp::browser_protocol::network::{
    EnableParams as NetworkEnable, Headers, SetExtraHttpHeadersParams, SetUserAgentOverrideParams,
};
use chromiumoxide::cdp::browser_protocol::security::SetIgnoreCertificateErrorsParams;
use chromiumoxide::page::Page;
use serde_json::{Map, Value};

/// The desktop viewport.
pub const DESKTOP: (i64, i64) = (1280, 800);
/// The mobile viewport (CSS pixels) and device scale factor.
pub const MOBILE: (i64, i64, f64) = (390, 844, 3.0);

/// The User-Agent of `mobile: true`.
pub const MOBILE_USER_AGENT: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
     (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";

/// Timezone, latitude and longitude by ISO country code (capital cities).
const COUNTRIES: &[(&str, &str, f64, f64)] = &[
    ("US", "America/New_York", 38.9072, -77.0369),
    ("GB", "Europe/London", 51.5072, -0.1276),
    ("DE", "Europe/Berlin", 52.52, 13.405),
    ("FR", "Europe/Paris", 48.8566, 2.3522),
    ("ES", "Europe/Madrid", 40.4168, -3.7038),
    ("IT", "Europe/Rome", 41.9028, 12.4964),
    ("NL", "Europe/Amsterdam", 52.3676, 4.9041),
    ("BR", "America/Sao_Paulo", -15.7939, -47.8828),
    ("CA", "America/Toronto", 45.4215, -75.6972),
    ("MX", "America/Mexico_City", 19.4326, -99.1332),
    ("JP", "Asia/Tokyo", 35.6762, 139.6503),
    ("CN", "Asia/Shanghai", 39.9042, 116.4074),
    ("IN", "Asia/Kolkata", 28.6139, 77.209),
    ("AU", "Australia/Sydney", -35.2809, 149.13),
    ("KR", "Asia/Seoul", 37.5665, 126.978),
    ("RU", "Europe/Moscow", 55.7558, 37.6173),
    ("PL", "Europe/Warsaw", 52.2297, 21.0122),
    ("SE", "Europe/Stockholm", 59.3293, 18.0686),
    ("CH", "Europe/Zurich", 46.948, 7.4474),
    ("SG", "Asia/Singapore", 1.3521, 103.8198),
];

/// Applies the request's options to `page`; `user_agent` is the server's.
pub async fn setup(page: &Page, opts: &ScrapeOptions, user_agent: &str) -> Result<(), String> {
    let err = |e: chromiumoxide::error::CdpError| e.to_string();
    let metrics = if opts.mobile {
        SetDeviceMetricsOverrideParams::new(MOBILE.0, MOBILE.1, MOBILE.2, true)
    } else {
        SetDeviceMetricsOverrideParams::new(DESKTOP.0, DESKTOP.1, 1.0, false)
    };
    page.execute(metrics).await.map_err(err)?;
    if opts.mobile {
        page.execute(SetTouchEmulationEnabledParams::new(true))
            .await
            .map_err(err)?;
    }
    page.execute(SetIgnoreCertificateErrorsParams::new(opts.skip_tls_verification))
        .await
        .map_err(err)?;

    let mut ua = if opts.mobile {
        MOBILE_USER_AGENT
    } else {
        user_agent
    }
    .to_string();
    let mut extra = Map::new();
    for (name, value) in &opts.headers {
        if name.eq_ignore_ascii_case("user-agent") {
            ua = value.clone();
        } else {
            extra.insert(name.clone(), Value::String(value.clone()));
        }
    }
    let mut ua_params = SetUserAgentOverrideParams::new(ua);
    if let Some(loc) = &opts.location {
        let languages = if loc.languages.is_empty() {
            vec![format!("en-{}", loc.country.to_ascii_uppercase())]
        } else {
            loc.languages.clone()
        };
        ua_params.accept_language = Some(accept_language(&languages));
        // The page's Intl locale: the first language. A name ICU does not
        // know is refused by Chromium; the page then keeps the default locale.
        let locale = SetLocaleOverrideParams::builder()
            .locale(languages[0].clone())
            .build();
        if let Err(e) = page.execute(locale).await {
            tracing::debug!("locale {:?} not set: {e}", languages[0]);
        }
        if let Some((_, tz, lat, lon)) = COUNTRIES
            .iter()
            .find(|(c, ..)| c.eq_ignore_ascii_case(&loc.country))
        {
            page.execute(SetTimezoneOverrideParams::new(*tz))
                .await
                .map_err(err)?;
            page.execute(
                SetGeolocationOverrideParams::builder()
                    .latitude(*lat)
                    .longitude(*lon)
                    .accuracy(100.0)
                    .build(),
            )
            .await
            .map_err(err)?;
        }
    }
    page.execute(NetworkEnable::default()).await.map_err(err)?;
    page.execute(ua_params).await.map_err(err)?;
    if !extra.is_empty() {
        page.execute(SetExtraHttpHeadersParams::new(Headers::new(Value::Object(extra))))
            .await
            .map_err(err)?;
    }
    Ok(())
}

/// `en-US, en;q=0.9, ...` from a preference list.
fn accept_language(languages: &[String]) -> String {
    languages
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.clone()
            } else {
                format!("{l};q={:.1}", (10 - i.min(9)) as f64 / 10.0)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_weights_later_languages_less() {
        assert_eq!(
            accept_language(&["de-DE".into(), "de".into(), "en".into()]),
            "de-DE,de;q=0.9,en;q=0.8"
        );
    }
}
