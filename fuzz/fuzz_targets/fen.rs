#![no_main]
//! Fuzz target `fen`: see `cvperft_fuzz::check_fen`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_fen(data));
