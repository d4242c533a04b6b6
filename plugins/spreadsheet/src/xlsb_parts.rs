//! Checks an .xlsb workbook's shared strings, styles and worksheet parts
//! before calamine 0.38 reads them. Its readers reuse one buffer that only
//! grows and index it (and the shared string table) at fixed offsets without
//! checking: a header record shorter than it expects, or a cell naming a
//! shared string past the table (`xlsb/cells_reader.rs`: "index out of
//! bounds: the len is 0"), is a panic on a crafted file. Each walk follows
//! calamine's reads in the same order with the same buffer, and says where it
//! would index short. [`Walk::Stops`] is where calamine itself stops with an
//! error (a truncated record, an unknown error code): nothing after it is
//! read, so nothing after it is checked.

use crate::xlsb_guard::{Records, u32_at};

/// How far one part's walk got.
#[derive(Debug, PartialEq)]
pub enum Walk<T> {
    /// calamine reads the whole part; `T` is what later parts need from it.
    Reads(T),
    /// calamine stops at an error of its own (no panic).
    Stops,
}

/// calamine's `RecordIter` over one part with its one reused buffer.
struct Reader<'a> {
    records: Records<'a>,
    buf: Vec<u8>,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader {
            records: Records::new(bytes),
            buf: Vec::new(),
        }
    }

    /// `read_type` then `fill_buffer`; `None` where calamine gets a read error.
    fn record(&mut self) -> Option<u16> {
        let kind = self.records.kind()?;
        self.records.body(&mut self.buf)?;
        Some(kind)
    }

    /// calamine's `next_skip_blocks`: reads records up to one of type
    /// `wanted`, skipping whole blocks that start with a type in `blocks`
    /// (the block's end record included).
    fn skip_to(&mut self, wanted: u16, blocks: &[(u16, u16)]) -> Option<()> {
        loop {
            let kind = self.record()?;
            if kind == wanted {
                return Some(());
            }
            if let Some(&(_, end)) = blocks.iter().find(|b| b.0 == kind) {
                while self.records.kind()? != end {
                    self.records.body(&mut self.buf)?;
                }
                self.records.body(&mut self.buf)?;
            }
        }
    }

    /// The buffer must hold `len` bytes where calamine indexes it.
    fn need(&self, len: usize, what: &str) -> Result<(), String> {
        if self.buf.len() < len {
            return Err(format!("{what} under {len} bytes"));
        }
        Ok(())
    }
}

/// calamine's `wide_str` succeeds: a 4-byte count, then that many UTF-16 units.
fn wide_str_fits(bytes: &[u8]) -> bool {
    u32_at(bytes, 0).is_some_and(|n| (n as usize).checked_mul(2).is_some_and(|b| bytes.len() >= 4 + b))
}

/// `xl/sharedStrings.bin`: how many strings calamine's table will hold.
pub fn shared_strings(part: &[u8]) -> Result<Walk<usize>, String> {
    let mut r = Reader::new(part);
    if r.skip_to(0x009F, &[]).is_none() {
        return Ok(Walk::Stops);
    }
    r.need(8, "the shared strings header")?;
    let declared = u32_at(&r.buf, 4).unwrap_or(0);
    let mut count = 0usize;
    for _ in 0..declared {
        if r.skip_to(0x0013, &[(0x0023, 0x0024)]).is_none() {
            return Ok(Walk::Stops);
        }
        r.need(1, "a shared string record")?;
        if !wide_str_fits(&r.buf[1..]) {
            return Ok(Walk::Stops);
        }
        count += 1;
    }
    Ok(Walk::Reads(count))
}

