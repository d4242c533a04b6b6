//! Benchmark 6: the model formats on the local model (`make local-llm`:
//! SmolLM2-135M-Instruct on llama.cpp's server, one thread, 127.0.0.1) —
//! per format: latency of a scrape of the fixture article (whose page is
//! fetched from a loopback site, so nearly all of it is the model), and the
//! prompt/completion tokens per call from the server's own counters
//! (`GET /admin/llm`). Skipped with a note when the model is not installed.

use crate::report::Table;
use crate::scrape::server::Server;
use crate::scrape::site::{PAGE_PATH, Site};
use crate::stats::f;
use bytes::Bytes;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Config {
    pub server_bin: PathBuf,
    pub plugins_dir: PathBuf,
    pub data_dir: PathBuf,
    /// `target/tools/llm` (or `$DISTILL_LOCAL_LLM_DIR`).
    pub llm_dir: PathBuf,
    pub script: PathBuf,
    pub page: PathBuf,
    pub rounds: usize,
}

/// One format's figures.
pub struct FormatRun {
    pub name: &'static str,
    pub calls: u64,
    pub failures: u64,
    pub nulls: usize,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latencies_ms: Vec<f64>,
}

/// The deterministic-first formats over their fixture pages: how many pages
/// were answered without a model call.
pub struct MarkupRun {
    pub format: &'static str,
    pub pages: usize,
    pub pages_without_call: usize,
    pub calls: u64,
    pub latencies_ms: Vec<f64>,
}

pub enum LlmResult {
    Skipped(String),
    Ran {
        formats: Vec<FormatRun>,
        markup: Vec<MarkupRun>,
        context: u32,
        max_tokens: u32,
    },
}

const CONTEXT: u32 = 4096;
const MAX_TOKENS: u32 = 384;

/// The requests measured: (name, formats, extra options, data field).
fn cases() -> Vec<(&'static str, Value, Value, &'static str)> {
    let schema = json!({"type": "object", "properties": {
        "title": {"type": "string", "maxLength": 60},
        "species": {"type": "array", "items": {"type": "string", "maxLength": 30}, "maxItems": 3}},
        "required": ["title", "species"]});
    vec![
        ("summary", json!(["summary"]), json!({}), "summary"),
        (
            "json",
            json!([{"type": "json", "prompt": "The title and the species named.", "schema": schema}]),
            json!({}),
            "json",
        ),
        (
            "question",
            json!([{"type": "question", "question": "What are lichens made of?"}]),
            json!({}),
            "answer",
        ),
        (
            "highlights",
            json!([{"type": "highlights", "query": "What are lichens made of?"}]),
            json!({}),
            "highlights",
        ),
        (
            "cleanContent",
            json!(["markdown"]),
            json!({"onlyCleanContent": true, "onlyMainContent": false}),
            "markdown",
        ),
    ]
}

struct Model(Child);

