//! `cvperft game`: replay a game record and show every ply, or the position at one ply; and the
//! record reading that `add-case` shares (notation, labels, game index, header tags).

use super::{Failure, build_rules};
use anyhow::Result;
use clap::Args;
use cvperft::game::{Game, Header, ReadOptions, read_game, read_header, stopped, tag_position};
use cvperft::notation::{board_diagram, move_text, parse_position, to_fen};
use cvperft::position::Position;
use cvperft::record::{Labels, MAX_RECORD_BYTES, Notation};
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
    #[arg(long, value_name = "N", default_value_t = 1)]
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
    fn notation(&self) -> Option<Notation> {
        Notation::parse(&self.notation)
    }

    /// The record's header: its `[Variant]` and `[FEN]` tags.
    ///
    /// # Errors
    /// An unknown `[Variant]`, a contradictory `[SetUp]`, a game index beyond the record.
    pub fn header(&self, source: &Source) -> Result<Header> {
        let options = ReadOptions {
            notation: self.notation(),
            game_index: self.game_index,
            ..ReadOptions::default()
        };
        read_header(&source.text, &options)
            .map_err(|e| Failure::input(format!("{}, {e}", source.name)).into())
    }

    /// Reads the record's header, settles its rules (`rules_for`: the variant checked against
    /// the header's `[Variant]`, the options) and replays it ([`RecordArgs::replay`]).
    ///
    /// With `--notation auto` each notation is also tried on its own, with the tags of its own
    /// split of the record: coordinate text reads a record of several games as one, carrying
    /// every game's tags, and PGN's reading splits a Game Courier log at a result token in a
    /// `//` comment. Readings that replay the whole game must agree (the same variant, start
    /// and moves), else the record is refused; when the usual detection fails or reads another
    /// game than they agree on, their game is taken.
    ///
    /// # Errors
    /// As [`RecordArgs::replay`]; readings that disagree.
    pub fn read_record(
        &self,
        source: &Source,
        rules_for: impl Fn(&Header) -> Result<Rules>,
        fen: Option<&str>,
        at_ply: Option<usize>,
    ) -> Result<(Game, Option<String>, Option<String>)> {
        let usual = (|| {
            let header = self.header(source)?;
            let rules = rules_for(&header)?;
            self.replay(source, &header, rules, fen, at_ply)
        })();
        if self.notation().is_some() {
            return usual;
        }
        // Each notation reads the whole game (not cut at `--at-ply`: a cut game would hide
        // where readings part, and a game too short for the cut would drop out).
        let reading = |notation: Notation, game_index: usize| {
            let forced = RecordArgs {
                notation: notation.name().to_string(),
                game_index,
                ..self.clone()
            };
            let header = forced.header(source)?;
            let rules = rules_for(&header)?;
            forced
                .replay(source, &header, rules, fen, None)
                .map(|(game, start_fen, _)| (forced, header, rules, game, start_fen))
        };
        let mut read = Vec::new();
        // A notation that splits the record into fewer games than the one asked for, and
        // reads its own last game whole, says that game does not exist.
        let mut fewer = None;
        for n in Notation::AUTO_ORDER {
            let games = cvperft::record::games(&source.text, n).map_or(0, |g| g.len());
            if fewer.is_none() && games > 0 && games < self.game_index && reading(n, games).is_ok()
            {
                fewer = Some((n, games));
            }
            if let Ok(found) = reading(n, self.game_index) {
                read.push((n, found));
            }
        }
        if let (Some((n, games)), Some((other, _))) = (fewer, read.first()) {
            return Err(Failure::input(format!(
                "{}: read as {} it holds {games} game{}, read as {} game {} is there; give \
                 --notation",
                source.name,
                n.name(),
                if games == 1 { "" } else { "s" },
                other.name(),
                self.game_index
            ))
            .into());
        }
        let same_start = |a: &Game, b: &Game| {
            a.start.variant().spec.id == b.start.variant().spec.id
                && to_fen(&a.start) == to_fen(&b.start)
        };
        // `a`'s plies the first of `b`'s (all of them when `a` is not cut).
        let begins = |a: &Game, b: &Game| {
            same_start(a, b)
                && a.plies.len() <= b.plies.len()
                && a.plies.iter().zip(&b.plies).all(|(x, y)| x.text == y.text)
        };
        let Some((first, (forced, header, rules, agreed, _))) = read.first() else {
            return usual;
        };
        if let Some((other, _)) = read
            .iter()
            .find(|(_, (_, _, _, g, _))| !(begins(g, agreed) && begins(agreed, g)))
        {
            return Err(Failure::input(format!(
                "{}: read as {} and as {}, it gives two different games (another start, \
                 variant or moves: the notations split the record otherwise); give --notation",
                source.name,
                first.name(),
                other.name()
            ))
            .into());
        }
        // The usual reading stands when its notation is one that reads the whole game: cut at
        // `--at-ply`, a notation that cannot read the record reads its first plies (none at
        // `--at-ply 0`) and was named as the one the record was read in.
        if let Ok((game, _, _)) = &usual
            && read.iter().any(|(n, _)| *n == game.notation)
            && begins(game, agreed)
            && (at_ply.is_some() || game.plies.len() == agreed.plies.len())
        {
            return usual;
        }
        let others: Vec<&str> = read[1..].iter().map(|(n, _)| n.name()).collect();
        let note = format!(
            "{} read as {} (--notation auto, each notation with the tags of its own reading of \
             the record{}{})",
            source.name,
            first.name(),
            if others.is_empty() {
                ""
            } else {
                "; the same game as "
            },
            others.join(", ")
        );
        let (game, start_fen, _) = forced.replay(source, header, *rules, fen, at_ply)?;
        Ok((game, start_fen, Some(note)))
    }

    /// Replays the record under `rules` from `--fen`, else the record's `[FEN]`, else the
    /// start position; returns the game, the start FEN when it is not the variant's and, with
    /// `--notation auto`, the line that says which notation was chosen (for stderr).
    ///
    /// # Errors
    /// Bad labels, a bad or contradictory start position, a record that does not replay.
    pub fn replay(
        &self,
        source: &Source,
        header: &Header,
        rules: Rules,
        fen: Option<&str>,
        at_ply: Option<usize>,
    ) -> Result<(Game, Option<String>, Option<String>)> {
        let labels =
            Labels::new(rules.variant, &self.labels).map_err(|e| Failure::input(e.to_string()))?;
        let start_fen = match (fen, &header.fen) {
            (Some(given), Some(tag)) => {
                let same = parse_position(rules, given)
                    .ok()
                    .zip(parse_position(rules, &tag.value).ok())
                    .is_some_and(|(a, b)| to_fen(&a) == to_fen(&b));
                if !same {
                    return Err(Failure::input(format!(
                        "{}, line {}, column {}: the record's [FEN \"{}\"] is not the --fen \
                         given",
                        source.name, tag.line, tag.column, tag.value
                    ))
                    .into());
                }
                Some(given.to_string())
            }
            (Some(given), None) => Some(given.to_string()),
            (None, Some(tag)) => Some(tag.value.clone()),
            (None, None) => None,
        };
        let start = match (&start_fen, &header.fen) {
            (Some(_), Some(tag)) if fen.is_none() => tag_position(rules, tag)
                .map_err(|e| Failure::input(format!("{}, {e}", source.name)))?,
            (Some(f), _) => {
                parse_position(rules, f).map_err(|e| Failure::input(format!("FEN: {e}")))?
            }
            (None, _) => parse_position(rules, &rules.start_fen())
                .map_err(|e| Failure::input(format!("FEN: {e}")))?,
        };
        let options = ReadOptions {
            notation: self.notation(),
            labels,
            game_index: self.game_index,
            at_ply,
        };
        let game = read_game(&source.text, &start, &options)
            .map_err(|e| Failure::input(format!("{}, {e}", source.name)))?;
        // The notation auto detection chose, for the caller to print once the command has
        // succeeded (a refusal stays one line).
        let note = options.notation.is_none().then(|| {
            let others: Vec<String> = game
                .attempts
                .iter()
                .filter(|a| a.notation != game.notation)
                .map(|a| format!("{} {}", a.notation.name(), stopped(a)))
                .collect();
            format!(
                "{} read as {} (--notation auto{}{})",
                source.name,
                game.notation.name(),
                if others.is_empty() { "" } else { "; " },
                others.join(", ")
            )
        });
        Ok((game, start_fen, note))
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
