//! The `distill` binary: reads configuration, sets up logging, serves.

use distill::config::{Config, LogFormat};
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let config = Config::load()?;
    let filter = EnvFilter::try_new(&config.log)
        .map_err(|e| anyhow::anyhow!("invalid log filter {:?}: {e}", config.log))?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match config.log_format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(distill::serve(config))
}
