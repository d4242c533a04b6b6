//! Target safety: which addresses the server may fetch from. By default it
//! refuses loopback, private, link-local, shared, multicast, reserved and
//! cloud-metadata addresses. The check runs on resolved addresses (a DNS
//! resolver wraps every lookup) and on IP-literal hosts before each hop, so a
//! public name pointing at 127.0.0.1, or a redirect to 169.254.169.254, is refused.
//! Ranges the operator allows ([`super::allowed_cidrs`]) pass even then.

use super::FetchError;
use super::allowed_cidrs;
use ipnet::IpNet;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;
use url::{Host, Url};

/// Allows or refuses target addresses.
#[derive(Clone, Copy, Debug)]
pub struct TargetGuard {
    pub allow_private: bool,
    /// Ranges allowed even when private targets are refused
    /// (`DISTILL_ALLOW_TARGET_CIDRS`; parsed once at start).
    pub allowed: &'static [IpNet],
}

/// A lookup that found nothing (or failed). Carried through reqwest's error chain.
#[derive(Debug)]
pub struct DnsFailure {
    pub host: String,
}
impl std::fmt::Display for DnsFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DNS resolution failed for hostname \"{}\"", self.host)
    }
}
impl std::error::Error for DnsFailure {}

/// A name that resolved only to refused addresses.
#[derive(Debug)]
pub struct BlockedAddress {
    pub host: String,
    pub addr: IpAddr,
}
impl std::fmt::Display for BlockedAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} resolves to {}, a {} address",
            self.host,
            self.addr,
            classify(self.addr).unwrap_or("refused")
        )
    }
}
impl std::error::Error for BlockedAddress {}

impl TargetGuard {
    /// Refuses private targets unless in `allowed`.
    pub const fn strict(allowed: &'static [IpNet]) -> Self {
        TargetGuard {
            allow_private: false,
            allowed,
        }
    }

    /// Allows every target.
    pub const fn open() -> Self {
        TargetGuard {
            allow_private: true,
            allowed: &[],
        }
    }

    /// Why `ip` is refused, or `None` when it may be fetched.
    pub fn refusal(&self, ip: IpAddr) -> Option<&'static str> {
        if self.allow_private || allowed_cidrs::contains(self.allowed, ip) {
            return None;
        }
        classify(ip)
    }

    /// Checks a URL whose host is an IP literal. Names are checked at resolution.
    pub fn check_url(&self, url: &Url) -> Result<(), String> {
        if self.allow_private {
            return Ok(());
        }
        let ip = match url.host() {
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            _ => return Ok(()),
        };
        match self.refusal(ip) {
            Some(kind) => Err(format!("{ip} is a {kind} address")),
            None => Ok(()),
        }
    }

    /// Resolves a hop's host name and refuses it when the guard would (a proxy
    /// would otherwise resolve and reach it on the server's behalf). IP literals
    /// are checked by [`TargetGuard::check_url`]. The proxy resolves the name
    /// again: a name whose answers change between the two lookups (DNS
    /// rebinding) is a residual risk documented in docs/OPERATORS.md. The
    /// lookup (the system resolver, on a blocking thread) is waited for
    /// until `deadline` at most, as the direct path's lookup inside the
    /// request is.
    pub async fn check_name(&self, url: &Url, deadline: Instant) -> Result<(), FetchError> {
        if self.allow_private {
            return Ok(());
        }
        let Some(Host::Domain(host)) = url.host() else {
            return Ok(());
        };
        let name = Name::from_str(host).map_err(|_| FetchError::Dns {
            host: host.to_string(),
        })?;
        let Ok(resolved) = tokio::time::timeout_at(deadline.into(), self.resolver().resolve(name)).await
        else {
            return Err(FetchError::Timeout { url: url.to_string() });
        };
        match resolved {
            Ok(_) => Ok(()),
            Err(err) => {
                if let Some(blocked) = err.downcast_ref::<BlockedAddress>() {
                    return Err(FetchError::Blocked {
                        url: url.to_string(),
                        reason: blocked.to_string(),
                    });
                }
                let host = err
                    .downcast_ref::<DnsFailure>()
                    .map_or_else(|| host.to_string(), |d| d.host.clone());
                Err(FetchError::Dns { host })
            }
        }
    }

    /// A reqwest resolver applying this guard to every lookup.
    pub fn resolver(self) -> Arc<GuardedResolver> {
        Arc::new(GuardedResolver { guard: self })
    }
}