/// `xl/styles.bin`: the number formats and cell formats calamine reads.
pub fn styles(part: &[u8]) -> Result<Walk<()>, String> {
    let mut r = Reader::new(part);
    loop {
        let Some(kind) = r.records.kind() else {
            return Ok(Walk::Stops);
        };
        match kind {
            0x0267 => {
                // BrtBeginFmts, then that many BrtFmt.
                if r.records.body(&mut r.buf).is_none() {
                    return Ok(Walk::Stops);
                }
                r.need(4, "the number formats header")?;
                for _ in 0..u32_at(&r.buf, 0).unwrap_or(0) {
                    if r.skip_to(0x002C, &[]).is_none() {
                        return Ok(Walk::Stops);
                    }
                    r.need(2, "a number format record")?;
                    if !wide_str_fits(&r.buf[2..]) {
                        return Ok(Walk::Stops);
                    }
                }
            }
            0x0269 => {
                // BrtBeginCellXFs, then that many BrtXF; calamine stops here.
                if r.records.body(&mut r.buf).is_none() {
                    return Ok(Walk::Stops);
                }
                r.need(4, "the cell formats header")?;
                for _ in 0..u32_at(&r.buf, 0).unwrap_or(0) {
                    if r.skip_to(0x002F, &[]).is_none() {
                        return Ok(Walk::Stops);
                    }
                    r.need(4, "a cell format record")?;
                }
                return Ok(Walk::Reads(()));
            }
            // calamine reads only the type of any other record here, not its
            // body: the size byte is read as the next type. Same here.
            _ => {}
        }
        r.buf.clear();
    }
}

