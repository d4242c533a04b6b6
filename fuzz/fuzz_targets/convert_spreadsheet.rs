//! The spreadsheet converter (xlsx/xlsm/xls/ods, told apart by content) on
//! arbitrary bytes: no panic, bounded time and memory, valid metadata JSON.
//! The first byte picks the file name the converter sees. (.xlsb has its own
//! target, `convert_xlsb`: calamine's binary reader is the one that has
//! panicked on malformed records, and one finding there should not stop the
//! others from being fuzzed.)
#![no_main]

use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = ["book.xlsx", "book.xls", "book.ods", "book.xlsm"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[pick as usize % NAMES.len()];
    distill_fuzz::convert::<distill_spreadsheet::Spreadsheet>(name, bytes);
});
