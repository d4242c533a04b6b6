//! The spreadsheet converter (xlsx/xlsm/xlsb/xls/ods, told apart by content)
//! on arbitrary bytes: no panic, bounded time and memory, valid metadata JSON.
//! The first byte picks the file name the converter sees.
#![no_main]

use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 5] = ["book.xlsx", "book.xls", "book.ods", "book.xlsb", "book.xlsm"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[pick as usize % NAMES.len()];
    distill_fuzz::convert::<distill_spreadsheet::Spreadsheet>(name, bytes);
});
