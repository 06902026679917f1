//! cvperft: a perft and rules-conformance harness for chess variants.
//!
//! The library holds everything: geometry, piece movement as data, variant declarations,
//! positions and move generation, notation, perft, the suite model and runners, external
//! engines, and what the commands do beyond reading their arguments (a position from variant,
//! options, FEN and moves in [`request`]; a conformance run in [`conformance`]), so that any
//! front end calls the same code. The `cvperft` binary is a thin command line over it. Library
//! code never prints.

pub mod cleanup;
pub mod conformance;
pub mod deep;
pub mod diagram;
pub mod echo;
pub mod engine;
pub mod export;
pub mod faults;
pub mod findings;
pub mod fsio;
pub mod game;
pub mod geometry;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod report;
pub mod request;
pub mod san;
pub mod shards;
pub mod suite;
pub mod variant;
pub mod variants;
