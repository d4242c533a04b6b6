//! The browser engine: Chromium driven over the DevTools protocol
//! (chromiumoxide), for what plain HTTP cannot do — script-rendered pages,
//! `actions`, `screenshot`, `mobile`, `location`, `waitFor`.
//!
//! - [`pool`]: one Chromium per server, launched lazily, relaunched after a
//!   crash, a browser context per request, bounded pages, killed with the server.
//! - [`spare`]: the next scrape's fresh page, opened after a scrape.
//! - [`engine`]: [`engine::BrowserEngine`], the [`crate::fetch::engine::Engine`].
//! - [`hazards`]: dialogs dismissed; an alert loop, a crashed page or a
//!   Chromium gone end the request with a clear error.
//! - [`memory`]: Chromium's process tree and its memory, from /proc.
//! - [`intercept`]: every request of a page checked by the target guard (and
//!   `blockAds`' [`adblock`] list) before it leaves.
//! - [`banners`]: cookie and consent banners hidden (`blockAds`).
//! - [`emulate`]: viewport, mobile, location, headers, TLS.
//! - [`proxied`]: the operator's proxy pools for browser fetches.
//! - [`proxy_auth`]: the pools' proxy credentials, answered at the browser level.
//! - [`settle`]: smart wait, selector wait, running script.
//! - [`laps`]: step timings of a browser scrape (debug log).
//! - [`profile`]: `profile`, cookies and localStorage kept by name.
//! - `profile_dirs`: a Chromium's profile removed with its singleton dir in `/tmp`.
//! - [`actions`]: the `actions` option, upstream's `actions` response object.
//! - [`capture`]: screenshots and PDFs into the media store.
//! - [`branding`]: the computed-style snapshot the `branding` format reads.
//! - [`sessions`]: interact sessions on a replayed scrape's page ([`live`]),
//!   running node code ([`node_code`]) or a prompt ([`agent`]).

pub mod actions;
pub mod adblock;
pub mod agent;
pub mod banners;
pub mod branding;
pub mod capture;
pub mod emulate;
pub mod engine;
pub mod hazards;
pub mod intercept;
pub mod laps;
mod launch;
pub mod live;
pub mod memory;
pub mod node_code;
pub mod pool;
pub mod profile;
mod profile_dirs;
pub mod proxied;
pub mod proxy_auth;
pub mod sessions;
pub mod settle;
pub mod spare;