impl Drop for Model {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_model(cfg: &Config) -> anyhow::Result<(Model, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let mut child = Command::new(cfg.llm_dir.join("venv/bin/python"))
        .arg(&cfg.script)
        .arg("--model")
        .arg(cfg.llm_dir.join("SmolLM2-135M-Instruct.Q4_1.gguf"))
        .args([
            "--port",
            &port.to_string(),
            "--ctx",
            &CONTEXT.to_string(),
            "--threads",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let stdout = child.stdout.take().expect("piped");
    let model = Model(child);
    let mut lines = BufReader::new(stdout).lines();
    match lines.next() {
        Some(Ok(line)) if line.starts_with("local-llm listening on") => {}
        other => anyhow::bail!("the local model did not start: {other:?}"),
    }
    std::thread::spawn(move || for _ in lines {});
    Ok((model, format!("http://127.0.0.1:{port}/v1")))
}

pub async fn run(cfg: &Config) -> anyhow::Result<LlmResult> {
    let installed = cfg.llm_dir.join("venv/bin/python").is_file()
        && cfg.llm_dir.join("SmolLM2-135M-Instruct.Q4_1.gguf").is_file();
    if !installed {
        return Ok(LlmResult::Skipped(format!(
            "Skipped: the local model is not installed in `{}` (`make local-llm`; `make bench` does it).\n",
            cfg.llm_dir.display()
        )));
    }
    let (_model, base_url) = start_model(cfg)?;
    let env = [
        ("DISTILL_LLM_BASE_URL", base_url),
        ("DISTILL_LLM_MODEL", "smollm2-135m".to_string()),
        ("DISTILL_LLM_CONTEXT_TOKENS", CONTEXT.to_string()),
        ("DISTILL_LLM_MAX_TOKENS", MAX_TOKENS.to_string()),
        ("DISTILL_ADMIN_KEY", "bench".to_string()),
    ];
    let server = Server::spawn_with_env(
        &cfg.server_bin,
        &cfg.plugins_dir,
        &cfg.data_dir,
        Duration::from_secs(180),
        &env,
    )?;
    let site = Site::start(Bytes::from(std::fs::read(&cfg.page)?)).await?;
    let url = format!("http://{}{PAGE_PATH}", site.addr);
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()?;
    let mut formats = Vec::new();
    for (name, requested, extra, field) in cases() {
        let mut latencies_ms = Vec::new();
        let mut nulls = 0;
        for _ in 0..cfg.rounds {
            let mut body = json!({"url": url, "formats": requested, "timeout": 300000, "maxAge": 0});
            for (k, v) in extra.as_object().unwrap() {
                body[k] = v.clone();
            }
            let started = Instant::now();
            let reply: Value = http
                .post(format!("{}/v2/scrape", server.base_url))
                .json(&body)
                .send()
                .await?
                .json()
                .await?;
            latencies_ms.push(started.elapsed().as_secs_f64() * 1000.0);
            let value = &reply["data"][field];
            if value.is_null() || reply["data"]["warning"].is_string() {
                nulls += 1;
            }
        }
        let usage: Value = http
            .get(format!("{}/admin/llm", server.base_url))
            .bearer_auth("bench")
            .send()
            .await?
            .json()
            .await?;
        let u = &usage["usage"][name];
        let n = |k: &str| u[k].as_u64().unwrap_or(0);
        formats.push(FormatRun {
            name,
            calls: n("calls"),
            failures: n("failures"),
            nulls,
            prompt_tokens: n("promptTokens"),
            completion_tokens: n("completionTokens"),
            latencies_ms,
        });
    }
    let mut markup = Vec::new();
    for format in ["product", "menu"] {
        markup.push(markup_run(&http, &server.base_url, &cfg.page, format).await?);
    }
    Ok(LlmResult::Ran {
        formats,
        markup,
        context: CONTEXT,
        max_tokens: MAX_TOKENS,
    })
}

/// The model calls `format` has made so far on the server.
async fn calls_of(http: &reqwest::Client, base_url: &str, format: &str) -> anyhow::Result<u64> {
    let usage: Value = http
        .get(format!("{base_url}/admin/llm"))
        .bearer_auth("bench")
        .send()
        .await?
        .json()
        .await?;
    Ok(usage["usage"][format]["calls"].as_u64().unwrap_or(0))
}

/// Scrapes every fixture page of `format` (tests/fixtures/site/{format}/,
/// beside the article) once, counting the pages that needed no model call.
async fn markup_run(
    http: &reqwest::Client,
    base_url: &str,
    article: &Path,
    format: &'static str,
) -> anyhow::Result<MarkupRun> {
    let dir = article.with_file_name(format);
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    let mut run = MarkupRun {
        format,
        pages: pages.len(),
        pages_without_call: 0,
        calls: 0,
        latencies_ms: Vec::new(),
    };
    for page in pages {
        let site = Site::start(Bytes::from(std::fs::read(&page)?)).await?;
        let url = format!("http://{}{PAGE_PATH}", site.addr);
        let before = calls_of(http, base_url, format).await?;
        let started = Instant::now();
        http.post(format!("{base_url}/v2/scrape"))
            .json(&json!({"url": url, "formats": [format], "timeout": 300000, "maxAge": 0}))
            .send()
            .await?
            .bytes()
            .await?;
        run.latencies_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        let made = calls_of(http, base_url, format).await? - before;
        run.calls += made;
        if made == 0 {
            run.pages_without_call += 1;
        }
    }
    Ok(run)
}

pub fn to_markdown(result: &LlmResult, page: &Path) -> String {
    let (formats, markup, context, max_tokens) = match result {
        LlmResult::Skipped(note) => return note.clone(),
        LlmResult::Ran {
            formats,
            markup,
            context,
            max_tokens,
        } => (formats, markup, context, max_tokens),
    };
    let mut out = format!(
        "Each model format on the local model (SmolLM2-135M-Instruct Q4_1, llama.cpp's server from PyPI \
         xllamacpp, 1 thread, 127.0.0.1; context {context}, `max_tokens` {max_tokens}), scraping `{}` \
         from a loopback site. Tokens are the server's counters (`GET /admin/llm`, every attempt \
         incl. retries and repairs) divided by calls; latency is the whole scrape. `cleanContent` is \
         the `onlyCleanContent` pass (`onlyMainContent: false`). A null/warning answer is counted, \
         not hidden.\n\n",
        page.display()
    );
    let mut table = Table::new(&[
        "format",
        "scrapes",
        "model calls",
        "failed calls",
        "null or warning",
        "prompt tokens / call",
        "completion tokens / call",
        "latency mean ms",
        "latency max ms",
        "completion tokens / s",
    ]);
    for r in formats {
        let per = |t: u64| {
            if r.calls == 0 {
                0.0
            } else {
                t as f64 / r.calls as f64
            }
        };
        let mean = r.latencies_ms.iter().sum::<f64>() / r.latencies_ms.len().max(1) as f64;
        let max = r.latencies_ms.iter().cloned().fold(0.0, f64::max);
        let total_s = r.latencies_ms.iter().sum::<f64>() / 1000.0;
        table.row([
            format!("`{}`", r.name),
            r.latencies_ms.len().to_string(),
            r.calls.to_string(),
            r.failures.to_string(),
            r.nulls.to_string(),
            f(per(r.prompt_tokens), 0),
            f(per(r.completion_tokens), 0),
            f(mean, 0),
            f(max, 0),
            f(r.completion_tokens as f64 / total_s.max(1e-9), 1),
        ]);
    }
    out.push_str(&table.to_markdown());
    out.push_str(
        "\n`product` and `menu` are deterministic first: the markup answers, and the model is asked only \
         for what the markup lacks (product: brand, description, price, availability; menu: a page \
         whose markup has no menu). Each fixture page under `tests/fixtures/site/{product,menu}/` \
         scraped once with the model configured:\n\n",
    );
    let mut table = Table::new(&[
        "format",
        "pages",
        "answered without a model call",
        "share",
        "model calls",
        "latency mean ms",
    ]);
    for r in markup {
        let mean = r.latencies_ms.iter().sum::<f64>() / r.latencies_ms.len().max(1) as f64;
        table.row([
            format!("`{}`", r.format),
            r.pages.to_string(),
            r.pages_without_call.to_string(),
            format!(
                "{}%",
                f(100.0 * r.pages_without_call as f64 / r.pages.max(1) as f64, 0)
            ),
            r.calls.to_string(),
            f(mean, 0),
        ]);
    }
    out.push_str(&table.to_markdown());
    out
}
