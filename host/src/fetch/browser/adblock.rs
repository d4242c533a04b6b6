//! `blockAds`: a small shipped list of ad and tracker hosts. A request to one
//! of them, or to any subdomain of one, is refused by the interceptor.

/// Ad-serving and tracking hosts (registrable domains or service hosts).
const AD_HOSTS: &[&str] = &[
    "doubleclick.net",
    "googlesyndication.com",
    "googleadservices.com",
    "google-analytics.com",
    "googletagmanager.com",
    "googletagservices.com",
    "adservice.google.com",
    "amazon-adsystem.com",
    "adnxs.com",
    "adsrvr.org",
    "advertising.com",
    "criteo.com",
    "criteo.net",
    "outbrain.com",
    "taboola.com",
    "scorecardresearch.com",
    "quantserve.com",
    "moatads.com",
    "pubmatic.com",
    "rubiconproject.com",
    "openx.net",
    "casalemedia.com",
    "hotjar.com",
    "mixpanel.com",
    "segment.io",
    "connect.facebook.net",
    "ads-twitter.com",
    "analytics.twitter.com",
    "bat.bing.com",
    "clarity.ms",
    "yieldmo.com",
    "media.net",
    "smartadserver.com",
    "zedo.com",
    "adform.net",
    "chartbeat.com",
    "newrelic.com",
    "nr-data.net",
];

/// Whether `host` (a DNS name) is, or is under, a listed host.
pub fn is_ad_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    AD_HOSTS
        .iter()
        .any(|ad| host == *ad || host.strip_suffix(ad).is_some_and(|rest| rest.ends_with('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_hosts_and_their_subdomains_match() {
        assert!(is_ad_host("doubleclick.net"));
        assert!(is_ad_host("stats.g.DoubleClick.net."));
        assert!(!is_ad_host("notdoubleclick.net"));
        assert!(!is_ad_host("example.com"));
    }
}
