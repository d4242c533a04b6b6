//! Logging into the host's structured log. Each line is attributed to the
//! plugin and the request that called it.

use crate::bindings::format::distill::plugin::log::{self as host, Level};

fn write(level: Level, message: &str) {
    #[cfg(target_arch = "wasm32")]
    host::log(level, message);
    #[cfg(not(target_arch = "wasm32"))]
    {
        // Native builds (unit tests, benchmarks) have no host: print instead.
        let _ = host::log;
        eprintln!("[{level:?}] {message}");
    }
}

/// Logs at trace level.
pub fn trace(message: &str) {
    write(Level::Trace, message)
}
/// Logs at debug level.
pub fn debug(message: &str) {
    write(Level::Debug, message)
}
/// Logs at info level.
pub fn info(message: &str) {
    write(Level::Info, message)
}
/// Logs at warn level.
pub fn warn(message: &str) {
    write(Level::Warn, message)
}
/// Logs at error level.
pub fn error(message: &str) {
    write(Level::Error, message)
}
