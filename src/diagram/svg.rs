//! SVG board diagrams: lettered discs on a checkered board, hands beside it, coordinates, the
//! side to move, a legend, and moves drawn as arrows.
//!
//! Every piece kind of every variant is a disc with its FEN letter (White's light, Black's
//! dark), so the picture reads like the FEN it comes from and needs no font beyond Latin
//! letters; a Pink Panther carrier has a pink ring and a jewel badge, the unclaimed jewel is a
//! pink diamond. The image is self-contained (no style sheet, no ids, no links) so that any
//! number of them can sit in one HTML page under a strict content security policy. Squares,
//! pieces, hands and arrows carry `data-*` attributes (`data-square="e4" data-piece="N"`), so a
//! test can compare a drawn board with its FEN through the DOM.
//!
//! Output is byte-identical for the same input: coordinates are integers except along arrows,
//! which are rounded to one decimal.

use super::{Board, Cell, MarkKind, MovePart, Overlay, look, move_parts, piece_fen, square_name};
use crate::geometry::Square;
use crate::position::colour_name;
pub use crate::report::escape;
use crate::variant::Colour;
use std::fmt::Write as _;

/// Side of a square, in pixels.
const SQ: i32 = 48;
/// Room left of the board for the rank numbers.
const LEFT: i32 = 28;
/// Room above the board.
const TOP: i32 = 10;
/// Width of the hands column beside the board.
const HAND_W: i32 = 170;
/// Narrowest legend column.
const LEGEND_COL: i32 = 120;
/// Height of one legend row.
const LEGEND_ROW: i32 = 28;

const LIGHT: &str = "#ecdcc0";
const DARK: &str = "#b08a66";
const INK: &str = "#1b1b1b";
const PAPER: &str = "#fdfdfd";
const JEWEL: &str = "#e0218a";
const JEWEL_EDGE: &str = "#7d0f4c";
const HIGHLIGHT: &str = "#f5d63d";
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// The colour an arrow of this kind is drawn in.
pub fn mark_colour(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Path(_) => "#4a4a4a",
        MarkKind::Missing => "#1565c0",
        MarkKind::Extra => "#c62828",
    }
}

/// How a diagram is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// What the board is, as its `data-role` attribute: `diagram`, `case`, `root`, `finding`.
    pub role: &'static str,
    /// Draw the legend under the board.
    pub legend: bool,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            role: "diagram",
            legend: true,
        }
    }
}

/// A coordinate rounded to one decimal, without a trailing `.0` or a negative zero.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// One entry of the legend: a sample drawing and its words.
enum LegendSample {
    Piece { letter: char, carrier: bool },
    Jewel,
    Arrow(MarkKind),
}

struct Layout {
    files: i32,
    ranks: i32,
    hands: bool,
    width: i32,
    legend_top: i32,
    legend_cols: i32,
    legend_column: i32,
    height: i32,
}

impl Layout {
    fn of(board: &Board, entries: &[(LegendSample, String)], legend: bool) -> Layout {
        let legend_entries = entries.len();
        let files = i32::from(board.files());
        let ranks = i32::from(board.ranks());
        let hands = board.has_hands();
        let width = LEFT + files * SQ + if hands { 16 + HAND_W } else { 0 } + 12;
        // File letters, then the side to move.
        let legend_top = TOP + ranks * SQ + 22 + 30;
        // Text is estimated at 8 pixels a character (13-pixel sans-serif averages less).
        let column = entries
            .iter()
            .map(|(_, words)| 50 + 8 * words.chars().count() as i32)
            .max()
            .unwrap_or(0)
            .max(LEGEND_COL);
        // A long legend gets two columns, widening a narrow board's picture if need be.
        let width = if legend && legend_entries > 4 {
            width.max(20 + 2 * column)
        } else {
            width
        };
        let legend_cols = ((width - 20) / column).max(1);
        let rows = if legend && legend_entries > 0 {
            (legend_entries as i32 + legend_cols - 1) / legend_cols
        } else {
            0
        };
        let height = legend_top + rows * LEGEND_ROW + if rows > 0 { 6 } else { 0 };
        Layout {
            files,
            ranks,
            hands,
            width,
            legend_top,
            legend_cols,
            legend_column: column,
            height,
        }
    }

    /// The top-left corner of a square.
    fn corner(&self, sq: Square) -> (i32, i32) {
        let x = LEFT + i32::from(sq.file()) * SQ;
        let y = TOP + (self.ranks - 1 - i32::from(sq.rank())) * SQ;
        (x, y)
    }

    /// The centre of a square.
    fn centre(&self, sq: Square) -> (i32, i32) {
        let (x, y) = self.corner(sq);
        (x + SQ / 2, y + SQ / 2)
    }
}

/// Draws a disc with a letter: White's light with dark ink, Black's dark with light ink; a
/// carrier gets the jewel's ring and badge.
fn disc(out: &mut String, cx: i32, cy: i32, r: i32, letter: char, colour: Colour, carrier: bool) {
    let (fill, ink, edge) = disc_colours(colour);
    let r_disc = if carrier { r - 2 } else { r };
    let _ = write!(
        out,
        r#"<circle cx="{cx}" cy="{cy}" r="{r_disc}" fill="{fill}" stroke="{edge}" stroke-width="2"/>"#
    );
    if carrier {
        let ring = r + 2;
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="{ring}" fill="none" stroke="{JEWEL}" stroke-width="4"/>"#
        );
        diamond(out, cx + r - 1, cy - r + 1, (r / 3).max(4));
    }
    letter_text(out, cx, cy, r, letter, ink, "");
}

/// The colours of a disc: its fill, its letter's ink and its edge.
fn disc_colours(colour: Colour) -> (&'static str, &'static str, &'static str) {
    match colour {
        Colour::White => (PAPER, INK, INK),
        Colour::Black => ("#2a2a2a", "#f6f6f6", "#000000"),
    }
}

