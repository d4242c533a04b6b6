//! The `distill` binary: reads configuration, sets up logging, serves.

use clap::Parser;
use distill::config::{Cli, Config, LogFormat};
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let mut cli = Cli::parse();
    let command = cli.command.take();
    let config = Config::from_cli(cli)?;
    if let Some(distill::config::Command::Keys { action }) = command {
        return distill::keys_cli::run(action, &config);
    }
    let filter = EnvFilter::try_new(&config.log)
        .map_err(|e| anyhow::anyhow!("invalid log filter {:?}: {e}", config.log))?;
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
