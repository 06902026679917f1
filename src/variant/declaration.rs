//! What a variant file declares: the board, the pieces as Betza movement, the start position,
//! castling, hands, rule options and the rulings its moves fall under, plus a builder for the
//! hooks of whatever data cannot say.
//!
//! A declaration is a plain value, so a variant may start from another's and override fields
//! (`VariantSpec { id: .., ..chess::spec() }`), and change its pieces by letter
//! ([`VariantSpec::inserting_after`], [`VariantSpec::replacing`], [`VariantSpec::piece_mut`]).
//! Nothing refers to a piece by its place in the list: the hooks look their kinds up by letter
//! when the variant is compiled.

use super::classify::MoveRuling;
use super::hooks::HookBuilder;
use super::vocabulary::{Colour, Wing};
use crate::geometry::Square;

/// Most piece kinds a variant may declare.
pub const MAX_KINDS: usize = 16;
/// Most rule options a variant may declare (besides `game-end`).
pub const MAX_OPTIONS: usize = 4;

/// How a piece moves: the same everywhere, or by the colour of the square it stands on.
#[derive(Clone, Copy, Debug)]
pub enum MovementSpec {
    /// One Betza string.
    Uniform(&'static str),
    /// One Betza string on light squares, another on dark squares (a1 is dark).
    BySquareColour {
        /// Movement from a light square.
        light: &'static str,
        /// Movement from a dark square.
        dark: &'static str,
    },
}

/// One piece kind as a variant declares it.
#[derive(Clone, Debug)]
pub struct PieceSpec {
    /// FEN spelling for White (`N`, or `+G` for a Pink Panther carrier).
    pub fen: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Movement.
    pub movement: MovementSpec,
    /// Whether the piece is royal: a side whose royal piece could be captured is in check.
    pub royal: bool,
    /// A pawn: resets the halfmove clock, may capture en passant, its double step sets the
    /// en-passant square.
    pub pawn: bool,
    /// FEN letters (White's spelling) of the pieces this one promotes to on the last rank.
    pub promotes_to: &'static [&'static str],
    /// Whether an enemy may capture it.
    pub capturable: bool,
    /// Each side has exactly one piece among its sovereign kinds (the King; Pink Panther's
    /// General or King). Royal pieces are sovereign.
    pub sovereign: bool,
    /// The ruling its movement follows, when the variant has one (`SE-2` for the Silver
    /// Elephant); the move classifier names it for the piece's ordinary moves.
    pub ruling: Option<&'static str>,
    /// Squares, named from White's side (Black's are on the mirrored ranks), on which the
    /// variant's expansions may put a piece of this kind back from the hand (Cerimon's
    /// beginning squares, CE-5). The generator asks for expansions only while the side to
    /// move holds a piece of such a kind.
    pub placement_squares: &'static [&'static str],
}

impl PieceSpec {
    /// A plain, capturable, non-royal piece.
    pub const fn new(fen: &'static str, name: &'static str, betza: &'static str) -> PieceSpec {
        PieceSpec {
            fen,
            name,
            movement: MovementSpec::Uniform(betza),
            royal: false,
            pawn: false,
            promotes_to: &[],
            capturable: true,
            sovereign: false,
            ruling: None,
            placement_squares: &[],
        }
    }
    /// The same piece, royal.
    pub const fn royal(mut self) -> PieceSpec {
        self.royal = true;
        self.sovereign = true;
        self
    }
    /// The same piece, sovereign but not royal (it cannot be checked).
    pub const fn sovereign(mut self) -> PieceSpec {
        self.sovereign = true;
        self
    }
    /// The same piece as a pawn promoting to `to`.
    pub const fn pawn(mut self, to: &'static [&'static str]) -> PieceSpec {
        self.pawn = true;
        self.promotes_to = to;
        self
    }
    /// The same piece promoting to `to` (not a pawn).
    pub const fn promotes(mut self, to: &'static [&'static str]) -> PieceSpec {
        self.promotes_to = to;
        self
    }
    /// The same piece, uncapturable.
    pub const fn uncapturable(mut self) -> PieceSpec {
        self.capturable = false;
        self
    }
    /// The same piece moving by `movement`.
    pub const fn moving(mut self, movement: MovementSpec) -> PieceSpec {
        self.movement = movement;
        self
    }
    /// The same piece, its movement under ruling `id`.
    pub const fn ruling(mut self, id: &'static str) -> PieceSpec {
        self.ruling = Some(id);
        self
    }
    /// The same piece, which expansions may put back from the hand on `squares`.
    pub const fn placed_on(mut self, squares: &'static [&'static str]) -> PieceSpec {
        self.placement_squares = squares;
        self
    }
}

