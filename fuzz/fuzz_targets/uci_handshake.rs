#![no_main]
//! Fuzz target `uci_handshake`: see `cvperft_fuzz::check_uci_handshake`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cvperft_fuzz::check_uci_handshake(data));
