#![no_main]
//! Fuzz target `record`: see `cvperft_fuzz::check_record`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_record(data));