/// One worksheet part, read the way calamine's cells reader reads it, against
/// a shared string table of `strings` entries.
pub fn worksheet(part: &[u8], strings: usize) -> Result<Walk<()>, String> {
    let mut r = Reader::new(part);
    // BrtWsDim (BrtBeginSheet and BrtWsProp before it are plain records).
    if r.skip_to(0x0094, &[]).is_none() {
        return Ok(Walk::Stops);
    }
    r.need(16, "the sheet's dimension record")?;
    // BrtBeginSheetData after views, AC blocks and column infos.
    if r.skip_to(0x0091, &[(0x0085, 0x0086), (0x0025, 0x0026), (0x0186, 0x0187)])
        .is_none()
    {
        return Ok(Walk::Stops);
    }
    // From here the buffer holds at least the dimension record's 16 bytes,
    // which covers every fixed offset a cell record is read at; what is left
    // is the shared string index and calamine's own refusals.
    loop {
        let Some(kind) = r.record() else {
            return Ok(Walk::Stops);
        };
        match kind {
            // calamine clears two flag bits of an RK cell's value in the
            // buffer itself; a later shorter record reads them back.
            0x0002 => r.buf[8] &= 0xFC,
            0x0003 if !matches!(r.buf[8], 0x00 | 0x07 | 0x0F | 0x17 | 0x1D | 0x24 | 0x2A | 0x2B) => {
                return Ok(Walk::Stops);
            }
            0x0006 | 0x0008 if !wide_str_fits(&r.buf[8..]) => return Ok(Walk::Stops),
            0x0007 => {
                let index = u32_at(&r.buf, 8).unwrap_or(0) as usize;
                if index >= strings {
                    return Err(format!(
                        "a cell naming shared string {index} of a table of {strings}"
                    ));
                }
            }
            0x0000 if u32_at(&r.buf, 0).unwrap_or(0) > 0x0010_0000 => return Ok(Walk::Stops),
            0x0092 => return Ok(Walk::Reads(())),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xlsb_guard::tests::record;

    /// Types over 127 take two bytes.
    fn record2(kind: u16, body: &[u8]) -> Vec<u8> {
        let mut out = vec![(kind & 0x7F) as u8 | 0x80, (kind >> 7) as u8, body.len() as u8];
        out.extend_from_slice(body);
        out
    }

    /// A sheet: dimension record, sheet data, the given cell records, end.
    fn sheet(dimension: &[u8], cells: &[Vec<u8>]) -> Vec<u8> {
        let mut out = record2(0x0081, &[]);
        out.extend(record2(0x0094, dimension));
        out.extend(record2(0x0091, &[]));
        out.extend(record(0x00, &[0; 16])); // row 0
        for c in cells {
            out.extend(c);
        }
        out.extend(record2(0x0092, &[]));
        out
    }

    fn shared_string_cell(index: u32) -> Vec<u8> {
        let mut body = vec![0; 8];
        body.extend(index.to_le_bytes());
        record(0x07, &body)
    }

    #[test]
    fn a_cell_past_the_shared_string_table_is_refused() {
        let bin = sheet(&[0; 16], &[shared_string_cell(0), shared_string_cell(2)]);
        assert_eq!(worksheet(&bin, 3), Ok(Walk::Reads(())));
        let err = worksheet(&bin, 2).unwrap_err();
        assert!(err.contains("shared string 2 of a table of 2"), "{err}");
        // No sharedStrings.bin: calamine's table is empty.
        assert!(worksheet(&bin, 0).is_err());
    }

    #[test]
    fn a_short_cell_record_reads_what_calamine_left_in_the_buffer() {
        // An RK cell whose value's low byte is 3 (calamine clears its two
        // flag bits in the buffer), then a shared string cell of 8 bytes:
        // calamine reads the index from the RK's bytes 8..12, now 0.
        let mut rk = vec![0; 8];
        rk.extend([3, 0, 0, 0]);
        let bin = sheet(&[0; 16], &[record(0x02, &rk), record(0x07, &[0; 8])]);
        assert_eq!(worksheet(&bin, 1), Ok(Walk::Reads(())));
        assert!(worksheet(&bin, 0).is_err());
    }

    #[test]
    fn a_short_dimension_record_is_refused_and_a_truncated_sheet_is_calamines() {
        let bin = sheet(&[0; 8], &[]);
        assert!(
            worksheet(&bin, 0)
                .unwrap_err()
                .contains("dimension record under 16")
        );
        // A longer record before it leaves the reused buffer long enough.
        let mut bin2 = record(0x05, &[0; 20]);
        bin2.extend(sheet(&[0; 8], &[]));
        assert_eq!(worksheet(&bin2, 0), Ok(Walk::Reads(())));
        let full = sheet(&[0; 16], &[shared_string_cell(5)]);
        assert_eq!(worksheet(&full[..full.len() - 10], 0), Ok(Walk::Stops));
    }

    #[test]
    fn calamines_own_refusals_end_the_walk() {
        // An unknown error code: calamine returns an error, later cells are unread.
        let mut error = vec![0; 8];
        error.push(0x99);
        let bin = sheet(&[0; 16], &[record(0x03, &error), shared_string_cell(9)]);
        assert_eq!(worksheet(&bin, 0), Ok(Walk::Stops));
        // A row past calamine's limit ends the sheet.
        let mut big_row = 0x0020_0000u32.to_le_bytes().to_vec();
        big_row.extend([0; 12]);
        let bin = sheet(&[0; 16], &[record(0x00, &big_row), shared_string_cell(9)]);
        assert_eq!(worksheet(&bin, 0), Ok(Walk::Stops));
    }

    #[test]
    fn shared_strings_count_and_short_headers() {
        let mut sst = record2(0x009F, &[0, 0, 0, 0, 2, 0, 0, 0]);
        let mut item = vec![0];
        item.extend(1u32.to_le_bytes());
        item.extend([b'a', 0]);
        sst.extend(record(0x13, &item));
        sst.extend(record(0x13, &item));
        assert_eq!(shared_strings(&sst), Ok(Walk::Reads(2)));
        let short = record2(0x009F, &[2, 0, 0, 0]);
        assert!(shared_strings(&short).unwrap_err().contains("header under 8"));
        let mut empty_item = record2(0x009F, &[0, 0, 0, 0, 1, 0, 0, 0]);
        empty_item.extend(record(0x13, &[]));
        // The reused buffer still holds the header's 8 bytes: calamine reads
        // them as a string and fails cleanly.
        assert_eq!(shared_strings(&empty_item), Ok(Walk::Stops));
    }

    #[test]
    fn styles_headers_must_hold_their_counts() {
        let ok = record2(0x0269, &[0, 0, 0, 0]);
        assert_eq!(styles(&ok), Ok(Walk::Reads(())));
        let short = record2(0x0269, &[1]);
        assert!(styles(&short).unwrap_err().contains("cell formats header"));
        let mut fmts = record2(0x0267, &[1, 0, 0, 0]);
        fmts.extend(record(0x2C, &[]));
        // The header's 4 bytes are still in the buffer: no panic, a clean stop.
        assert_eq!(styles(&fmts), Ok(Walk::Stops));
    }
}
