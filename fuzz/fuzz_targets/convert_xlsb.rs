//! The spreadsheet converter on arbitrary bytes named `.xlsb` (ZIP archives
//! of binary records, read by calamine after the converter's own check of the
//! workbook's global records): no panic, bounded time and memory, valid
//! metadata JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    distill_fuzz::convert::<distill_spreadsheet::Spreadsheet>("book.xlsb", data);
});
