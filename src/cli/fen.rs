//! `cvperft fen`: a position checked and shown, as its normalised FEN and a text diagram (with
//! the side to move and the hands, as `diff`'s diagram ends), or as an SVG image of the board.

use super::PositionArgs;
use anyhow::Result;
use clap::Args;
use cvperft::diagram::svg::{self, SvgOptions};
use cvperft::diagram::text;
use cvperft::diagram::{Board, Overlay};
use cvperft::notation::{board_diagram, to_fen};
use std::io::Write;

/// `cvperft fen` arguments.
#[derive(Args, Debug)]
pub struct FenArgs {
    /// The FEN to check (default: the variant's start position).
    pub fen: Option<String>,
    /// Output: the FEN and a text diagram with the side to move and the hands, or an SVG
    /// image (byte-identical for the same position).
    #[arg(long, default_value = "text", value_parser = ["text", "svg"])]
    pub format: String,
    /// Play these moves first (space-separated move text).
    #[arg(long)]
    pub moves: Option<String>,
    /// Variant id.
    #[arg(short = 'v', long = "variant", default_value = "chess")]
    pub variant: String,
    /// Rule option `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Runs `cvperft fen`.
///
/// # Errors
/// Bad variant, option, FEN or move (exit 2); writing failed.
pub fn run(args: FenArgs, out: &mut impl Write) -> Result<()> {
    let pos = PositionArgs {
        variant: args.variant,
        fen: args.fen,
        moves: args.moves,
        options: args.options,
    }
    .position()?;
    if args.format == "svg" {
        let board = Board::of_position(&pos);
        let image = svg::render(&board, &Overlay::default(), &SvgOptions::default());
        writeln!(out, "{image}")?;
        return Ok(());
    }
    writeln!(out, "{}", to_fen(&pos))?;
    write!(out, "{}", board_diagram(&pos))?;
    for line in text::position_lines(&Board::of_position(&pos)) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
