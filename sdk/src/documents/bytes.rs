//! Little-endian readers over byte slices, for binary formats (feature `bytes`,
//! no dependencies). Every reader checks its bounds, offset overflow included,
//! and answers `None` instead of panicking on a short or hostile input.

/// The `len` bytes at offset `o`, or `None` when they run past the end.
pub fn slice_at(b: &[u8], o: usize, len: usize) -> Option<&[u8]> {
    b.get(o..o.checked_add(len)?)
}

/// The byte at offset `o`.
pub fn u8_at(b: &[u8], o: usize) -> Option<u8> {
    b.get(o).copied()
}

/// The little-endian `u16` at offset `o`.
pub fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(slice_at(b, o, 2)?.try_into().ok()?))
}

/// The little-endian `u32` at offset `o`.
pub fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(slice_at(b, o, 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_values_in_bounds() {
        let b = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFF];
        assert_eq!(u8_at(&b, 8), Some(0xFF));
        assert_eq!(u16_at(&b, 0), Some(0x0201));
        assert_eq!(u16_at(&b, 7), Some(0xFF08));
        assert_eq!(u32_at(&b, 1), Some(0x0504_0302));
        assert_eq!(slice_at(&b, 2, 3), Some(&b[2..5]));
    }

    #[test]
    fn short_or_overflowing_reads_are_none() {
        let b = [1u8, 2, 3];
        assert_eq!(u8_at(&b, 3), None);
        assert_eq!(u16_at(&b, 2), None);
        assert_eq!(u32_at(&b, 0), None);
        assert_eq!(u32_at(&b, usize::MAX - 1), None);
        assert_eq!(slice_at(&b, usize::MAX, 2), None);
        assert_eq!(slice_at(&b, 3, 0), Some(&[][..]));
    }
}
