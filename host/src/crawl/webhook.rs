//! Webhook deliveries as upstream sends them: `POST` JSON
//! `{success, type: "<crawl|batch_scrape>.<event>", id, data, metadata, error?}`
//! with the caller's headers, signed `X-Firecrawl-Signature: sha256=<hex>`
//! (HMAC-SHA256 of the body with the operator's secret) when a secret is set,
//! retried with exponential backoff on failure or a non-2xx answer. The target
//! guard applies to the webhook URL as to any fetch.

use crate::api::crawl_request::WebhookSpec;
use crate::fetch::target_guard::TargetGuard;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::time::Duration;
use tokio::task::JoinHandle;

/// HMAC-SHA256 (RFC 2104).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = block.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = block.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new().chain_update(&ipad).chain_update(message).finalize();
    Sha256::new()
        .chain_update(&opad)
        .chain_update(inner)
        .finalize()
        .into()
}

/// Sends webhooks.
pub struct Webhooks {
    client: reqwest::Client,
    guard: TargetGuard,
    secret: Option<String>,
    attempts: u32,
    backoff: Duration,
}

impl Webhooks {
    pub fn new(
        guard: TargetGuard,
        secret: Option<String>,
        attempts: u32,
        backoff: Duration,
    ) -> anyhow::Result<Webhooks> {
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .dns_resolver(guard.resolver())
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .no_proxy()
            .build()?;
        Ok(Webhooks {
            client,
            guard,
            secret,
            attempts: attempts.max(1),
            backoff,
        })
    }

    /// Delivers one event in the background (nothing when the spec does not
    /// subscribe to it). `family` is "crawl" or "batch_scrape".
    pub fn send(
        &self,
        spec: &WebhookSpec,
        family: &str,
        event: &str,
        id: &str,
        data: Vec<Value>,
        error: Option<String>,
    ) -> Option<JoinHandle<bool>> {
        if !spec.events.iter().any(|e| e == event) {
            return None;
        }
        let mut body = json!({
            "success": error.is_none(),
            "type": format!("{family}.{event}"),
            "id": id,
            "data": data,
            "metadata": spec.metadata,
        });
        if let Some(e) = error {
            body["error"] = Value::String(e);
        }
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        let mut request = self
            .client
            .post(spec.url.clone())
            .header("content-type", "application/json");
        for (k, v) in &spec.headers {
            request = request.header(k.as_str(), v.as_str());
        }
        if let Some(secret) = &self.secret {
            let sig = hex::encode(hmac_sha256(secret.as_bytes(), &bytes));
            request = request.header("X-Firecrawl-Signature", format!("sha256={sig}"));
        }
        let blocked = self.guard.check_url(&spec.url).err();
        let (attempts, backoff, url) = (self.attempts, self.backoff, spec.url.to_string());
        Some(tokio::spawn(async move {
            if let Some(reason) = blocked {
                tracing::warn!(%url, "webhook refused: {reason}");
                return false;
            }
            for attempt in 0..attempts {
                let Some(req) = request.try_clone() else {
                    return false;
                };
                match req.body(bytes.clone()).send().await {
                    Ok(r) if r.status().is_success() => return true,
                    Ok(r) => {
                        tracing::warn!(%url, status = r.status().as_u16(), attempt, "webhook not accepted")
                    }
                    Err(e) => tracing::warn!(%url, attempt, "webhook failed: {e}"),
                }
                if attempt + 1 < attempts {
                    tokio::time::sleep(backoff * 2u32.pow(attempt)).await;
                }
            }
            false
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