/// One castling: where King and Rook start and land.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CastleSpec {
    /// King's start square.
    pub king_from: Square,
    /// King's destination.
    pub king_to: Square,
    /// Rook's start square.
    pub rook_from: Square,
    /// Rook's destination.
    pub rook_to: Square,
}

/// The castlings of a declaration: each with its side and wing.
pub type Castlings = Vec<(Colour, Wing, CastleSpec)>;

/// A named rule option with its values; the first is the default.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The name used with `-o name=value` and in suites.
    pub name: &'static str,
    /// Allowed values, default first.
    pub values: &'static [&'static str],
    /// The ruling id in RULES.md.
    pub ruling: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// What choosing some of the values changes in the declaration.
    pub overrides: Vec<ValueOverride>,
}

/// What one value of an option replaces in the declaration (Bachelor Kamil's and Plutonian's
/// Black arrays). When several chosen values replace the same thing, the last option's wins.
#[derive(Clone, Debug)]
pub struct ValueOverride {
    /// The option value.
    pub value: &'static str,
    /// The start position instead of [`VariantSpec::start_fen`].
    pub start_fen: Option<&'static str>,
    /// The castlings instead of [`VariantSpec::castling`].
    pub castling: Option<Castlings>,
}

impl OptionSpec {
    /// An option that changes only what the hooks read.
    pub fn new(
        name: &'static str,
        values: &'static [&'static str],
        ruling: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            values,
            ruling,
            help,
            overrides: Vec::new(),
        }
    }

    /// The override entry of `value`, created empty when missing.
    fn override_of(&mut self, value: &'static str) -> &mut ValueOverride {
        let at = match self.overrides.iter().position(|o| o.value == value) {
            Some(at) => at,
            None => {
                self.overrides.push(ValueOverride {
                    value,
                    start_fen: None,
                    castling: None,
                });
                self.overrides.len() - 1
            }
        };
        &mut self.overrides[at]
    }

    /// The same option, whose `value` starts from `fen`.
    pub fn with_start(mut self, value: &'static str, fen: &'static str) -> OptionSpec {
        self.override_of(value).start_fen = Some(fen);
        self
    }

    /// The same option, whose `value` castles by `castling`.
    pub fn with_castling(mut self, value: &'static str, castling: Castlings) -> OptionSpec {
        self.override_of(value).castling = Some(castling);
        self
    }
}

/// What lives in the `[...]` field of a FEN.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HandKind {
    /// No hands.
    None,
    /// Each side's captured pieces go to its own hand (Cerimon); always printed.
    LostPieces,
    /// Pieces waiting to be placed at the start (Silver Elephant); printed when non-empty.
    /// While the side to move has pieces in hand, its moves are the placements of
    /// [`RuleHooksAt::setup_moves`](super::RuleHooksAt::setup_moves).
    Setup,
}

