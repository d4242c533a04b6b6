//! The odf converter's entry point on arbitrary bytes: no panic, bounded
//! time and memory, valid metadata JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    distill_fuzz::convert::<distill_odf::Odf>("file.odt", data);
});
