//! (tests only) The deterministic generator of the randomised tests that compare a fast
//! path with the code it replaced kept as a reference: xorshift64, so a seed always gives
//! the same inputs and a failure can be replayed.

/// xorshift64 (13, 7, 17) from a non-zero seed.
pub(crate) struct TestRng(u64);

impl TestRng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next number below `n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// Fewer than `max` of `pieces` (`max` > 0), each picked at random, joined.
    pub(crate) fn string_of<S: AsRef<str>>(&mut self, pieces: &[S], max: usize) -> String {
        let n = self.below(max);
        (0..n)
            .map(|_| pieces[self.below(pieces.len())].as_ref())
            .collect()
    }
}
