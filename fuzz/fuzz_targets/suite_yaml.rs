#![no_main]
//! Fuzz target `suite_yaml`: see `cvperft_fuzz::check_suite_yaml`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_suite_yaml(data));