/// Resolves with the system resolver, then drops refused addresses.
pub struct GuardedResolver {
    guard: TargetGuard,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard;
        Box::pin(async move {
            let host = name.as_str().to_string();
            let addrs: Vec<SocketAddr> = match tokio::net::lookup_host((host.as_str(), 0)).await {
                Ok(it) => it.collect(),
                Err(_) => Vec::new(),
            };
            if addrs.is_empty() {
                return Err(Box::new(DnsFailure { host }) as Box<dyn std::error::Error + Send + Sync>);
            }
            if guard.allow_private {
                return Ok(Box::new(addrs.into_iter()) as Addrs);
            }
            let first = addrs[0].ip();
            let allowed: Vec<SocketAddr> = addrs
                .into_iter()
                .filter(|a| guard.refusal(a.ip()).is_none())
                .collect();
            if allowed.is_empty() {
                return Err(Box::new(BlockedAddress { host, addr: first })
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// Why an address is refused, or `None` for a public unicast address.
pub fn classify(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() {
        Some("private")
    } else if o[0] == 169 && o[1] == 254 {
        if o[2] == 169 && o[3] == 254 {
            Some("cloud metadata")
        } else {
            Some("link-local")
        }
    } else if ip.is_unspecified() || o[0] == 0 {
        Some("unspecified")
    } else if o[0] == 100 && (64..128).contains(&o[1]) {
        Some("shared (carrier-grade NAT)")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if ip.is_broadcast() || o[0] >= 240 {
        Some("reserved")
    } else if o[0] == 192 && o[1] == 0 && o[2] == 0 {
        Some("IETF protocol assignment")
    } else if o[0] == 198 && (o[1] == 18 || o[1] == 19) {
        Some("benchmarking")
    } else if ip.is_documentation() {
        Some("documentation")
    } else {
        None
    }
}

fn classify_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    let s = ip.segments();
    // NAT64 (64:ff9b::/96) embeds an IPv4 address.
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return classify_v4(v4);
    }
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if (s[0] & 0xfe00) == 0xfc00 {
        Some("unique local (private)")
    } else if (s[0] & 0xffc0) == 0xfe80 {
        Some("link-local")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if s[0] == 0x2001 && s[1] == 0x0db8 {
        Some("documentation")
    } else if s[0..6] == [0, 0, 0, 0, 0, 0] {
        Some("IPv4-compatible (deprecated)")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn refused(s: &str) -> bool {
        classify(s.parse().unwrap()).is_some()
    }

    #[test]
    fn refuses_internal_addresses() {
        for a in [
            "127.0.0.1",
            "127.1.2.3",
            "10.0.0.1",
            "172.16.5.5",
            "192.168.1.1",
            "169.254.169.254",
            "169.254.1.1",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.1.1",
            "64:ff9b::a9fe:a9fe",
            "ff02::1",
        ] {
            assert!(refused(a), "{a} should be refused");
        }
    }

    #[test]
    fn allows_public_addresses() {
        for a in [
            "93.184.216.34",
            "8.8.8.8",
            "1.1.1.1",
            "2606:4700::1111",
            "172.32.0.1",
            "100.128.0.1",
        ] {
            assert!(!refused(a), "{a} should be allowed");
        }
    }

    #[test]
    fn url_literals() {
        let g = TargetGuard::strict(&[]);
        assert!(
            g.check_url(&Url::parse("http://127.0.0.1:8080/").unwrap())
                .is_err()
        );
        assert!(g.check_url(&Url::parse("http://[::1]/").unwrap()).is_err());
        assert!(g.check_url(&Url::parse("http://example.com/").unwrap()).is_ok());
        let open = TargetGuard::open();
        assert!(open.check_url(&Url::parse("http://127.0.0.1/").unwrap()).is_ok());
    }

    #[test]
    fn allowed_ranges_pass_when_private_targets_are_refused() {
        let allowed = allowed_cidrs::parse("127.0.0.1/32").unwrap().leak();
        let g = TargetGuard::strict(allowed);
        assert!(g.check_url(&Url::parse("http://127.0.0.1:9/").unwrap()).is_ok());
        assert!(
            g.check_url(&Url::parse("http://[::ffff:127.0.0.1]/").unwrap())
                .is_ok()
        );
        let err = g
            .check_url(&Url::parse("http://127.0.0.2/").unwrap())
            .unwrap_err();
        assert!(err.contains("loopback"), "{err}");
        assert!(g.check_url(&Url::parse("http://10.0.0.1/").unwrap()).is_err());
    }

    /// The lookup a proxied hop makes first ends at the request's deadline:
    /// a name not resolved by then is the request's timeout, whatever the
    /// system resolver would still take. The stall here is real: the lookup
    /// runs on a blocking thread, and the runtime's only one is busy.
    #[test]
    fn a_proxied_hop_s_lookup_ends_at_the_deadline() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .max_blocking_threads(1)
            .build()
            .unwrap();
        runtime.block_on(async {
            let g = TargetGuard::strict(&[]);
            let url = Url::parse("http://localhost:9/").unwrap();
            let later = Instant::now() + Duration::from_secs(30);
            assert!(
                matches!(g.check_name(&url, later).await, Err(FetchError::Blocked { .. })),
                "resolved in time, localhost is refused"
            );
            let (release, held) = std::sync::mpsc::channel::<()>();
            let busy = tokio::task::spawn_blocking(move || held.recv_timeout(Duration::from_secs(30)));
            let started = Instant::now();
            let deadline = started + Duration::from_millis(200);
            let late = tokio::time::timeout(Duration::from_secs(10), g.check_name(&url, deadline))
                .await
                .expect("the lookup's wait ended by itself");
            assert!(matches!(late, Err(FetchError::Timeout { .. })), "{late:?}");
            let took = started.elapsed();
            assert!(
                took >= Duration::from_millis(200) && took < Duration::from_secs(2),
                "{took:?}"
            );
            release.send(()).unwrap();
            busy.await.unwrap().unwrap();
        });
    }

    #[tokio::test]
    async fn the_resolver_keeps_only_allowed_addresses() {
        let allowed = allowed_cidrs::parse("127.0.0.1").unwrap().leak();
        let found: Vec<SocketAddr> = TargetGuard::strict(allowed)
            .resolver()
            .resolve(Name::from_str("localhost").unwrap())
            .await
            .unwrap()
            .collect();
        assert!(!found.is_empty());
        assert!(
            found.iter().all(|a| a.ip() == IpAddr::from([127, 0, 0, 1])),
            "{found:?}"
        );
        let refused = TargetGuard::strict(&[])
            .resolver()
            .resolve(Name::from_str("localhost").unwrap())
            .await;
        assert!(refused.is_err());
    }
}
