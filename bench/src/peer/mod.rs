//! Benchmark 9, `peer_pagesift`: Distill beside pagesift 0.81.5 (the fastest
//! Firecrawl-compatible peer we know of; a black box) on the same local pages:
//! a ~30 KB article, a ~500 KB page and the corpus's smallest page, fresh
//! `formats: ["markdown"]` scrapes at concurrency 1 and 16, in interleaved
//! rounds (each round runs every cell on both servers, alternating which goes
//! first) so drift in the machine's load hits both alike. Per server: req/s,
//! CPU ms/request (utime+stime from `/proc`), RSS after start-up and peak.
//!
//! With `--before-bin FILE` (an earlier build of the server) that build runs
//! as a third server in the same rounds, so a change's before/after comes
//! from one run.
//!
//! - [`pagesift`]: spawning the peer.

pub mod pagesift;

use crate::procfs::status_kib;
use crate::report::Table;
use crate::scrape::load;
use crate::scrape::server::Server;
use crate::scrape::site::Site;
use crate::stats::f;
use bytes::Bytes;
use serde_json::{Value, json};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The pages: (corpus id, what it stands for). Chosen by size from wcxb-dev:
/// the scrape benchmark's article, a ~495 KB article page and an 8.8 KB forum
/// post with ~800 characters of text (the corpus has no ~1 KB page; its
/// smaller ones are script shells with no text to convert).
pub const PAGES: [(&str, &str); 3] = [
    ("4036", "~30 KB article"),
    ("0402", "~500 KB page"),
    ("0541", "small page (9 KB, a short post)"),
];

pub const CONCURRENCIES: [usize; 2] = [1, 16];

/// Requests per timed phase at most; phases end on their time limit first.
const PHASE_MAX_REQUESTS: usize = 1_000_000;

pub struct Config {
    pub corpus: PathBuf,
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub pagesift_bin: PathBuf,
    /// An earlier build of the server, measured alongside.
    pub before_bin: Option<PathBuf>,
    pub data_dir: PathBuf,
    pub rounds: usize,
    /// Length of each timed phase.
    pub phase: Duration,
    pub warmup: usize,
}

/// Totals of one server on one (page, concurrency) cell over all rounds.
#[derive(Default, Clone)]
pub struct Cell {
    pub requests: usize,
    pub errors: usize,
    pub elapsed: Duration,
    pub cpu: Duration,
    pub first_error: Option<String>,
}

impl Cell {
    fn add(&mut self, r: &load::LoadResult) {
        self.requests += r.requests;
        self.errors += r.errors;
        self.elapsed += r.elapsed;
        self.cpu += r.server_cpu;
        if self.first_error.is_none() {
            self.first_error = r.first_error.clone();
        }
    }
    pub fn requests_per_sec(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    pub fn cpu_ms_per_request(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e3 / self.requests.max(1) as f64
    }
}

pub struct Row {
    pub label: &'static str,
    pub id: &'static str,
    pub bytes: usize,
    pub concurrency: usize,
    pub distill: Cell,
    pub pagesift: Option<Cell>,
    pub before: Option<Cell>,
}

/// Memory of one server process, KiB.
#[derive(Default)]
pub struct Memory {
    pub after_start: Option<u64>,
    pub peak: Option<u64>,
}

pub struct Results {
    pub rounds: usize,
    pub phase: Duration,
    pub rows: Vec<Row>,
    pub distill_memory: Memory,
    pub pagesift_memory: Memory,
    pub before_memory: Memory,
    pub before_bin: Option<PathBuf>,
    /// Why pagesift is not in the table, if it is not.
    pub pagesift_missing: Option<String>,
}

fn read_page(corpus: &Path, id: &str) -> anyhow::Result<Bytes> {
    let path = corpus.join("html").join(format!("{id}.html.gz"));
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path)?).read_to_end(&mut raw)?;
    Ok(Bytes::from(raw))
}

fn request(url: &str) -> Bytes {
    Bytes::from(json!({"url": url, "formats": ["markdown"], "maxAge": 0}).to_string())
}

