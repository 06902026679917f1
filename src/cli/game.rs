//! `cvperft game`: replay a game record and show every ply, or the position at one ply; and the
//! record reading that `add-case` shares (notation, labels, game index, header tags).

use super::{Failure, build_rules};
use anyhow::Result;
use clap::Args;
use cvperft::diagram::{Board, text};
use cvperft::game::{Game, Header, ReadRecordError, RecordRequest, read_record};
use cvperft::notation::{board_diagram, move_text, to_fen};
use cvperft::position::Position;
use cvperft::record::{MAX_RECORD_BYTES, Notation};
use cvperft::san::san_moves;
use cvperft::variant::Rules;
use std::io::Write;
use std::path::Path;

/// How to read a game record (shared by `game` and `add-case`).
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The record's notation; auto tries coordinate, game-courier, then san, and says on
    /// stderr which one read the game.
    #[arg(long, default_value = "auto", value_parser = ["auto", "coordinate", "game-courier", "san"])]
    pub notation: String,
    /// A Game Courier piece label that differs from ours, OURS=THEIRS (repeatable): `T=A`
    /// reads the record's `A`/`a` as our Terror.
    #[arg(long = "label", value_name = "OURS=THEIRS")]
    pub labels: Vec<String>,
    /// Which game of a record that holds several (from 1).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = game_index
    )]
    pub game_index: usize,
}

/// A record's text and a name for messages.
pub struct Source {
    /// The text.
    pub text: String,
    /// `game `FILE``, `standard input` or `--moves`.
    pub name: String,
}

impl Source {
    /// The record from `--moves TEXT`, or the file `--game FILE` (`-`: standard input).
    ///
    /// # Errors
    /// An unreadable file, or one that is not UTF-8 text.
    pub fn read(moves: Option<&str>, file: Option<&str>) -> Result<Source> {
        let (text, name) = match (moves, file) {
            // Capped as a file is; the size is the argument's, with no line or column.
            (Some(m), _) if m.len() > MAX_RECORD_BYTES => {
                return Err(Failure::input(format!(
                    "--moves: {} bytes, larger than the limit of {MAX_RECORD_BYTES} bytes of a \
                     game record",
                    m.len()
                ))
                .into());
            }
            (Some(m), _) => (m.to_string(), "--moves".to_string()),
            (None, Some("-")) => {
                // Capped as a file is: more than the limit is refused as too large (cut at the
                // limit, it was read as a record of the limit plus one byte, or as not UTF-8
                // where the cut split a character).
                let bytes =
                    cvperft::fsio::read_all_capped(std::io::stdin(), MAX_RECORD_BYTES as u64)
                        .map_err(|e| Failure::input(format!("standard input: {e}")))?;
                let text = cvperft::record::decode(bytes)
                    .map_err(|e| Failure::input(format!("standard input, {e}")))?;
                (text, "standard input".to_string())
            }
            (None, Some(path)) => {
                // A FIFO is waited on for its writer: read as empty, it was a game of no moves.
                let bytes = cvperft::fsio::read_capped_awaiting_writer(
                    Path::new(path),
                    MAX_RECORD_BYTES as u64,
                )
                .map_err(|e| Failure::input(format!("game {e}")))?;
                let text = cvperft::record::decode(bytes)
                    .map_err(|e| Failure::input(format!("game `{path}`, {e}")))?;
                (text, format!("game `{path}`"))
            }
            (None, None) => return Err(Failure::input("give --moves or --game").into()),
        };
        Ok(Source { text, name })
    }
}

impl RecordArgs {
    /// Reads the record as the library's [`read_record`] does: its header, the rules
    /// `rules_for` settles from it (the variant checked against the header's `[Variant]`, the
    /// options), the start position (`--fen`, else the record's `[FEN]`, else the variant's
    /// start), and the game up to `--at-ply`, with `--notation auto` cross-checked against
    /// each notation's own reading. Returns the game, the start FEN when it is not the
    /// variant's and, with `--notation auto`, the line that says which notation was chosen
    /// (for stderr, once the command has succeeded: a refusal stays one line).
    ///
    /// # Errors
    /// Bad labels, a bad or contradictory start position, a record that does not replay,
    /// readings that disagree (exit 2), or what `rules_for` refuses.
    pub fn read_record(
        &self,
        source: &Source,
        rules_for: impl Fn(&Header) -> Result<Rules>,
        fen: Option<&str>,
        at_ply: Option<usize>,
    ) -> Result<(Game, Option<String>, Option<String>)> {
        let request = RecordRequest {
            notation: Notation::parse(&self.notation),
            labels: self.labels.clone(),
            game_index: self.game_index,
            fen: fen.map(str::to_string),
            at_ply,
        };
        match read_record(&source.text, &source.name, &request, rules_for) {
            Ok(read) => {
                let mut note = read.note(&source.name);
                // Detected as coordinate text, a `;` comment that is a Game Courier placement
                // was dropped: said, with how to read it as one.
                // (Only in a variant with hands: elsewhere nothing is ever placed.)
                if let Some(note) = note.as_mut()
                    && read.game.notation == Notation::Coordinate
                    && read.game.start.variant().spec.hand != cvperft::variant::HandKind::None
                    && let Some((line, column, comment)) =
                        cvperft::record::coordinate::placement_in_comment(&source.text)
                {
                    note.push_str(&format!(
                        "; `; {comment}` at line {line}, column {column} is read as a comment, as \
                         coordinate notation reads `;` (give --notation game-courier to read it \
                         as a placement)"
                    ));
                }
                Ok((read.game, read.start_fen, note))
            }
            Err(ReadRecordError::Rules(e)) => Err(e),
            Err(e) => Err(Failure::input(e.to_string()).into()),
        }
    }
}

