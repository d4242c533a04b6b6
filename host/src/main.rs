//! The `distill` binary: reads configuration, sets up logging, serves.

use clap::Parser;
use distill::config::{Cli, Config, LogFormat};
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// Blocks of 128 KiB and up as mappings, with freed ones kept for reuse,
/// and small blocks through a per-thread cache (both bounded; see the modules).
#[global_allocator]
static GLOBAL: distill::large_alloc::Global = distill::large_alloc::Global;

fn main() -> anyhow::Result<()> {
    tune_malloc();
    if let Some(every) = distill::heap_trim::interval_from_env() {
        distill::heap_trim::start(every);
    }
    let mut cli = Cli::parse();
    let command = cli.command.take();
    let config = Config::from_cli(cli)?;
    if let Some(distill::config::Command::Keys { action }) = command {
        return distill::keys_cli::run(action, &config);
    }
    let mut filter = EnvFilter::try_new(&config.log)
        .map_err(|e| anyhow::anyhow!("invalid log filter {:?}: {e}", config.log))?;
    // chromiumoxide traces every DevTools message whole: proxy credentials,
    // page content (zeroDataRetention). Never logged. Capped only when the
    // filter lets traces through: the cap's `debug` would otherwise become
    // the `log` crate's max level, and every `log::debug!` of the HTML parser
    // (one per token) would be dispatched to the filter on every scrape.
    if filter
        .max_level_hint()
        .is_none_or(|max| max > tracing::level_filters::LevelFilter::DEBUG)
    {
        filter = filter.add_directive("chromiumoxide::conn=debug".parse()?);
    }
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match config.log_format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
    // Panics go through the log like everything else (one JSON object per
    // line in JSON mode), with where they happened.
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| l.to_string()).unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".to_string());
        tracing::error!(%location, "panic: {message}");
    }));
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(distill::serve(config))
}

/// glibc malloc settings for a long-running server under mixed load
/// (docs/OPERATORS.md, docs/ROBUSTNESS.md "Allocator"); an operator's own
/// `MALLOC_ARENA_MAX` / `MALLOC_MMAP_THRESHOLD_` wins.
///
/// - One arena per CPU: glibc gives each thread that allocates concurrently
///   its own heap arena (up to 8 per CPU), and each arena keeps the
///   high-water mark of what its threads parsed.
/// - Freed large blocks kept for reuse: `DISTILL_LARGE_ALLOC_CACHE_MIB`
///   (default 16, 0 = none) caps the bytes [`distill::large_alloc`] keeps.
/// - Freed blocks up to 64 KiB kept per thread by size class:
///   `DISTILL_THREAD_CACHE_KIB` (default 1024, 0 = none) caps each thread's
///   [`distill::small_alloc`] cache.
/// - A fixed mmap threshold of 128 KiB: by default glibc raises the threshold
///   each time a large block is freed (up to 32 MiB), after which page
///   bodies, documents and response buffers of up to 32 MiB are carved out of
///   the heaps instead of mapped; freed, they stay resident until the next
///   trim and fragment the heaps, so resident memory crept up with the
///   throughput (the 60-minute soak: +16 %). Fixed, every block of 128 KiB or
///   more is its own mapping and goes back to the kernel when freed. The
///   price is CPU on large pages (their buffers are fresh mappings whose
///   pages fault in: ~25 % of a 500 KB page's scrape); 1 MiB saves it but
///   brought part of the soak's creep back (BENCHMARKS.md, docs/ROBUSTNESS.md).
///   [`distill::large_alloc`] maps those blocks itself and keeps a few freed
///   ones resident for the next scrape, outside the heaps.
fn tune_malloc() {
    if let Some(mib) = std::env::var("DISTILL_LARGE_ALLOC_CACHE_MIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        distill::large_alloc::set_cap(mib << 20);
    }
    if let Some(kib) = std::env::var("DISTILL_THREAD_CACHE_KIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        distill::small_alloc::set_cap(kib << 10);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // Safety: mallopt only sets a tunable; called before any thread starts.
        if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
            let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
            unsafe {
                libc::mallopt(libc::M_ARENA_MAX, cpus.max(2) as libc::c_int);
            }
        }
        if std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_none() {
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
            }
        }
    }
}

/// Blocks of at least this many bytes are mapped on their own (see [`tune_malloc`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;