/// The letter of a disc of radius `r` centred on (`cx`, `cy`); `extra` adds attributes.
fn letter_text(out: &mut String, cx: i32, cy: i32, r: i32, letter: char, ink: &str, extra: &str) {
    let font = r * 5 / 4;
    let baseline = cy + font * 7 / 20;
    let _ = write!(
        out,
        r#"<text x="{cx}" y="{baseline}" font-family="{FONT}" font-size="{font}" font-weight="bold" text-anchor="middle" fill="{ink}"{extra}>{letter}</text>"#
    );
}

/// Radius of a piece's disc on the board.
const DISC_R: i32 = 19;

/// The box a disc's letter takes (left, top, right, bottom), wide enough for the widest
/// capital (`W`) of a bold sans-serif: half a font size each side of the centre, from the
/// baseline up by the capitals' height (three quarters of the font size).
fn glyph_box(cx: i32, cy: i32, r: i32) -> (f64, f64, f64, f64) {
    let font = f64::from(r * 5 / 4);
    let baseline = f64::from(cy + r * 5 / 4 * 7 / 20);
    let x = f64::from(cx);
    (
        x - font / 2.0,
        baseline - font * 0.75,
        x + font / 2.0,
        baseline,
    )
}

/// Draws the jewel: a pink diamond of half-diagonal `h`.
fn diamond(out: &mut String, cx: i32, cy: i32, h: i32) {
    let _ = write!(
        out,
        r#"<polygon points="{},{} {},{} {},{} {},{}" fill="{JEWEL}" stroke="{JEWEL_EDGE}" stroke-width="1.5"/>"#,
        cx,
        cy - h,
        cx + h * 4 / 5,
        cy,
        cx,
        cy + h,
        cx - h * 4 / 5,
        cy
    );
}

/// Draws an arrow from one point to another, its start pulled in by `insets.0` pixels and its
/// tip by `insets.1` (so that it stays clear of the pieces standing there); a white halo keeps
/// it visible on dark squares and discs. The arrow's tip, or `None` when it is too short to
/// draw.
fn arrow(
    out: &mut String,
    from: (f64, f64),
    to: (f64, f64),
    kind: MarkKind,
    insets: (f64, f64),
) -> Option<Segment> {
    let ((x1, y1), (x2, y2)) = (from, to);
    let len = (x2 - x1).hypot(y2 - y1);
    if len < insets.0 + insets.1 + 4.0 {
        return None;
    }
    let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
    let (nx, ny) = (-uy, ux);
    let (head, half, width) = match kind {
        MarkKind::Path(_) => (14.0, 8.0, 4),
        _ => (17.0, 10.0, 5),
    };
    // Short arrows (between neighbouring squares) keep a shaft behind the head.
    let head = f64::min(head, (len - insets.0 - insets.1) * 0.55);
    let half = half * head / 17.0_f64.max(head);
    let tip = (x2 - ux * insets.1, y2 - uy * insets.1);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let start = (x1 + ux * insets.0, y1 + uy * insets.0);
    let colour = mark_colour(kind);
    let dash = match kind {
        MarkKind::Extra => r#" stroke-dasharray="9 5""#,
        _ => "",
    };
    let line = format!(
        r#"x1="{}" y1="{}" x2="{}" y2="{}""#,
        num(start.0),
        num(start.1),
        num(base.0),
        num(base.1)
    );
    let points = format!(
        "{},{} {},{} {},{}",
        num(tip.0),
        num(tip.1),
        num(base.0 + nx * half),
        num(base.1 + ny * half),
        num(base.0 - nx * half),
        num(base.1 - ny * half)
    );
    let _ = write!(
        out,
        r##"<line {line} stroke="#ffffff" stroke-width="{}" stroke-opacity="0.6"/><polygon points="{points}" fill="#ffffff" fill-opacity="0.6" stroke="#ffffff" stroke-width="2" stroke-linejoin="round" stroke-opacity="0.6"/>"##,
        width + 3
    );
    let _ = write!(
        out,
        r#"<line {line} stroke="{colour}" stroke-width="{width}"{dash}/><polygon points="{points}" fill="{colour}"/>"#
    );
    Some(Segment { start, tip })
}

/// Where an arrow was drawn: from its start to its tip.
#[derive(Copy, Clone, Debug)]
struct Segment {
    start: (f64, f64),
    tip: (f64, f64),
}

impl Segment {
    /// Whether the arrow (its shaft and its halo, `reach` pixels each side of its line) passes
    /// over the box (left, top, right, bottom).
    fn crosses(&self, (left, top, right, bottom): (f64, f64, f64, f64), reach: f64) -> bool {
        let (dx, dy) = (self.tip.0 - self.start.0, self.tip.1 - self.start.1);
        // One point a pixel along the line, ends included.
        let steps = dx.hypot(dy).ceil().max(1.0) as u32;
        (0..=steps).any(|i| {
            let t = f64::from(i) / f64::from(steps);
            let (x, y) = (self.start.0 + t * dx, self.start.1 + t * dy);
            left - reach <= x && x <= right + reach && top - reach <= y && y <= bottom + reach
        })
    }
}

/// Distance between neighbouring arrows along one line.
const LANE: f64 = 12.0;

