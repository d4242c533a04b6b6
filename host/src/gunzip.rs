//! Inflating a gzip body (one member or several, as HTTP allows) into a
//! buffer that may not pass a limit: fed chunk by chunk as a body arrives,
//! so a decompression bomb stops at the limit instead of expanding, and
//! used alike on bytes already at hand (the cache's stored pages). The
//! fetch engine and the cache share it, so a stored gzip stream inflates
//! exactly as it did when it was fetched.

use flate2::write::MultiGzDecoder;
use std::io::Write;

/// Why inflating stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GunzipError {
    /// The inflated bytes would pass the limit.
    TooLarge,
    /// Not a gzip stream, or one cut short.
    Corrupt(String),
}

/// A gzip stream being inflated.
pub struct Gunzip {
    decoder: MultiGzDecoder<Vec<u8>>,
    limit: usize,
    fed: bool,
}

impl Gunzip {
    /// A stream whose inflated bytes may reach `limit`; `expected` sizes the
    /// output buffer (capped at the limit).
    pub fn new(limit: usize, expected: usize) -> Gunzip {
        Gunzip::after(&[], limit, expected)
    }

    /// A stream whose inflated bytes go after `prefix` in the output; the
    /// limit counts the prefix too.
    pub fn after(prefix: &[u8], limit: usize, expected: usize) -> Gunzip {
        let mut out = Vec::with_capacity(prefix.len() + expected.min(limit));
        out.extend_from_slice(prefix);
        Gunzip {
            decoder: MultiGzDecoder::new(out),
            limit,
            fed: false,
        }
    }

    /// Inflates `chunk`. Each step writes at most the decoder's buffer
    /// (32 KiB) of output, so the limit is checked long before a bomb has
    /// expanded far.
    pub fn feed(&mut self, mut chunk: &[u8]) -> Result<(), GunzipError> {
        self.fed |= !chunk.is_empty();
        while !chunk.is_empty() {
            let n = self.decoder.write(chunk).map_err(corrupt)?;
            if n == 0 {
                return Err(GunzipError::Corrupt("gzip: no progress".into()));
            }
            chunk = &chunk[n..];
            self.check()?;
        }
        Ok(())
    }

    /// The inflated bytes (after the prefix); an error when the stream
    /// ended early. An empty body inflates to nothing (as a response with
    /// no body does).
    pub fn finish(mut self) -> Result<Vec<u8>, GunzipError> {
        if !self.fed {
            return Ok(std::mem::take(self.decoder.get_mut()));
        }
        self.decoder.try_finish().map_err(corrupt)?;
        self.check()?;
        self.decoder.finish().map_err(corrupt)
    }

    fn check(&self) -> Result<(), GunzipError> {
        if self.decoder.get_ref().len() > self.limit {
            return Err(GunzipError::TooLarge);
        }
        Ok(())
    }
}

/// Inflates all of `bytes` at once, up to `limit` inflated bytes.
pub fn gunzip(bytes: &[u8], limit: usize, expected: usize) -> Result<Vec<u8>, GunzipError> {
    let mut g = Gunzip::new(limit, expected);
    g.feed(bytes)?;
    g.finish()
}

fn corrupt(e: std::io::Error) -> GunzipError {
    GunzipError::Corrupt(format!("gzip: {e}"))
}

#[cfg(test)]
#[path = "gunzip_tests.rs"]
mod tests;