/// `--game-index N`: a game of the record, counted from 1.
fn game_index(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("games are counted from 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `cvperft game` arguments.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The record file, `-` for standard input.
    pub file: String,
    /// Variant id (default: the record's [Variant] tag, else chess).
    #[arg(short = 'v', long = "variant")]
    pub variant: Option<String>,
    /// The start position (default: the record's [FEN] tag, else the variant's start).
    #[arg(long)]
    pub fen: Option<String>,
    /// A rule option, `name=value` (repeatable).
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Show the plies up to K and then the position after ply K: its diagram, FEN and legal
    /// moves (0: the start position).
    #[arg(long, value_name = "K")]
    pub at_ply: Option<usize>,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// The variant a record is replayed in: `-v` (or the suite's), checked against its [Variant].
///
/// # Errors
/// The tag names another variant than the one given.
pub fn settle_variant(
    source: &Source,
    header: &Header,
    given: Option<&str>,
    what: &str,
) -> Result<String> {
    match (given, &header.variant) {
        (Some(v), Some((id, tag))) if v != *id => Err(Failure::input(format!(
            "{}, line {}, column {}: [Variant \"{}\"] is {id}, but {what} is {v}",
            source.name, tag.line, tag.column, tag.value
        ))
        .into()),
        (Some(v), _) => Ok(v.to_string()),
        (None, Some((id, _))) => Ok(id.to_string()),
        (None, None) => Ok("chess".to_string()),
    }
}

/// Runs `cvperft game`.
///
/// # Errors
/// An unreadable record, bad arguments, a move that is not legal (exit 2).
pub fn run(args: GameArgs, out: &mut impl Write) -> Result<()> {
    let source = Source::read(None, Some(&args.file))?;
    let rules_for = |header: &Header| {
        let variant = settle_variant(&source, header, args.variant.as_deref(), "-v")?;
        build_rules(&variant, &args.options)
    };
    let (game, _, note) =
        args.record
            .read_record(&source, rules_for, args.fen.as_deref(), args.at_ply)?;
    if let Some(note) = note {
        super::say(&note);
    }
    print_plies(out, &game)?;
    // A record without moves shows the position it starts from.
    if args.at_ply.is_some() || game.plies.is_empty() {
        if !game.plies.is_empty() {
            writeln!(out)?;
        }
        print_position(out, &game)?;
    }
    Ok(())
}

fn print_plies(out: &mut impl Write, game: &Game) -> Result<()> {
    if game.plies.is_empty() {
        return Ok(());
    }
    let header = ["ply", "no.", "written", "move", "SAN", "FEN after"];
    let rows: Vec<[String; 6]> = game
        .plies
        .iter()
        .map(|p| {
            [
                p.ply.to_string(),
                p.number.clone(),
                p.written.clone(),
                p.text.clone(),
                p.san.clone(),
                p.fen(),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 6]| {
        let mut s = format!("{:>w$}", cells[0], w = widths[0]);
        for (i, cell) in cells.iter().enumerate().skip(1).take(4) {
            s.push_str(&format!("  {cell:<w$}", w = widths[i]));
        }
        s.push_str("  ");
        s.push_str(cells[5]);
        s
    };
    writeln!(out, "{}", line(header))?;
    for row in &rows {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
    }
    Ok(())
}

fn print_position(out: &mut impl Write, game: &Game) -> Result<()> {
    let pos: &Position = game.end();
    match game.plies.last() {
        Some(p) => writeln!(out, "after ply {} ({} {}):", p.ply, p.number, p.san)?,
        None => writeln!(out, "start position:")?,
    }
    write!(out, "{}", board_diagram(pos))?;
    for line in text::position_lines(&Board::of_position(pos)) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "FEN {}", to_fen(pos))?;
    let mut moves: Vec<(String, String)> = san_moves(pos)
        .into_iter()
        .map(|(m, s)| (move_text(pos, &m), s))
        .collect();
    moves.sort();
    if moves.is_empty() {
        let why = match pos.outcome() {
            Some(o) => format!(" (the game is over: {})", o.name()),
            None => String::new(),
        };
        writeln!(out, "legal moves: none{why}")?;
        return Ok(());
    }
    writeln!(out, "legal moves ({}), move text and SAN:", moves.len())?;
    let width = moves.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
    for (text, san) in moves {
        writeln!(out, "  {text:<width$}  {san}")?;
    }
    Ok(())
}
