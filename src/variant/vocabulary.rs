//! The words every variant shares: sides, castling wings, outcomes and the game-end mode.

/// A side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Colour {
    /// The other side.
    pub const fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Both sides, White first.
    pub const BOTH: [Colour; 2] = [Colour::White, Colour::Black];
    /// "White" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

/// Which wing a castling goes to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Wing {
    /// Toward the Rook on the higher file (FEN `K`/`k`).
    King = 0,
    /// Toward the Rook on the a side (FEN `Q`/`q`).
    Queen = 1,
}

impl Wing {
    /// Both wings, King side first.
    pub const BOTH: [Wing; 2] = [Wing::King, Wing::Queen];
    /// "King-side" or "Queen-side".
    pub const fn name(self) -> &'static str {
        match self {
            Wing::King => "King-side",
            Wing::Queen => "Queen-side",
        }
    }
}

/// An outcome of a finished game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// White has won.
    WhiteWins,
    /// Black has won.
    BlackWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// The win of `c`.
    pub fn win(c: Colour) -> Outcome {
        match c {
            Colour::White => Outcome::WhiteWins,
            Colour::Black => Outcome::BlackWins,
        }
    }
    /// Suite spelling.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "white-wins",
            Outcome::BlackWins => "black-wins",
            Outcome::Draw => "draw",
        }
    }
}

/// GE-1: which positions end the game in perft.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameEnd {
    /// Checkmate, stalemate and the variant's own decisive rules.
    Rules,
    /// Only positions without legal moves.
    Movegen,
}

impl GameEnd {
    /// Parses `rules` or `movegen`.
    pub fn parse(text: &str) -> Option<GameEnd> {
        match text {
            "rules" => Some(GameEnd::Rules),
            "movegen" => Some(GameEnd::Movegen),
            _ => None,
        }
    }
    /// The option value's spelling.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Rules => "rules",
            GameEnd::Movegen => "movegen",
        }
    }
}
