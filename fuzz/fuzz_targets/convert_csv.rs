//! The CSV converter (charset guess, delimiter sniffing, quoting) on arbitrary
//! bytes, as `.csv` and `.tsv` (the first byte's low bit picks): no panic,
//! bounded time and memory, valid metadata JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = if pick & 1 == 0 { "data.csv" } else { "data.tsv" };
    distill_fuzz::convert::<distill_csv::Csv>(name, bytes);
});
