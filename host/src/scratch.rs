//! A working buffer kept between uses by its one owner (a thread), so that a
//! page-sized buffer the work needs each time is not a fresh allocation each
//! time: glibc maps every block of 128 KiB or more on its own (`main.rs`
//! `tune_malloc`), and a fresh mapping's pages fault in and are zeroed by the
//! kernel on every use. Capped: a buffer that grew beyond the cap is released
//! after the use, so what stays resident is bounded by the cap per owner.

/// A reused byte buffer, empty at the start of every use.
pub struct Scratch {
    buf: Vec<u8>,
    cap: usize,
}

impl Scratch {
    /// A scratch that keeps at most `cap` bytes of capacity between uses.
    pub const fn new(cap: usize) -> Self {
        Scratch { buf: Vec::new(), cap }
    }

    /// Runs `f` on the buffer, empty (nothing an earlier use wrote is in it);
    /// afterwards empties it again and releases it when it grew beyond the cap.
    pub fn with<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        self.buf.clear();
        let out = f(&mut self.buf);
        self.buf.clear();
        if self.buf.capacity() > self.cap {
            self.buf = Vec::new();
        }
        out
    }

    /// Bytes of capacity kept between uses.
    pub fn retained(&self) -> usize {
        self.buf.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_within_the_cap_is_kept_and_reused() {
        let mut s = Scratch::new(1 << 20);
        let first = s.with(|b| {
            b.extend_from_slice(&[7; 300_000]);
            b.as_ptr()
        });
        assert!(s.retained() >= 300_000);
        let second = s.with(|b| {
            b.extend_from_slice(&[8; 200_000]);
            b.as_ptr()
        });
        assert_eq!(first, second, "the same allocation serves the second use");
    }

    #[test]
    fn a_buffer_beyond_the_cap_is_released() {
        let mut s = Scratch::new(64 * 1024);
        s.with(|b| b.extend_from_slice(&[1; 200_000]));
        assert_eq!(s.retained(), 0);
        s.with(|b| b.extend_from_slice(&[1; 1000]));
        assert!(s.retained() >= 1000 && s.retained() <= 64 * 1024);
    }

    #[test]
    fn no_use_sees_what_an_earlier_use_wrote() {
        let mut s = Scratch::new(1 << 20);
        s.with(|b| b.extend_from_slice(b"secret page body"));
        s.with(|b| {
            assert!(b.is_empty());
            // Even the spare capacity was not handed on as contents.
            b.reserve(16);
            assert_eq!(b.len(), 0);
        });
        // A use that panics midway leaves nothing behind for the next one.
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            s.with(|b| {
                b.extend_from_slice(b"half written");
                panic!("midway")
            })
        }));
        assert!(caught.is_err());
        s.with(|b| assert!(b.is_empty()));
    }

    #[test]
    fn results_come_back() {
        let mut s = Scratch::new(1024);
        assert_eq!(
            s.with(|b| {
                b.extend_from_slice(b"abc");
                b.len()
            }),
            3
        );
    }
}