/// The sideways offset of each arrow, in pixels along the normal of its line (0 for
/// placements): arrows on one line whose stretches overlap (d5d7 and d6d7, or a missing and an
/// extra move between the same squares) are drawn side by side, `LANE` apart, each group
/// centred on its line; an arrow overlapping none stays on its line.
fn lane_offsets(parts: &[MovePart]) -> Vec<f64> {
    let step = |p: &MovePart| match *p {
        MovePart::Step { from, to, .. } => Some((
            (i32::from(from.file()), i32::from(from.rank())),
            (i32::from(to.file()), i32::from(to.rank())),
        )),
        MovePart::Drop { .. } => None,
    };
    let overlap = |i: usize, j: usize| -> bool {
        let (Some((a, b)), Some((c, d))) = (step(&parts[i]), step(&parts[j])) else {
            return false;
        };
        let v = (b.0 - a.0, b.1 - a.1);
        let cross = |p: (i32, i32)| v.0 * (p.1 - a.1) - v.1 * (p.0 - a.0);
        let along = |p: (i32, i32)| v.0 * (p.0 - a.0) + v.1 * (p.1 - a.1);
        let (lo, hi) = (along(c).min(along(d)), along(c).max(along(d)));
        cross(c) == 0 && cross(d) == 0 && lo < v.0 * v.0 + v.1 * v.1 && 0 < hi
    };
    // Groups of overlapping arrows (joined through any member), and in each a lane per arrow:
    // the lowest that no arrow it overlaps has taken, longest arrows first.
    let n = parts.len();
    let mut group: Vec<usize> = (0..n).collect();
    for i in 0..n {
        for j in 0..i {
            if overlap(i, j) {
                let (gi, gj) = (group[i], group[j]);
                for g in &mut group {
                    if *g == gi {
                        *g = gj;
                    }
                }
            }
        }
    }
    let length =
        |i: usize| step(&parts[i]).map_or(0, |(a, b)| (b.0 - a.0).pow(2) + (b.1 - a.1).pow(2));
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(length(i)));
    let mut lane = vec![0usize; n];
    for (k, &i) in order.iter().enumerate() {
        let taken: Vec<usize> = order[..k]
            .iter()
            .filter(|&&j| overlap(i, j))
            .map(|&j| lane[j])
            .collect();
        lane[i] = (0..).find(|l| !taken.contains(l)).unwrap_or(0);
    }
    (0..n)
        .map(|i| {
            let lanes = (0..n)
                .filter(|&j| group[j] == group[i])
                .map(|j| lane[j])
                .max()
                .unwrap_or(0);
            (lane[i] as f64 - lanes as f64 / 2.0) * LANE
        })
        .collect()
}

/// The unit normal of the line through two squares' centres, the same whichever way a move
/// goes along it (so that offsets of opposite moves on one line agree).
fn line_normal(from: (i32, i32), to: (i32, i32)) -> (f64, f64) {
    let (mut dx, mut dy) = (f64::from(to.0 - from.0), f64::from(to.1 - from.1));
    if dx < 0.0 || (dx == 0.0 && dy < 0.0) {
        (dx, dy) = (-dx, -dy);
    }
    let len = dx.hypot(dy).max(1.0);
    (-dy / len, dx / len)
}

/// A small filled label (a path number, a placement's letter) centred on a point.
fn badge(out: &mut String, cx: i32, cy: i32, text: &str, colour: &str) {
    let w = 8 + 8 * text.chars().count() as i32;
    label(out, (cx - w / 2, cy - 8), (w, 16), text, colour);
}

/// Height of a promotion badge: it fits in a square's edge strip above (or below) the letter
/// of the piece standing there.
const PROMOTION_H: i32 = 14;

/// Width of a promotion badge of `text`.
fn promotion_width(text: &str) -> i32 {
    6 + 7 * text.chars().count() as i32
}

/// A filled label of `size` (width, height) with its top-left corner at `corner`.
fn label(out: &mut String, corner: (i32, i32), size: (i32, i32), text: &str, colour: &str) {
    let ((x, y), (w, h)) = (corner, size);
    let font = h * 3 / 4;
    let _ = write!(
        out,
        r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{}" fill="{PAPER}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}" font-family="{FONT}" font-size="{font}" font-weight="bold" text-anchor="middle" fill="{colour}">{}</text>"#,
        h / 2,
        x + w / 2,
        y + h / 2 + font * 7 / 20,
        escape(text)
    );
}

/// One arrow or placement to draw, after marks with the same squares and kind are merged.
struct Drawn {
    kind: MarkKind,
    part: MovePart,
    texts: Vec<String>,
    suffixes: Vec<char>,
}

fn drawn_marks(board: &Board, overlay: &Overlay) -> (Vec<Drawn>, Vec<String>) {
    let mut drawn: Vec<Drawn> = Vec::new();
    let mut unreadable = Vec::new();
    for mark in &overlay.moves {
        let Some(parts) = move_parts(&mark.text, board.files(), board.ranks()) else {
            unreadable.push(mark.text.clone());
            continue;
        };
        for part in parts {
            let (key, suffix) = match part {
                MovePart::Step { from, to, suffix } => (
                    MovePart::Step {
                        from,
                        to,
                        suffix: None,
                    },
                    suffix,
                ),
                drop => (drop, None),
            };
            let merge = !matches!(mark.kind, MarkKind::Path(_));
            match drawn
                .iter_mut()
                .find(|d| merge && d.kind == mark.kind && d.part == key)
            {
                Some(d) => {
                    if !d.texts.contains(&mark.text) {
                        d.texts.push(mark.text.clone());
                    }
                    if let Some(s) = suffix
                        && !d.suffixes.contains(&s.to_ascii_uppercase())
                    {
                        d.suffixes.push(s.to_ascii_uppercase());
                    }
                }
                None => drawn.push(Drawn {
                    kind: mark.kind,
                    part: key,
                    texts: vec![mark.text.clone()],
                    suffixes: suffix.map(|s| s.to_ascii_uppercase()).into_iter().collect(),
                }),
            }
        }
    }
    (drawn, unreadable)
}

fn legend_entries(board: &Board, overlay: &Overlay) -> Vec<(LegendSample, String)> {
    let v = board.variant();
    let mut entries = Vec::new();
    for kind in board.kinds_shown() {
        let l = look(v, kind);
        entries.push((
            LegendSample::Piece {
                letter: l.letter,
                carrier: l.carrier,
            },
            format!("{} {}", l.fen, l.name),
        ));
    }
    if board.has_jewel() {
        entries.push((LegendSample::Jewel, "the jewel, unclaimed".into()));
    }
    if entries
        .iter()
        .any(|(s, _)| matches!(s, LegendSample::Piece { carrier: true, .. }))
    {
        entries.push((
            LegendSample::Piece {
                letter: ' ',
                carrier: true,
            },
            "ring: carries the jewel".into(),
        ));
    }
    for (kind, words) in [
        (MarkKind::Missing, "missing move"),
        (MarkKind::Extra, "extra move"),
        (MarkKind::Path(1), "path, in order"),
    ] {
        if overlay.has(kind) {
            entries.push((LegendSample::Arrow(kind), words.into()));
        }
    }
    entries
}