/// One checked scrape: HTTP 200, `success: true` and some markdown.
async fn probe(client: &reqwest::Client, url: &str, body: Bytes) -> Result<(), String> {
    let resp = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status();
    let value: Value = resp.json().await.map_err(|e| e.to_string())?;
    let markdown = value["data"]["markdown"].as_str().unwrap_or_default();
    if status.is_success() && value["success"] == true && !markdown.trim().is_empty() {
        Ok(())
    } else {
        let text = value.to_string();
        Err(format!("HTTP {status}: {}", &text[..text.len().min(300)]))
    }
}

/// Starts a server on `data_dir` as a deployment runs: a second start,
/// after a first one compiled the plugins into the data directory's code
/// cache. A first start compiles at start-up, and the heap that compiling
/// leaves behind serves the large page's buffers without page faults
/// (~1.4 ms less CPU per 500 KB scrape than every later start: BENCHMARKS.md,
/// "A restarted server"), so a fresh data directory would flatter the figures.
fn spawn_warm(bin: &Path, plugins_dir: &Path, data_dir: &Path) -> anyhow::Result<Server> {
    drop(Server::spawn(
        bin,
        plugins_dir,
        data_dir,
        Duration::from_secs(120),
    )?);
    Server::spawn(bin, plugins_dir, data_dir, Duration::from_secs(120))
}

pub async fn run(cfg: &Config) -> anyhow::Result<Results> {
    let mut pages = Vec::new();
    for (id, _) in PAGES {
        pages.push(read_page(&cfg.corpus, id)?);
    }
    let site = Site::start_pages(
        PAGES
            .iter()
            .zip(&pages)
            .map(|((id, _), body)| (format!("/p/{id}.html"), body.clone()))
            .collect(),
    )
    .await?;
    let page_url = |id: &str| format!("http://{}/p/{id}.html", site.addr);
    let client = reqwest::Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()?;

    let distill = spawn_warm(&cfg.server_bin, &cfg.plugins_dir, &cfg.data_dir.join("distill"))?;
    let mut distill_memory = Memory {
        after_start: status_kib(distill.pid, "VmRSS"),
        peak: None,
    };
    let distill_url = format!("{}/v2/scrape", distill.base_url);
    for (id, _) in PAGES {
        probe(&client, &distill_url, request(&page_url(id)))
            .await
            .map_err(|e| anyhow::anyhow!("Distill's probe scrape of page {id} failed: {e}"))?;
    }

    let before = match &cfg.before_bin {
        Some(bin) => Some(spawn_warm(bin, &cfg.plugins_dir, &cfg.data_dir.join("before"))?),
        None => None,
    };
    let mut before_memory = Memory::default();
    let before = match before {
        Some(server) => {
            before_memory.after_start = status_kib(server.pid, "VmRSS");
            let url = format!("{}/v2/scrape", server.base_url);
            for (id, _) in PAGES {
                probe(&client, &url, request(&page_url(id))).await.map_err(|e| {
                    anyhow::anyhow!("the before build's probe scrape of page {id} failed: {e}")
                })?;
            }
            Some((server, url))
        }
        None => None,
    };

    let mut pagesift_missing = None;
    let mut pagesift_memory = Memory::default();
    let peer = if !cfg.pagesift_bin.is_file() {
        pagesift_missing = Some(format!(
            "pagesift is not installed at `{}` (`make pagesift` installs it; it needs network access to crates.io once)",
            cfg.pagesift_bin.display()
        ));
        None
    } else {
        match pagesift::Pagesift::spawn(
            &cfg.pagesift_bin,
            &cfg.data_dir.join("pagesift"),
            Duration::from_secs(60),
        ) {
            Ok(p) => Some(p),
            Err(e) => {
                pagesift_missing = Some(format!("pagesift did not start: {e:#}"));
                None
            }
        }
    };
    let peer = match peer {
        Some(p) => {
            let url = format!("{}/v2/scrape", p.base_url);
            let mut failed = None;
            for (id, _) in PAGES {
                if let Err(e) = probe(&client, &url, request(&page_url(id))).await {
                    failed = Some(format!("pagesift's probe scrape of page {id} failed: {e}"));
                    break;
                }
            }
            pagesift_memory.after_start = status_kib(p.pid, "VmRSS");
            match failed {
                None => Some((p, url)),
                Some(why) => {
                    pagesift_missing = Some(why);
                    None
                }
            }
        }
        None => None,
    };

    let mut rows: Vec<Row> = Vec::new();
    for ((id, label), body) in PAGES.iter().zip(&pages) {
        for c in CONCURRENCIES {
            rows.push(Row {
                label,
                id,
                bytes: body.len(),
                concurrency: c,
                distill: Cell::default(),
                pagesift: peer.as_ref().map(|_| Cell::default()),
                before: before.as_ref().map(|_| Cell::default()),
            });
        }
    }
    for round in 0..cfg.rounds {
        for row in rows.iter_mut() {
            let body = request(&page_url(row.id));
            let mut order = vec![Who::Distill, Who::Pagesift, Who::Before];
            if round % 2 == 1 {
                order.reverse();
            }
            for who in order {
                let (url, pid) = match (who, &peer, &before) {
                    (Who::Distill, _, _) => (distill_url.as_str(), distill.pid),
                    (Who::Pagesift, Some((p, url)), _) => (url.as_str(), p.pid),
                    (Who::Before, _, Some((b, url))) => (url.as_str(), b.pid),
                    _ => continue,
                };
                let c = row.concurrency;
                let warm = Duration::from_secs(2);
                load::run(&client, url, &body, c, cfg.warmup, warm, pid).await?;
                let r = load::run(&client, url, &body, c, PHASE_MAX_REQUESTS, cfg.phase, pid).await?;
                eprintln!(
                    "    round {} {} c={c} {}: {:.0} req/s, {:.3} ms CPU/req, {} errors",
                    round + 1,
                    row.label,
                    who.name(),
                    r.requests_per_sec(),
                    r.server_cpu_ms_per_request(),
                    r.errors
                );
                let cell = match who {
                    Who::Distill => Some(&mut row.distill),
                    Who::Pagesift => row.pagesift.as_mut(),
                    Who::Before => row.before.as_mut(),
                };
                if let Some(cell) = cell {
                    cell.add(&r);
                }
            }
        }
    }
    distill_memory.peak = status_kib(distill.pid, "VmHWM");
    if let Some((p, _)) = &peer {
        pagesift_memory.peak = status_kib(p.pid, "VmHWM");
    }
    if let Some((b, _)) = &before {
        before_memory.peak = status_kib(b.pid, "VmHWM");
    }
    drop(before);
    drop(peer);
    drop(distill);
    drop(site);
    Ok(Results {
        rounds: cfg.rounds,
        phase: cfg.phase,
        rows,
        distill_memory,
        pagesift_memory,
        before_memory,
        before_bin: cfg.before_bin.clone(),
        pagesift_missing,
    })
}

