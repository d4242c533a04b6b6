//! What a plugin writes to stdout and stderr: kept (up to a cap) so the host
//! can put it in the log — a panic message, a Python traceback — instead of
//! discarding it. Writes past the cap are dropped, never refused, so a chatty
//! plugin cannot fail or stall because of its output.

use bytes::Bytes;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

/// Bytes of plugin output kept per call.
pub const OUTPUT_CAP: usize = 16 * 1024;

/// A shared, capped buffer used as a plugin's stdout and stderr.
#[derive(Clone, Default)]
pub struct CapturedOutput {
    buffer: Arc<Mutex<Vec<u8>>>,
}

impl CapturedOutput {
    fn append(&self, bytes: &[u8]) {
        let mut buf = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        let room = OUTPUT_CAP.saturating_sub(buf.len());
        buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The output so far, as (lossy) UTF-8, trimmed.
    pub fn text(&self) -> String {
        let buf = self.buffer.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&buf).trim().to_string()
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CapturedOutput {
    async fn ready(&mut self) {}
}

impl OutputStream for CapturedOutput {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.append(&bytes);
        Ok(())
    }
    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }
    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 * 1024)
    }
}

impl tokio::io::AsyncWrite for CapturedOutput {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.append(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for CapturedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CapturedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_up_to_the_cap() {
        let out = CapturedOutput::default();
        let mut stream = out.clone();
        stream.write(Bytes::from_static(b"panicked at x\n")).unwrap();
        assert_eq!(out.text(), "panicked at x");
        stream.write(Bytes::from(vec![b'a'; OUTPUT_CAP * 2])).unwrap();
        assert_eq!(out.buffer.lock().unwrap().len(), OUTPUT_CAP);
    }
}
