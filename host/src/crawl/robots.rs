//! robots.txt: parsing (groups by user agent, Allow / Disallow with `*` and
//! `$`, longest match wins, Allow on a tie, `Sitemap:` lines) and a per-host
//! cache so each origin's file is fetched once per [`ROBOTS_TTL`]. A missing
//! file (4xx) allows everything; a server error or an unreachable host
//! disallows everything for that origin (RFC 9309 §2.3.1.4).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a fetched robots.txt is used.
pub const ROBOTS_TTL: Duration = Duration::from_secs(3600);
/// Largest robots.txt read (RFC 9309 asks for at least 500 KiB).
pub const MAX_ROBOTS_BYTES: usize = 512 * 1024;

/// One origin's rules for one user agent.
#[derive(Debug, Clone, Default)]
pub struct Robots {
    /// (allow, pattern) for the group that applies to our agent.
    rules: Vec<(bool, String)>,
    /// Everything refused (the file could not be fetched for a server error).
    deny_all: bool,
    /// Sitemap URLs the file names.
    pub sitemaps: Vec<String>,
}

impl Robots {
    /// Everything allowed (no file).
    pub fn allow_all() -> Robots {
        Robots::default()
    }

    /// Everything refused (server error, unreachable).
    pub fn deny_all() -> Robots {
        Robots {
            deny_all: true,
            ..Robots::default()
        }
    }

    /// Parses a file for `agent` (its product token, compared case-insensitively).
    pub fn parse(text: &str, agent: &str) -> Robots {
        let agent = agent.to_ascii_lowercase();
        let token = agent.split(['/', ' ']).next().unwrap_or("").to_string();
        let mut sitemaps = Vec::new();
        // Groups: (agents, rules).
        let mut groups: Vec<Group> = Vec::new();
        let mut in_agents = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((field, value)) = line.split_once(':') else {
                continue;
            };
            let field = field.trim().to_ascii_lowercase();
            let value = value.trim();
            match field.as_str() {
                "user-agent" => {
                    if !in_agents {
                        groups.push((Vec::new(), Vec::new()));
                        in_agents = true;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.0.push(value.to_ascii_lowercase());
                    }
                }
                "allow" | "disallow" => {
                    in_agents = false;
                    if let Some(g) = groups.last_mut()
                        && !(field == "disallow" && value.is_empty())
                    {
                        g.1.push((field == "allow", value.to_string()));
                    }
                }
                "sitemap" if !value.is_empty() => sitemaps.push(value.to_string()),
                "sitemap" => {}
                _ => in_agents = false,
            }
        }
        let mine: Vec<(bool, String)> = groups
            .iter()
            .filter(|(agents, _)| {
                agents
                    .iter()
                    .any(|a| a != "*" && !token.is_empty() && token.contains(a.as_str()))
            })
            .flat_map(|(_, r)| r.clone())
            .collect();
        let rules = if mine.is_empty() {
            groups
                .iter()
                .filter(|(agents, _)| agents.iter().any(|a| a == "*"))
                .flat_map(|(_, r)| r.clone())
                .collect()
        } else {
            mine
        };
        Robots {
            rules,
            deny_all: false,
            sitemaps,
        }
    }

    /// Whether `path_and_query` (e.g. `/a/b?c`) may be fetched.
    pub fn allows(&self, path_and_query: &str) -> bool {
        if self.deny_all {
            return false;
        }
        let mut best: Option<(usize, bool)> = None;
        for (allow, pattern) in &self.rules {
            if matches(pattern, path_and_query) {
                let len = pattern.len();
                let better = match best {
                    None => true,
                    Some((l, a)) => len > l || (len == l && *allow && !a),
                };
                if better {
                    best = Some((len, *allow));
                }
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }
}

/// robots.txt pattern match: prefix match, `*` any run, `$` end anchor.
fn matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut pos = 0;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            if !path.starts_with(part) {
                return false;
            }
            pos = part.len();
        } else if i == parts.len() - 1 && anchored {
            return path.len() >= pos + part.len() && path.ends_with(part);
        } else {
            match path[pos..].find(part) {
                Some(at) => pos += at + part.len(),
                None => return false,
            }
        }
    }
    !anchored || pos == path.len()
}

/// A group: its user agents and its (allow, pattern) rules.
type Group = (Vec<String>, Vec<(bool, String)>);

/// Fetched robots files by origin (`scheme://host:port`).
#[derive(Default)]
pub struct RobotsCache {
    entries: Mutex<HashMap<String, (Instant, std::sync::Arc<Robots>)>>,
}

impl RobotsCache {
    pub fn get(&self, origin: &str) -> Option<std::sync::Arc<Robots>> {
        let map = self.entries.lock().expect("robots lock");
        map.get(origin)
            .filter(|(at, _)| at.elapsed() < ROBOTS_TTL)
            .map(|(_, r)| r.clone())
    }

    pub fn put(&self, origin: &str, robots: std::sync::Arc<Robots>) {
        let mut map = self.entries.lock().expect("robots lock");
        if map.len() > 10_000 {
            map.retain(|_, (at, _)| at.elapsed() < ROBOTS_TTL);
        }
        map.insert(origin.to_string(), (Instant::now(), robots));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzz finding (fuzz target `robots`): an empty `Sitemap:` line was kept
    /// as a sitemap URL "" (which resolves to the robots file's own URL).
    #[test]
    fn empty_sitemap_line_is_ignored() {
        let robots = Robots::parse(
            "User-agent: *\nSitemap:\nSitemap: \t\nSitemap: http://a.test/s.xml\n",
            "distill",
        );
        assert_eq!(robots.sitemaps, ["http://a.test/s.xml"]);
    }

    const FILE: &str = "User-agent: *\nDisallow: /private/\nAllow: /private/open\nDisallow: /*.pdf$\n\n\
        User-agent: DistillBot\nUser-agent: other\nDisallow: /no-distill\n\nSitemap: http://a.test/sitemap.xml\n";

    #[test]
    fn groups_and_longest_match() {
        let any = Robots::parse(FILE, "SomeBot/1.0");
        assert!(!any.allows("/private/x"));
        assert!(any.allows("/private/open/x"));
        assert!(!any.allows("/doc.pdf"));
        assert!(any.allows("/doc.pdf?x"));
        assert!(any.allows("/no-distill"));
        let ours = Robots::parse(FILE, "DistillBot/0.1");
        assert!(!ours.allows("/no-distill"));
        assert!(ours.allows("/private/x"), "a specific group replaces *");
        assert_eq!(any.sitemaps, vec!["http://a.test/sitemap.xml"]);
        assert!(Robots::allow_all().allows("/x"));
        assert!(!Robots::deny_all().allows("/x"));
    }

    #[test]
    fn patterns() {
        assert!(matches("/a*b", "/axxb/c"));
        assert!(!matches("/a*b$", "/axxb/c"));
        assert!(matches("/a*b$", "/axxb"));
        assert!(matches("/", "/anything"));
    }
}
