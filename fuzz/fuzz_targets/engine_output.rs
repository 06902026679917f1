#![no_main]
//! Fuzz target `engine_output`: see `cvperft_fuzz::check_engine_output`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_engine_output(data));
