#![no_main]
//! Fuzz target `movegen`: see `cvperft_fuzz::check_movegen`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_movegen(data));