/// The servers of a round.
#[derive(Clone, Copy)]
enum Who {
    Distill,
    Pagesift,
    Before,
}

impl Who {
    fn name(self) -> &'static str {
        match self {
            Who::Distill => "distill",
            Who::Pagesift => "pagesift",
            Who::Before => "distill (before)",
        }
    }
}

fn ratio(r: &Row) -> Option<f64> {
    let p = r.pagesift.as_ref()?;
    (p.requests_per_sec() > 0.0).then(|| r.distill.requests_per_sec() / p.requests_per_sec())
}

/// One line for the summary: the req/s ratio per row.
pub fn summary_line(r: &Results) -> String {
    if let Some(why) = &r.pagesift_missing {
        return format!("- Peer (pagesift {}): not measured — {why}.\n", pagesift::VERSION);
    }
    let cells: Vec<String> = r
        .rows
        .iter()
        .map(|row| {
            format!(
                "{} c={}: **{}x**",
                row.label,
                row.concurrency,
                ratio(row).map(|x| f(x, 2)).unwrap_or_else(|| "n/a".into())
            )
        })
        .collect();
    format!(
        "- Peer: Distill's req/s over pagesift {}'s on the same pages (fresh markdown scrapes; aim ≥ 1.5x on the article and the big page): {}.\n",
        pagesift::VERSION,
        cells.join(", ")
    )
}

