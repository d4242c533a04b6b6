//! The reader calamine gets a workbook through. For a compound file (.xls)
//! it reports a length one sector short: calamine 0.38 takes the file's
//! length over the sector size as the highest sector id, but the header
//! fills the first sector, so that last id lies wholly past the end of the
//! file and reading it slices backwards (`cfb.rs`: "slice index starts at
//! 56832 but ends at 56708", a panic in release too; found by fuzzing). One
//! sector less and calamine refuses that id itself ("points past end of
//! file"); every sector that exists is still read. Other formats get the
//! plain cursor's length.

use std::io::{Cursor, Read, Result, Seek, SeekFrom};

pub struct WorkbookReader<'a> {
    inner: Cursor<&'a [u8]>,
    /// Bytes hidden from `SeekFrom::End`.
    hidden: u64,
}

impl<'a> WorkbookReader<'a> {
    pub fn plain(bytes: &'a [u8]) -> Self {
        WorkbookReader {
            inner: Cursor::new(bytes),
            hidden: 0,
        }
    }

    /// A compound file: its sector size (`1 << shift`, the header's 16-bit
    /// field at offset 30) is hidden from the reported length.
    pub fn compound(bytes: &'a [u8]) -> Self {
        let shift = bytes.get(30..32).map_or(9, |b| u16::from_le_bytes([b[0], b[1]]));
        // calamine accepts only 512- and 4096-byte sectors (shift 9 or 12).
        let sector = if shift == 12 { 4096 } else { 512 };
        WorkbookReader {
            hidden: sector.min(bytes.len() as u64),
            inner: Cursor::new(bytes),
        }
    }
}

impl Read for WorkbookReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize> {
        self.inner.read(buf)
    }
}

impl Seek for WorkbookReader<'_> {
    fn seek(&mut self, pos: SeekFrom) -> Result<u64> {
        match pos {
            SeekFrom::End(off) => {
                let end = self.inner.get_ref().len() as u64 - self.hidden;
                let to = end.checked_add_signed(off).ok_or_else(|| {
                    std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start")
                })?;
                self.inner.seek(SeekFrom::Start(to))
            }
            other => self.inner.seek(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compound_file_reports_one_sector_less_and_reads_everything() {
        let mut bytes = vec![0u8; 2048];
        bytes[30] = 9;
        let mut r = WorkbookReader::compound(&bytes);
        assert_eq!(r.seek(SeekFrom::End(0)).unwrap(), 1536);
        r.seek(SeekFrom::Start(0)).unwrap();
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all.len(), 2048);
        let mut plain = WorkbookReader::plain(&bytes);
        assert_eq!(plain.seek(SeekFrom::End(0)).unwrap(), 2048);
    }
}