/// Draws `board` with `overlay` as a standalone SVG document (also valid inline in HTML).
pub fn render(board: &Board, overlay: &Overlay, options: &SvgOptions) -> String {
    let v = board.variant();
    let entries = legend_entries(board, overlay);
    let layout = Layout::of(board, &entries, options.legend);
    let (w, h) = (layout.width, layout.height);
    let mut out = String::new();
    let label = format!(
        "{} position {}, {} to move",
        v.spec.name,
        board.fen(),
        colour_name(board.side())
    );
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{}" data-role="{}" data-variant="{}" data-fen="{}" data-files="{}" data-ranks="{}" data-side="{}">"#,
        escape(&label),
        options.role,
        v.spec.id,
        escape(board.fen()),
        layout.files,
        layout.ranks,
        colour_name(board.side()).to_ascii_lowercase()
    );
    let _ = write!(out, "<title>{}</title>", escape(&label));
    let _ = write!(
        out,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="{PAPER}"/>"#
    );
    // Squares, each with its name and colour.
    for rank in (0..board.ranks()).rev() {
        for file in 0..board.files() {
            let sq = Square::new(file, rank);
            let (x, y) = layout.corner(sq);
            let (fill, shade) = if sq.is_light() {
                (LIGHT, "light")
            } else {
                (DARK, "dark")
            };
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}" data-square="{}" data-shade="{shade}"/>"#,
                square_name(file, rank)
            );
        }
    }
    let _ = write!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="#5a4632" stroke-width="2"/>"##,
        layout.files * SQ,
        layout.ranks * SQ
    );
    for &sq in &overlay.highlights {
        if sq.file() >= board.files() || sq.rank() >= board.ranks() {
            continue;
        }
        let (x, y) = layout.corner(sq);
        let _ = write!(
            out,
            r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{HIGHLIGHT}" fill-opacity="0.55" data-highlight="{}"/>"#,
            square_name(sq.file(), sq.rank())
        );
    }
    // Coordinates.
    for rank in 0..board.ranks() {
        let y = TOP + (layout.ranks - 1 - i32::from(rank)) * SQ + SQ / 2 + 5;
        let _ = write!(
            out,
            r##"<text x="{}" y="{y}" font-family="{FONT}" font-size="14" text-anchor="middle" fill="#444">{}</text>"##,
            LEFT / 2,
            u32::from(rank) + 1
        );
    }
    for file in 0..board.files() {
        let x = LEFT + i32::from(file) * SQ + SQ / 2;
        let _ = write!(
            out,
            r##"<text x="{x}" y="{}" font-family="{FONT}" font-size="14" text-anchor="middle" fill="#444">{}</text>"##,
            TOP + layout.ranks * SQ + 17,
            (b'a' + file) as char
        );
    }
    // Pieces and the jewel.
    for rank in (0..board.ranks()).rev() {
        for file in 0..board.files() {
            let sq = Square::new(file, rank);
            let (cx, cy) = layout.centre(sq);
            match board.cell(file, rank) {
                Cell::Empty => {}
                Cell::Jewel => {
                    let _ = write!(
                        out,
                        r#"<g data-square="{}" data-piece="*">"#,
                        square_name(file, rank)
                    );
                    diamond(&mut out, cx, cy, 15);
                    out.push_str("</g>");
                }
                Cell::Piece(p) => {
                    let l = look(v, p.kind);
                    let _ = write!(
                        out,
                        r#"<g data-square="{}" data-piece="{}">"#,
                        square_name(file, rank),
                        escape(&piece_fen(v, p))
                    );
                    disc(&mut out, cx, cy, DISC_R, l.letter, p.colour, l.carrier);
                    out.push_str("</g>");
                }
            }
        }
    }
    // The side to move.
    let status_y = TOP + layout.ranks * SQ + 22;
    let side = board.side();
    let (fill, edge) = match side {
        Colour::White => (PAPER, INK),
        Colour::Black => ("#2a2a2a", "#000000"),
    };
    let _ = write!(
        out,
        r#"<g data-status="side-to-move"><circle cx="{}" cy="{}" r="8" fill="{fill}" stroke="{edge}" stroke-width="2"/><text x="{}" y="{}" font-family="{FONT}" font-size="15" fill="{INK}">{} to move</text></g>"#,
        LEFT + 8,
        status_y + 13,
        LEFT + 22,
        status_y + 18,
        colour_name(side)
    );
    if layout.hands {
        draw_hands(&mut out, board, &layout);
    }
    draw_marks(&mut out, board, overlay, &layout);
    if options.legend {
        draw_legend(&mut out, &entries, &layout);
    }
    out.push_str("</svg>");
    out
}

/// The insets of an arrow between two squares: a move to a neighbouring square starts at the
/// edge of the moving piece's disc and ends nearer the destination's centre, so that its
/// shaft shows between the two discs; a longer one starts and ends 13 pixels from the
/// centres.
fn insets(from: Square, to: Square) -> (f64, f64) {
    let (df, dr) = (
        i32::from(from.file()).abs_diff(i32::from(to.file())),
        i32::from(from.rank()).abs_diff(i32::from(to.rank())),
    );
    if df.max(dr) <= 1 {
        (f64::from(DISC_R - 2), 10.0)
    } else {
        (13.0, 13.0)
    }
}

