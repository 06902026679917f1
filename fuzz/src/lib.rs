//! Fuzz checks for cvperft: see `checks.rs` and `README.md`.

pub mod checks;
pub use checks::*;
