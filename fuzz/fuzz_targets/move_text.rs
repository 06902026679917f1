#![no_main]
//! Fuzz target `move_text`: see `cvperft_fuzz::check_move_text`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_move_text(data));
