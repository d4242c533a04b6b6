//! Where a page's CR LF and lone CR line ends were, once the buffer holds each as LF: kept
//! so the page as received can be given back ([`crate::PageHtml::raw`]), in about a byte a
//! line end (a list of positions took 8 bytes each, so a page of nothing but CRs, up to the
//! page cap, would have held a list 8 times its size).

/// The buffer positions of the LFs that were CR LF or lone CR, in order. Each is written
/// as its distance from the byte after the previous one, doubled, plus one if it was
/// CR LF, in 7-bit groups (low first; the high bit says another group follows). A line
/// under 64 bytes takes one byte, so the record is at most the page's length.
#[derive(Default)]
pub(crate) struct LineEnds {
    bytes: Vec<u8>,
    /// The buffer position after the last line end pushed.
    next: u32,
}

impl LineEnds {
    /// Notes a line end at buffer position `at` (after every one noted so far) and whether
    /// it was CR LF (else a lone CR).
    pub(crate) fn push(&mut self, at: u32, crlf: bool) {
        debug_assert!(at >= self.next, "line ends are noted in order");
        let mut v = (u64::from(at - self.next) << 1) | u64::from(crlf);
        while v >= 0x80 {
            self.bytes.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
        self.next = at + 1;
    }

    /// The line ends in order: buffer position, and whether it was CR LF.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        let mut bytes = self.bytes.iter();
        let mut next = 0u32;
        std::iter::from_fn(move || {
            let (mut v, mut shift) = (0u64, 0);
            loop {
                let b = *bytes.next()?;
                v |= u64::from(b & 0x7f) << shift;
                if b < 0x80 {
                    break;
                }
                shift += 7;
            }
            let at = next + (v >> 1) as u32;
            next = at + 1;
            Some((at, v & 1 == 1))
        })
    }

    /// The record's size in bytes.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    fn round_trip(ends: &[(u32, bool)]) {
        let mut record = LineEnds::default();
        for &(at, crlf) in ends {
            record.push(at, crlf);
        }
        assert_eq!(record.iter().collect::<Vec<_>>(), ends);
    }

    #[test]
    fn gives_back_what_was_noted() {
        round_trip(&[]);
        round_trip(&[(0, false)]);
        round_trip(&[(0, true), (1, false), (2, true)]);
        round_trip(&[(63, true), (127, false), (128, true), (8_320, false)]);
        round_trip(&[(u32::MAX - 1, true)]);
        round_trip(&[(5, false), (u32::MAX - 2, false), (u32::MAX - 1, true)]);
        let mut rng = TestRng::new(0x6c69_6e65);
        for _ in 0..500 {
            let mut ends = Vec::new();
            let mut at = 0u32;
            for _ in 0..rng.below(50) {
                at += [0, 1, 40, 63, 64, 200, 9_000, 70_000][rng.below(8)];
                ends.push((at, rng.below(2) == 1));
                at += 1;
            }
            round_trip(&ends);
        }
    }

    #[test]
    fn a_page_of_nothing_but_line_ends_takes_a_byte_each() {
        let mut record = LineEnds::default();
        for at in 0..100_000 {
            record.push(at, at % 3 == 0);
        }
        assert_eq!(record.len(), 100_000);
        // Ordinary lines (under 64 bytes) take one byte too; up to 8 KiB, two.
        let mut record = LineEnds::default();
        for line in 0..1_000u32 {
            record.push(line * 60, true);
        }
        assert_eq!(record.len(), 1_000);
    }
}