/// Draws the overlay's moves over the board: arrows on one line side by side (see
/// [`lane_offsets`]), the longer first so that the shorter lie on top; then the letters of the
/// pieces an arrow crosses again, over the arrows and ringed in their disc's colour; then the
/// path numbers and promotion letters, which no arrow may cover.
fn draw_marks(out: &mut String, board: &Board, overlay: &Overlay, layout: &Layout) {
    let (drawn, _) = drawn_marks(board, overlay);
    let parts: Vec<MovePart> = drawn.iter().map(|d| d.part).collect();
    let offsets = lane_offsets(&parts);
    let point = |sq: Square, normal: (f64, f64), offset: f64| {
        let (x, y) = layout.centre(sq);
        (
            f64::from(x) + normal.0 * offset,
            f64::from(y) + normal.1 * offset,
        )
    };
    let length = |d: &Drawn| match d.part {
        MovePart::Step { from, to, .. } => {
            let (a, b) = (layout.centre(from), layout.centre(to));
            (b.0 - a.0).pow(2) + (b.1 - a.1).pow(2)
        }
        MovePart::Drop { .. } => 0,
    };
    let mut order: Vec<usize> = (0..drawn.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(length(&drawn[i])));
    let mut segments: Vec<Segment> = Vec::new();
    for &i in &order {
        let d = &drawn[i];
        let colour = mark_colour(d.kind);
        match d.part {
            MovePart::Step { from, to, .. } => {
                let _ = write!(
                    out,
                    r#"<g class="mark" data-mark="{}" data-move="{}" data-from="{}" data-to="{}" opacity="0.8">"#,
                    d.kind.name(),
                    escape(&d.texts.join(" ")),
                    from,
                    to
                );
                let normal = line_normal(layout.centre(from), layout.centre(to));
                segments.extend(arrow(
                    out,
                    point(from, normal, offsets[i]),
                    point(to, normal, offsets[i]),
                    d.kind,
                    insets(from, to),
                ));
                out.push_str("</g>");
            }
            MovePart::Drop { letter, to } => {
                let (cx, cy) = layout.centre(to);
                let dash = if d.kind == MarkKind::Extra {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r#"<g class="mark" data-mark="{}" data-move="{}" data-to="{}"><circle cx="{cx}" cy="{cy}" r="21" fill="none" stroke="{colour}" stroke-width="3"{dash}/>"#,
                    d.kind.name(),
                    escape(&d.texts.join(" ")),
                    to
                );
                badge(out, cx - 12, cy - 15, &format!("{letter}@"), colour);
                out.push_str("</g>");
            }
        }
    }
    // The letters arrows cross, over them: an arrow struck the G of e2 out in a2f2 and a2g2.
    let v = board.variant();
    for rank in (0..board.ranks()).rev() {
        for file in 0..board.files() {
            let Cell::Piece(p) = board.cell(file, rank) else {
                continue;
            };
            let (cx, cy) = layout.centre(Square::new(file, rank));
            if !segments
                .iter()
                .any(|s| s.crosses(glyph_box(cx, cy, DISC_R), 4.0))
            {
                continue;
            }
            let (fill, ink, _) = disc_colours(p.colour);
            letter_text(
                out,
                cx,
                cy,
                DISC_R,
                look(v, p.kind).letter,
                ink,
                &format!(
                    r#" stroke="{fill}" stroke-width="4" stroke-linejoin="round" paint-order="stroke" data-over="{}""#,
                    square_name(file, rank)
                ),
            );
        }
    }
    // Labels last, so that no arrow covers them.
    let mut promotions: Vec<(Square, bool, i32, String, &str)> = Vec::new();
    for d in &drawn {
        let colour = mark_colour(d.kind);
        if let MovePart::Step { from, to, .. } = d.part {
            let (x1, y1) = layout.centre(from);
            let (x2, y2) = layout.centre(to);
            // A path move's number sits on the square it left when that is empty (it usually
            // is, after the path), else in that square's lower left corner.
            if let MarkKind::Path(n) = d.kind {
                let (x, y) = if board.cell(from.file(), from.rank()) == Cell::Empty {
                    (x1, y1)
                } else {
                    (x1 - 14, y1 + 15)
                };
                badge(out, x, y, &n.to_string(), colour);
            }
            if !d.suffixes.is_empty() {
                let text: String = d.suffixes.iter().collect();
                promotions.push((to, y1 > y2, x1 - x2, format!("={text}"), colour));
            }
        }
    }
    // Promotion letters in a corner of the destination square: in the edge strip the arrow
    // does not come from (the top one for a move up the board), clear of the letter of a
    // piece standing there, and on the side away from the arrow; badges of neighbouring
    // destinations (f8, g8, h8) stay in their squares. Several on one square sit side by side.
    let mut placed: Vec<((Square, bool, bool), i32)> = Vec::new();
    for (to, up, dx, text, colour) in promotions {
        let (left, top) = layout.corner(to);
        let w = promotion_width(&text);
        let y = if up { top } else { top + SQ - PROMOTION_H };
        // From the left (dx < 0) into the right corner, else into the left one.
        let corner = (to, up, dx < 0);
        let used: i32 = placed
            .iter()
            .filter(|(c, _)| *c == corner)
            .map(|(_, w)| w + 1)
            .sum();
        let x = if dx < 0 {
            left + SQ - 1 - w - used
        } else {
            left + 1 + used
        };
        label(out, (x, y), (w, PROMOTION_H), &text, colour);
        placed.push((corner, w));
    }
}

