//! The `distill` binary: reads configuration, sets up logging, serves.

use clap::Parser;
use distill::config::{Cli, Config, LogFormat};
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    limit_malloc_arenas();
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

/// glibc gives each thread that allocates concurrently its own heap arena (up
/// to 8 per CPU), and each arena keeps the high-water mark of what its
/// threads parsed: under load that is tens of MiB of resident memory doing
/// nothing. One arena per CPU keeps contention low and resident memory small
/// (docs/OPERATORS.md). An operator's own `MALLOC_ARENA_MAX` wins.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        // Safety: mallopt only sets a tunable; called before any thread starts.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, cpus.max(2) as libc::c_int);
        }
    }
}
