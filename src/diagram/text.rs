//! Terminal diagrams: the board in FEN letters inside a frame, with the squares of missing and
//! extra moves bracketed, and a few lines saying what the brackets mean.
//!
//! Each square is an opening mark, the piece in FEN spelling (two columns, right-aligned, in
//! Pink Panther, whose carriers are written `+g`), and a closing mark. Unicode output frames the
//! board with box lines and writes empty squares as `·`; ASCII output uses `+-|` and `.`.

use super::{Board, Cell, MarkKind, MovePart, Overlay, move_parts, piece_fen};
use crate::position::colour_name;
use crate::variant::Colour;

/// The characters a diagram is drawn with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Charset {
    /// Box-drawing lines and a middle dot.
    Unicode,
    /// Plain ASCII.
    Ascii,
}

/// How a square is marked.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
struct SquareMark {
    missing: bool,
    extra: bool,
}

impl SquareMark {
    fn brackets(self) -> (char, char) {
        match (self.missing, self.extra) {
            (true, true) => ('{', '}'),
            (true, false) => ('(', ')'),
            (false, true) => ('[', ']'),
            (false, false) => (' ', ' '),
        }
    }
}

/// Draws `board` with the squares of the overlay's missing and extra moves (both their origin
/// and destination squares) bracketed: `( )` missing, `[ ]` extra, `{ }` both. Path moves are
/// not drawn. Ends with lines for the side to move, the hands and the marks used.
pub fn render(board: &Board, overlay: &Overlay, charset: Charset) -> String {
    let (files, ranks) = (board.files(), board.ranks());
    let mut marks = vec![SquareMark::default(); usize::from(files) * usize::from(ranks)];
    for m in &overlay.moves {
        let missing = match m.kind {
            MarkKind::Missing => true,
            MarkKind::Extra => false,
            MarkKind::Path(_) => continue,
        };
        let Some(parts) = move_parts(&m.text, files, ranks) else {
            continue;
        };
        for part in parts {
            let squares = match part {
                MovePart::Step { from, to, .. } => vec![from, to],
                MovePart::Drop { to, .. } => vec![to],
            };
            for sq in squares {
                let mark = &mut marks
                    [usize::from(sq.rank()) * usize::from(files) + usize::from(sq.file())];
                if missing {
                    mark.missing = true;
                } else {
                    mark.extra = true;
                }
            }
        }
    }
    let (h, v, tl, tr, bl, br, empty) = match charset {
        Charset::Unicode => ('─', '│', '┌', '┐', '└', '┘', '·'),
        Charset::Ascii => ('-', '|', '+', '+', '+', '+', '.'),
    };
    // Pieces are one letter wide, two where the variant has carriers (`+g`).
    let width = if board
        .variant()
        .spec
        .pieces
        .iter()
        .any(|p| p.fen.chars().count() > 1)
    {
        2
    } else {
        1
    };
    let inner = usize::from(files) * (width + 2);
    let mut out = String::new();
    let rule = |l: char, r: char| -> String {
        let mut s = String::from("   ");
        s.push(l);
        s.extend(std::iter::repeat_n(h, inner));
        s.push(r);
        s.push('\n');
        s
    };
    out.push_str(&rule(tl, tr));
    for rank in (0..ranks).rev() {
        out.push_str(&format!("{:>2} {v}", u32::from(rank) + 1));
        for file in 0..files {
            let (open, close) =
                marks[usize::from(rank) * usize::from(files) + usize::from(file)].brackets();
            let piece = match board.cell(file, rank) {
                Cell::Empty => empty.to_string(),
                Cell::Jewel => "*".to_string(),
                Cell::Piece(p) => piece_fen(board.variant(), p),
            };
            out.push(open);
            out.push_str(&format!("{piece:>width$}"));
            out.push(close);
        }
        out.push(v);
        out.push('\n');
    }
    out.push_str(&rule(bl, br));
    out.push_str("    ");
    for file in 0..files {
        out.push_str(&format!(" {:>width$} ", (b'a' + file) as char));
    }
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('\n');
    let mut notes = position_lines(board);
    let missing = overlay.texts(MarkKind::Missing);
    let extra = overlay.texts(MarkKind::Extra);
    if !missing.is_empty() {
        notes.push(format!(
            "( ) squares of moves the engine lacks: {}",
            missing.join(" ")
        ));
    }
    if !extra.is_empty() {
        notes.push(format!(
            "[ ] squares of moves the engine adds: {}",
            extra.join(" ")
        ));
    }
    if !missing.is_empty() && !extra.is_empty() {
        notes.push("{ } squares of both".to_string());
    }
    for note in notes {
        out.push_str("    ");
        out.push_str(&note);
        out.push('\n');
    }
    out
}

/// What the board's squares do not show, one line each: the side to move, then the hands
/// where the variant shows them ([`Board::has_hands`]), White's first (`White's lost pieces:
/// none`, `Black to place: E x2, N x2`). [`render`] ends with them; `cvperft fen` and `cvperft
/// game --at-ply` print them under their diagrams.
pub fn position_lines(board: &Board) -> Vec<String> {
    let mut lines = vec![format!("{} to move", colour_name(board.side()))];
    if board.has_hands() {
        for colour in [Colour::White, Colour::Black] {
            let held = board.hand(colour);
            let text = if held.is_empty() {
                "none".to_string()
            } else {
                held.iter()
                    .map(|&(kind, n)| {
                        let p = piece_fen(board.variant(), crate::position::Piece { kind, colour });
                        if n > 1 { format!("{p} x{n}") } else { p }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            lines.push(format!("{}: {text}", board.hand_caption(colour)));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn brackets_mark_missing_and_extra_squares() {
        let v = variants::get("chess").expect("variant");
        let board = Board::from_fen(v, "8/8/3p4/1Pp4r/KR3p1k/8/4P1P1/8 w - c6 0 2").expect("fen");
        let overlay = Overlay::finding(&[], &["b5c6".into()], &["b4b8".into()]);
        let text = render(&board, &overlay, Charset::Ascii);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("   +{}+", "-".repeat(24)));
        assert_eq!(lines[1], " 8 | . [.] .  .  .  .  .  . |");
        assert_eq!(lines[3], " 6 | .  . (.) p  .  .  .  . |");
        assert_eq!(lines[4], " 5 | . (P) p  .  .  .  .  r |");
        assert_eq!(lines[5], " 4 | K [R] .  .  .  p  .  k |");
        assert_eq!(lines[10], "     a  b  c  d  e  f  g  h");
        assert!(text.contains("White to move"));
        assert!(text.contains("lacks: b5c6"));
        let unicode = render(&board, &overlay, Charset::Unicode);
        assert!(unicode.starts_with("   ┌"), "{unicode}");
        assert!(unicode.contains("(P)"));
    }
}