/// Everything a variant file declares.
#[derive(Clone)]
pub struct VariantSpec {
    /// Id used on the command line and in suites.
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Piece kinds; their order is the kind index, which is also the order in which their
    /// moves are generated.
    pub pieces: Vec<PieceSpec>,
    /// The default start position.
    pub start_fen: &'static str,
    /// The position before the set-up phase, in a variant that has one ([`HandKind::Setup`]).
    pub setup_fen: Option<&'static str>,
    /// Castlings for the default options, King side before Queen side, White then Black.
    pub castling: Castlings,
    /// Whether double steps set the en-passant square and pawns capture en passant.
    pub en_passant: bool,
    /// The hand, if any.
    pub hand: HandKind,
    /// Whether a square may hold the neutral piece, `*` in FEN (the unclaimed Pink Panther
    /// jewel), which belongs to neither side.
    pub neutral: bool,
    /// Whether a pawn may stand on its own first rank (a Pink Panther Silvergeneral robbed of
    /// the jewel there is a Pawn, PP-3 and PP-5); elsewhere such a set-up is refused.
    pub pawns_on_first_rank: bool,
    /// Rule options besides `game-end`.
    pub options: Vec<OptionSpec>,
    /// Ruling ids this variant's suites may cite.
    pub rulings: &'static [&'static str],
    /// The ruling each kind of move falls under, for the move classifier.
    pub move_rulings: Vec<MoveRuling>,
    /// Builds the hooks for what the data cannot say, once the tables are compiled; `None`
    /// when the data says everything (chess).
    pub hooks: Option<HookBuilder>,
}

impl VariantSpec {
    /// The piece spelled `fen`, to change it.
    ///
    /// # Panics
    /// When no piece is spelled `fen`: declarations are code, checked by the variant tests.
    pub fn piece_mut(&mut self, fen: &str) -> &mut PieceSpec {
        let id = self.id;
        self.pieces
            .iter_mut()
            .find(|p| p.fen == fen)
            .unwrap_or_else(|| panic!("{id}: no piece `{fen}` to change"))
    }

    /// The same declaration with `piece` in place of the piece spelled `fen`.
    ///
    /// # Panics
    /// When no piece is spelled `fen`.
    pub fn replacing(mut self, fen: &str, piece: PieceSpec) -> VariantSpec {
        *self.piece_mut(fen) = piece;
        self
    }

    /// The same declaration with `piece` added right after the piece spelled `fen`.
    ///
    /// # Panics
    /// When no piece is spelled `fen`.
    pub fn inserting_after(mut self, fen: &str, piece: PieceSpec) -> VariantSpec {
        let at = self
            .pieces
            .iter()
            .position(|p| p.fen == fen)
            .unwrap_or_else(|| panic!("{}: no piece `{fen}` to insert after", self.id));
        self.pieces.insert(at + 1, piece);
        self
    }
}

/// A square from its name, for declarations (`"e1"`).
///
/// # Panics
/// On a malformed name: declarations are code.
pub fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    let file = b[0] - b'a';
    let rank: u8 = name[1..].parse().expect("rank digits");
    Square::new(file, rank - 1)
}

/// One castling declaration: King `king_from`→`king_to`, Rook `rook_from`→`rook_to`.
pub fn castle(
    colour: Colour,
    wing: Wing,
    king_from: &str,
    king_to: &str,
    rook_from: &str,
    rook_to: &str,
) -> (Colour, Wing, CastleSpec) {
    (
        colour,
        wing,
        CastleSpec {
            king_from: sq(king_from),
            king_to: sq(king_to),
            rook_from: sq(rook_from),
            rook_to: sq(rook_to),
        },
    )
}

/// The four castlings of a King on `king_file` with Rooks in the corners of a `ranks`-high
/// board: King-side King to `short.0` and Rook to `short.1`, Queen-side King to `long.0` and
/// Rook to `long.1` (file letters), mirrored on the top rank for Black.
pub fn corner_castling(
    files: u8,
    ranks: u8,
    king_file: char,
    short: (char, char),
    long: (char, char),
) -> Castlings {
    let last_file = (b'a' + files - 1) as char;
    let mut out = Vec::new();
    for (colour, rank) in [(Colour::White, 1), (Colour::Black, ranks)] {
        let s = |f: char| format!("{f}{rank}");
        out.push(castle(
            colour,
            Wing::King,
            &s(king_file),
            &s(short.0),
            &s(last_file),
            &s(short.1),
        ));
        out.push(castle(
            colour,
            Wing::Queen,
            &s(king_file),
            &s(long.0),
            &s('a'),
            &s(long.1),
        ));
    }
    out
}
