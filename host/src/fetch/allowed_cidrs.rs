//! The operator's target allowlist (`DISTILL_ALLOW_TARGET_CIDRS`): address
//! ranges the server may fetch from even when private targets are refused,
//! e.g. one internal service (`10.0.5.7/32`) or a loopback test site
//! (`127.0.0.1/32`). A bare address means that one address. IPv4-mapped IPv6
//! addresses (`::ffff:a.b.c.d`) match the IPv4 ranges.

use ipnet::IpNet;
use std::net::IpAddr;

/// Parses a comma- or whitespace-separated list of CIDRs or single addresses.
pub fn parse(list: &str) -> Result<Vec<IpNet>, String> {
    list.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(|item| {
            if let Ok(net) = item.parse::<IpNet>() {
                return Ok(net.trunc());
            }
            item.parse::<IpAddr>()
                .map(IpNet::from)
                .map_err(|_| format!("\"{item}\" is neither a CIDR (e.g. 10.0.5.0/24) nor an IP address"))
        })
        .collect()
}

/// Whether `ip` falls in one of `allowed`.
pub fn contains(allowed: &[IpNet], ip: IpAddr) -> bool {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    allowed.iter().any(|net| net.contains(&ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn parses_cidrs_and_single_addresses() {
        let list = parse(" 127.0.0.1/32, 10.0.5.0/24 fd00::/8,192.168.1.9 ").unwrap();
        assert_eq!(list.len(), 4);
        assert!(contains(&list, ip("127.0.0.1")));
        assert!(!contains(&list, ip("127.0.0.2")));
        assert!(contains(&list, ip("10.0.5.200")));
        assert!(!contains(&list, ip("10.0.6.1")));
        assert!(contains(&list, ip("fd12::1")));
        assert!(contains(&list, ip("192.168.1.9")));
        assert!(!contains(&list, ip("192.168.1.10")));
        assert!(parse("").unwrap().is_empty());
    }

    #[test]
    fn host_bits_are_dropped() {
        let list = parse("10.1.2.3/16").unwrap();
        assert_eq!(list[0].to_string(), "10.1.0.0/16");
        assert!(contains(&list, ip("10.1.200.1")));
    }

    #[test]
    fn mapped_ipv6_matches_ipv4_ranges() {
        let list = parse("127.0.0.1/32").unwrap();
        assert!(contains(&list, ip("::ffff:127.0.0.1")));
        assert!(!contains(&list, ip("::1")));
    }

    #[test]
    fn bad_entries_are_named() {
        let err = parse("127.0.0.1/32,localhost").unwrap_err();
        assert!(err.contains("\"localhost\""), "{err}");
        assert!(parse("10.0.0.0/33").is_err());
    }
}