pub fn to_markdown(r: &Results) -> String {
    let mib = |kib: Option<u64>| {
        kib.map(|k| f(k as f64 / 1024.0, 1))
            .unwrap_or_else(|| "n/a".into())
    };
    let mut out = format!(
        "Distill (`target/release/distill`, default configuration) beside pagesift {} (AGPL-3.0, run only as a \
         black box: `pagesift serve --no-cache --allow-cidr 127.0.0.0/8` with `[policy] interval_ms = 0`, `per_host_concurrency = 256` in its config — its default paces one host to ~1 req/s —, installed by `make pagesift`) on the same pages \
         from `../shared/corpus/wcxb-dev`, served by a static server in the bench process. Requests are `POST /v2/scrape` \
         with `{{\"url\": …, \"formats\": [\"markdown\"], \"maxAge\": 0}}` over keep-alive connections. {} interleaved \
         rounds: each round runs every (page, concurrency) cell for {:.1} s on each server after a short warm-up, \
         alternating which server goes first; figures are totals over the rounds. CPU is the server process's \
         utime+stime from `/proc/PID/stat` divided by its requests. Both servers share the machine's 2 cores with \
         the load generator.\n\n",
        pagesift::VERSION,
        r.rounds,
        r.phase.as_secs_f64()
    );
    if let Some(why) = &r.pagesift_missing {
        out.push_str(&format!(
            "**pagesift not measured**: {why}. Distill's figures alone:\n\n"
        ));
    }
    let has_before = r.before_bin.is_some();
    let mut header = vec![
        "page",
        "bytes",
        "conc",
        "Distill req/s (CPU ms/req)",
        "pagesift req/s (CPU ms/req)",
        "ratio (req/s)",
        "errors D / P",
    ];
    if has_before {
        header.push("before build req/s (CPU ms/req)");
    }
    let mut t = Table::new(&header);
    for row in &r.rows {
        let cell = |c: &Cell| {
            format!(
                "{} ({})",
                f(c.requests_per_sec(), 0),
                f(c.cpu_ms_per_request(), 3)
            )
        };
        let mut cells = vec![
            format!("{} (`{}`)", row.label, row.id),
            row.bytes.to_string(),
            row.concurrency.to_string(),
            cell(&row.distill),
            row.pagesift.as_ref().map(cell).unwrap_or_else(|| "–".into()),
            ratio(row)
                .map(|x| format!("**{}x**", f(x, 2)))
                .unwrap_or_else(|| "–".into()),
            format!(
                "{} / {}",
                row.distill.errors,
                row.pagesift
                    .as_ref()
                    .map(|c| c.errors.to_string())
                    .unwrap_or_else(|| "–".into())
            ),
        ];
        if has_before {
            cells.push(row.before.as_ref().map(cell).unwrap_or_else(|| "–".into()));
        }
        t.row(cells);
    }
    out.push_str(&t.to_markdown());
    for row in &r.rows {
        for (who, cell) in [
            ("Distill", Some(&row.distill)),
            ("pagesift", row.pagesift.as_ref()),
        ] {
            if let Some(e) = cell.and_then(|c| c.first_error.as_deref()) {
                out.push_str(&format!(
                    "\nFirst {who} error on {} c={}: `{e}`\n",
                    row.label, row.concurrency
                ));
            }
        }
    }
    out.push_str(&format!(
        "\nRSS: Distill {} MiB after start-up, peak (VmHWM) {} MiB; pagesift {} MiB after its probe scrapes, peak {} MiB.\n",
        mib(r.distill_memory.after_start),
        mib(r.distill_memory.peak),
        mib(r.pagesift_memory.after_start),
        mib(r.pagesift_memory.peak),
    ));
    if let Some(bin) = &r.before_bin {
        out.push_str(&format!(
            "\nThe last column is an earlier build (`{}`), run as a third server in the same rounds; its RSS: {} MiB after start-up, peak {} MiB.\n",
            bin.display(),
            mib(r.before_memory.after_start),
            mib(r.before_memory.peak),
        ));
    }
    out
}