fn draw_hands(out: &mut String, board: &Board, layout: &Layout) {
    let v = board.variant();
    let x0 = LEFT + layout.files * SQ + 16;
    let bottom = TOP + layout.ranks * SQ;
    for colour in [Colour::Black, Colour::White] {
        let held = board.hand(colour);
        let rows = (held.len() as i32 + 3) / 4;
        let rows = rows.max(1);
        // Black's hand at the top, White's at the bottom, as the players sit.
        let caption_y = match colour {
            Colour::Black => TOP + 14,
            Colour::White => bottom - rows * 38 - 8,
        };
        let _ = write!(
            out,
            r#"<g data-hand="{}"><text x="{x0}" y="{caption_y}" font-family="{FONT}" font-size="13" fill="{INK}">{}</text>"#,
            colour_name(colour).to_ascii_lowercase(),
            escape(&board.hand_caption(colour))
        );
        if held.is_empty() {
            let _ = write!(
                out,
                r##"<text x="{x0}" y="{}" font-family="{FONT}" font-size="13" font-style="italic" fill="#666">none</text>"##,
                caption_y + 24
            );
        }
        for (i, &(kind, count)) in held.iter().enumerate() {
            let (col, row) = (i as i32 % 4, i as i32 / 4);
            let cx = x0 + 16 + col * 40;
            let cy = caption_y + 24 + row * 38;
            let l = look(v, kind);
            let piece = crate::position::Piece { kind, colour };
            let _ = write!(
                out,
                r#"<g data-piece="{}" data-count="{count}">"#,
                escape(&piece_fen(v, piece))
            );
            disc(out, cx, cy, 14, l.letter, colour, l.carrier);
            if count > 1 {
                let _ = write!(
                    out,
                    r##"<circle cx="{}" cy="{}" r="8" fill="#f5f5f5" stroke="{INK}" stroke-width="1"/><text x="{}" y="{}" font-family="{FONT}" font-size="11" font-weight="bold" text-anchor="middle" fill="{INK}">{count}</text>"##,
                    cx + 12,
                    cy + 11,
                    cx + 12,
                    cy + 15
                );
            }
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }
}

fn draw_legend(out: &mut String, entries: &[(LegendSample, String)], layout: &Layout) {
    if entries.is_empty() {
        return;
    }
    out.push_str(r#"<g data-legend="">"#);
    for (i, (sample, words)) in entries.iter().enumerate() {
        let (col, row) = (i as i32 % layout.legend_cols, i as i32 / layout.legend_cols);
        let x = 10 + col * layout.legend_column;
        let cy = layout.legend_top + row * LEGEND_ROW + 14;
        match sample {
            LegendSample::Piece { letter, carrier } => {
                disc(out, x + 14, cy, 11, *letter, Colour::White, *carrier);
            }
            LegendSample::Jewel => diamond(out, x + 14, cy, 11),
            LegendSample::Arrow(kind) => {
                arrow(
                    out,
                    (f64::from(x), f64::from(cy)),
                    (f64::from(x + 32), f64::from(cy)),
                    *kind,
                    (0.0, 0.0),
                );
            }
        }
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-family="{FONT}" font-size="13" fill="{INK}">{}</text>"#,
            x + 38,
            cy + 5,
            escape(words)
        );
    }
    out.push_str("</g>");
}

/// Draws the position of a finding: the numbered path that led there (its last move
/// highlighted), the moves the engine lacks (`missing`) and those it has too many (`extra`).
/// This is the picture of one disagreement, for `diff` and for `check --engine` findings.
pub fn finding(board: &Board, path: &[String], missing: &[String], extra: &[String]) -> String {
    let mut overlay = Overlay::finding(path, missing, extra);
    if let Some(last) = path.last()
        && let Some(parts) = move_parts(last, board.files(), board.ranks())
    {
        for part in parts {
            match part {
                MovePart::Step { from, to, .. } => overlay.highlights.extend([from, to]),
                MovePart::Drop { to, .. } => overlay.highlights.push(to),
            }
        }
    }
    render(
        board,
        &overlay,
        &SvgOptions {
            role: "finding",
            legend: true,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn numbers_have_one_decimal_at_most() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(2.25), "2.3");
        assert_eq!(num(-7.46), "-7.5");
    }

    /// The whole-number attribute `name` of an SVG element's text.
    fn number(text: &str, name: &str) -> i32 {
        let start = format!(" {text}").find(&format!(" {name}=\"")).expect(name) + name.len() + 2;
        text[start..]
            .split('"')
            .next()
            .expect("value")
            .parse()
            .expect("number")
    }

    /// Promotion badges of neighbouring destinations (f8, g8, h8, each `=BNR`) each stay inside
    /// their own square: they used to sit up and right of it, over the next square and, for h8,
    /// past the board's edge.
    #[test]
    fn promotion_badges_stay_on_their_squares() {
        let v = variants::get("chess").expect("variant");
        let board = Board::from_fen(v, "k7/5PPP/8/8/8/8/8/K7 w - - 0 1").expect("fen");
        let mut overlay = Overlay::default();
        let moves: Vec<String> = ["f7f8", "g7g8", "h7h8"]
            .iter()
            .flat_map(|m| ["b", "n", "r"].map(|p| format!("{m}{p}")))
            .collect();
        overlay.add(&moves, MarkKind::Missing);
        let options = SvgOptions::default();
        let svg = render(&board, &overlay, &options);
        let layout = Layout::of(&board, &legend_entries(&board, &overlay), options.legend);
        let mut badges = 0;
        for (piece, file) in svg
            .split("<rect ")
            .skip(1)
            .filter(|r| r.contains(">=BNR<"))
            .zip(5u8..)
        {
            let (x, y, w) = (
                number(piece, "x"),
                number(piece, "y"),
                number(piece, "width"),
            );
            let (left, top) = layout.corner(Square::new(file, 7));
            assert!(left <= x && x + w <= left + SQ, "{piece}");
            assert!(top <= y && y + PROMOTION_H <= top + SQ, "{piece}");
            badges += 1;
        }
        assert_eq!(badges, 3, "{svg}");
    }

    /// A promotion's badge leaves its arrow's tip in sight, for a move up the board (White's
    /// b7b8) as for one down it (Black's g2g1) and a capture (White's b7xa8): the badge sat in
    /// the lower half of the square, over the tip of every White promotion's arrow.
    #[test]
    fn promotion_badges_leave_the_arrow_tip_clear() {
        let v = variants::get("chess").expect("variant");
        for (fen, mv) in [
            ("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8"),
            ("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8"),
            ("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", "g2g1"),
        ] {
            let board = Board::from_fen(v, fen).expect("fen");
            let mut overlay = Overlay::default();
            overlay.add(&[format!("{mv}n")], MarkKind::Missing);
            let options = SvgOptions::default();
            let svg = render(&board, &overlay, &options);
            let layout = Layout::of(&board, &legend_entries(&board, &overlay), options.legend);
            let square = |s: &str| {
                let b = s.as_bytes();
                Square::new(b[0] - b'a', b[1] - b'1')
            };
            let (x1, y1) = layout.centre(square(&mv[..2]));
            let (x2, y2) = layout.centre(square(&mv[2..]));
            // The tip: the arrow ends short of the destination's centre, towards its origin.
            let (dx, dy) = (f64::from(x1 - x2), f64::from(y1 - y2));
            let length = dx.hypot(dy);
            let inset = insets(square(&mv[..2]), square(&mv[2..])).1;
            let tip = (
                f64::from(x2) + inset * dx / length,
                f64::from(y2) + inset * dy / length,
            );
            let badge = svg
                .split("<rect ")
                .find(|r| r.contains(">=N<"))
                .unwrap_or_else(|| panic!("{mv}: no badge in {svg}"));
            let (x, y, w) = (
                number(badge, "x"),
                number(badge, "y"),
                number(badge, "width"),
            );
            let inside = f64::from(x) <= tip.0
                && tip.0 <= f64::from(x + w)
                && f64::from(y) <= tip.1
                && tip.1 <= f64::from(y + PROMOTION_H);
            assert!(!inside, "{mv}: tip {tip:?} under the badge {badge}");
            let (left, top) = layout.corner(square(&mv[2..]));
            assert!(left <= x && x + w <= left + SQ, "{mv}: {badge}");
            assert!(top <= y && y + PROMOTION_H <= top + SQ, "{mv}: {badge}");
        }
    }

    /// The drawn line (x1, y1, x2, y2) of the arrow of `mv` in `svg`, the coloured one after
    /// its white halo.
    fn arrow_line(svg: &str, mv: &str) -> (f64, f64, f64, f64) {
        let doc = roxmltree::Document::parse(svg).expect("svg");
        let mark = doc
            .descendants()
            .find(|n| n.attribute("data-move") == Some(mv))
            .unwrap_or_else(|| panic!("no arrow of {mv}"));
        let line = mark
            .children()
            .filter(|n| n.has_tag_name("line"))
            .nth(1)
            .expect("a line");
        let at = |name: &str| -> f64 { line.attribute(name).expect(name).parse().expect(name) };
        (at("x1"), at("y1"), at("x2"), at("y2"))
    }

    /// Distance of a point from the (infinite) line of a segment.
    fn distance_from_line(p: (f64, f64), l: (f64, f64, f64, f64)) -> f64 {
        let (dx, dy) = (l.2 - l.0, l.3 - l.1);
        ((p.0 - l.0) * dy - (p.1 - l.1) * dx).abs() / dx.hypot(dy)
    }

    /// Moves along one line are drawn apart: from different origins to one square (d5d7 over
    /// d6d7, c6b7 over d5b7), one inside another (a2g2 over a2f2), and a missing and an extra
    /// move between the same squares. They merged into one arrow, the red dashed one hiding the
    /// blue; the shorter is now drawn over the longer.
    #[test]
    fn collinear_moves_are_drawn_as_distinct_arrows() {
        let v = variants::get("chess").expect("variant");
        let board = Board::from_fen(v, "4k3/1p6/2QR4/3Q4/8/8/R3B3/4K3 w - - 0 1").expect("fen");
        let overlay = Overlay::finding(
            &[],
            &["d6d7".into(), "d5b7".into(), "a2f2".into(), "e1e2".into()],
            &["d5d7".into(), "c6b7".into(), "a2g2".into(), "e1e2".into()],
        );
        let svg = render(&board, &overlay, &SvgOptions::default());
        for (a, b) in [("d5d7", "d6d7"), ("d5b7", "c6b7"), ("a2g2", "a2f2")] {
            let (la, lb) = (arrow_line(&svg, a), arrow_line(&svg, b));
            assert_ne!(la, lb, "{a} {b}");
            for p in [(lb.0, lb.1), (lb.2, lb.3)] {
                let d = distance_from_line(p, la);
                assert!(
                    d >= LANE - 0.5,
                    "{b} lies {d} px from {a}'s line: {la:?} {lb:?}"
                );
            }
            let at = |mv: &str| svg.find(&format!("data-move=\"{mv}\"")).expect(mv);
            assert!(
                at(a) < at(b),
                "the shorter {b} is drawn after the longer {a}"
            );
        }
        // The same squares, once missing and once extra: two arrows, side by side.
        let doc = roxmltree::Document::parse(&svg).expect("svg");
        let lines: Vec<(f64, f64)> = doc
            .descendants()
            .filter(|n| n.attribute("data-move") == Some("e1e2"))
            .map(|g| {
                let line = g.children().filter(|n| n.has_tag_name("line")).nth(1);
                let x = line.and_then(|l| l.attribute("x1")).expect("x1");
                let y = line.and_then(|l| l.attribute("y1")).expect("y1");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        assert_eq!(lines.len(), 2, "{svg}");
        assert!((lines[0].0 - lines[1].0).abs() >= LANE - 0.5, "{lines:?}");
        // An arrow on its own stays on the line through the squares' centres.
        let layout = Layout::of(&board, &legend_entries(&board, &overlay), true);
        let alone = Overlay::finding(&[], &["a2a5".into()], &[]);
        let line = arrow_line(&render(&board, &alone, &SvgOptions::default()), "a2a5");
        assert_eq!(line.0, f64::from(layout.centre(Square::new(0, 1)).0));
    }

    /// A piece an arrow passes over keeps its letter readable: the letter is drawn again over
    /// the arrows, ringed in its disc's colour (a2g2 struck out the G on e2); a piece no arrow
    /// touches is drawn once.
    #[test]
    fn letters_under_an_arrow_are_drawn_over_it() {
        let v = variants::get("chess").expect("variant");
        let board = Board::from_fen(v, "4k3/8/8/8/8/8/R3B3/4K2N w - - 0 1").expect("fen");
        let overlay = Overlay::finding(&[], &["a2g2".into()], &[]);
        let svg = render(&board, &overlay, &SvgOptions::default());
        let over: Vec<&str> = svg
            .split("data-over=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().expect("square"))
            .collect();
        // The Bishop the arrow passes, and the Rook it starts from, not the pieces aside.
        assert!(over.contains(&"e2"), "{svg}");
        assert!(over.iter().all(|s| ["a2", "e2"].contains(s)), "{over:?}");
        let e2 = &svg[svg.find("data-over=\"e2\"").expect("e2")..];
        assert!(e2.starts_with("data-over=\"e2\">B</text>"), "{e2}");
        let arrow = svg.find("data-move=\"a2g2\"").expect("arrow");
        assert!(svg.find("data-over=").expect("letter") > arrow);
    }

    /// A move to a neighbouring square shows a shaft between the two discs, not a stub of head
    /// over the moving piece: the arrow starts at the disc's edge, outside its letter.
    #[test]
    fn one_square_arrows_show_between_the_pieces() {
        let v = variants::get("chess").expect("variant");
        let board = Board::from_fen(v, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        let layout = Layout::of(&board, &[], false);
        for mv in ["e2e3", "e2f3", "e1f1"] {
            let overlay = Overlay::finding(&[], &[mv.into()], &[]);
            let svg = render(&board, &overlay, &SvgOptions::default());
            let (x1, y1, x2, y2) = arrow_line(&svg, mv);
            assert!(
                (x2 - x1).hypot(y2 - y1) >= 6.0,
                "{mv}: shaft {x1},{y1} {x2},{y2}"
            );
            let from = Square::new(mv.as_bytes()[0] - b'a', mv.as_bytes()[1] - b'1');
            let (cx, cy) = layout.centre(from);
            let start = (x1 - f64::from(cx)).hypot(y1 - f64::from(cy));
            assert!(
                start >= f64::from(DISC_R - 3),
                "{mv}: starts {start} px from the centre"
            );
        }
    }

    /// Promotion badges sit clear of the letter of the piece on their square (the `=N` badge
    /// covered half of a captured piece), for moves up, down and across the board, several
    /// promotions to one square side by side.
    #[test]
    fn promotion_badges_clear_the_letter_on_their_square() {
        let v = variants::get("chess").expect("variant");
        for (fen, missing, extra) in [
            (
                "rn2k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                &["b7a8n", "b7b8n"][..],
                &["b7a8q"][..],
            ),
            (
                "4k3/8/8/8/8/8/5p2/4KBNR b - - 0 1",
                &["f2g1n", "f2e1n"],
                &["f2g1b"],
            ),
            (
                "4k1nr/5PPP/8/8/8/8/8/4K3 w - - 0 1",
                &["f7g8n", "g7h8r", "h7g8b"],
                &[],
            ),
        ] {
            let board = Board::from_fen(v, fen).expect("fen");
            let missing: Vec<String> = missing.iter().map(|m| m.to_string()).collect();
            let extra: Vec<String> = extra.iter().map(|m| m.to_string()).collect();
            let svg = render(
                &board,
                &Overlay::finding(&[], &missing, &extra),
                &SvgOptions::default(),
            );
            let doc = roxmltree::Document::parse(&svg).expect("svg");
            let number = |n: roxmltree::Node, name: &str| -> f64 {
                n.attribute(name).expect(name).parse().expect(name)
            };
            // Every letter of a piece on the board: its box from its text's attributes.
            let glyphs: Vec<(f64, f64, f64, f64)> = doc
                .descendants()
                .filter(|n| n.has_tag_name("g") && n.has_attribute("data-square"))
                .filter_map(|g| g.children().find(|n| n.has_tag_name("text")))
                .map(|t| {
                    let (x, y, size) = (number(t, "x"), number(t, "y"), number(t, "font-size"));
                    (x - size / 2.0, y - size * 0.75, x + size / 2.0, y)
                })
                .collect();
            let badges: Vec<(f64, f64, f64, f64)> = doc
                .descendants()
                .filter(|n| n.has_tag_name("rect"))
                .filter(|r| {
                    r.next_sibling_element()
                        .and_then(|t| t.text())
                        .is_some_and(|t| t.starts_with('='))
                })
                .map(|r| {
                    let (x, y) = (number(r, "x"), number(r, "y"));
                    (x, y, x + number(r, "width"), y + number(r, "height"))
                })
                .collect();
            assert_eq!(badges.len(), missing.len() + extra.len(), "{fen}: {svg}");
            let apart = |a: &(f64, f64, f64, f64), b: &(f64, f64, f64, f64)| {
                a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1
            };
            for badge in &badges {
                for glyph in &glyphs {
                    assert!(
                        apart(badge, glyph),
                        "{fen}: badge {badge:?} over letter {glyph:?}"
                    );
                }
                for other in badges.iter().filter(|o| *o != badge) {
                    assert!(apart(badge, other), "{fen}: badges {badge:?} {other:?}");
                }
            }
        }
    }

    #[test]
    fn the_same_input_gives_the_same_bytes() {
        let v = variants::get("silver-elephant").expect("variant");
        let board = Board::from_fen(
            v,
            "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1",
        )
        .expect("fen");
        let overlay = Overlay::finding(
            &["E@b1,N@c1,N@h1,E@i1".to_string()],
            &["e2e4".to_string()],
            &["e2e5".to_string()],
        );
        let a = render(&board, &overlay, &SvgOptions::default());
        let b = render(&board, &overlay, &SvgOptions::default());
        assert_eq!(a, b);
        assert!(a.contains(r#"data-mark="missing" data-move="e2e4""#), "{a}");
        assert!(a.contains(r#"data-mark="extra" data-move="e2e5""#), "{a}");
        assert!(a.contains(r#"data-hand="white""#));
        assert_eq!(a.matches("data-square=").count(), 80 + 32);
    }
}
