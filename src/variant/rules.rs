//! [`Rules`]: a compiled variant with its rule options chosen, as positions carry it.

use super::declaration::{CastleSpec, Castlings, MAX_OPTIONS};
use super::tables::Variant;
use super::vocabulary::{GameEnd, Wing};
use crate::echo::echo;
use crate::geometry::{Bitboard, SQUARE_COUNT};
use std::fmt;
use std::sync::{Mutex, PoisonError};

/// A variant with its rule options chosen.
#[derive(Copy, Clone)]
pub struct Rules {
    /// The compiled variant.
    pub variant: &'static Variant,
    /// Value index per declared option.
    pub options: [u8; MAX_OPTIONS],
    /// GE-1.
    pub game_end: GameEnd,
    /// Castlings by colour and wing.
    pub castles: [[Option<CastleSpec>; 2]; 2],
    /// Per castling (colour, wing), on the King's rank, as file bits: the files that must be
    /// empty (between the outermost of the four squares, less the King's and the Rook's start)
    /// and the files the King passes over (between its start and destination, both excluded).
    pub castle_files: [[CastleFiles; 2]; 2],
    /// Per castling (colour, wing), the squares that must be empty ([`CastleFiles::empty`] on
    /// the King's rank); every square where there is no such castling.
    pub castle_empty: [[Bitboard; 2]; 2],
    /// Per square, the castling right bits a move from or onto it keeps: all but those of the
    /// castlings whose King or Rook starts there.
    pub castle_keep: [u8; SQUARE_COUNT],
}

/// File masks of one castling (see [`Rules::castle_files`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct CastleFiles {
    /// Files that must be empty.
    pub empty: u16,
    /// Files the King passes over, which must not be attacked.
    pub passed: u16,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({}", self.variant.spec.id)?;
        for (name, value) in self.option_pairs() {
            write!(f, " {name}={value}")?;
        }
        write!(f, ")")
    }
}

impl PartialEq for Rules {
    fn eq(&self, o: &Rules) -> bool {
        std::ptr::eq(self.variant, o.variant)
            && self.options == o.options
            && self.game_end == o.game_end
    }
}

/// An option name or value that the variant does not declare.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// `game-end` set to something else than `rules` or `movegen`.
    #[error("option game-end: unknown value {} (expected rules or movegen)", echo(.value))]
    GameEndValue {
        /// The value given.
        value: String,
    },
    /// An option the variant does not declare.
    #[error("variant {variant} has no option {} (options: {})", echo(.name), .known.join(", "))]
    UnknownOption {
        /// The variant id.
        variant: &'static str,
        /// The name given.
        name: String,
        /// The options it has, `game-end` last.
        known: Vec<&'static str>,
    },
    /// A value the option does not declare.
    #[error("option {name}: unknown value {} (expected {})", echo(.value), .expected.join(" or "))]
    UnknownValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// Its values.
        expected: &'static [&'static str],
    },
}

impl Rules {
    /// The variant with every option at its default.
    pub fn new(variant: &'static Variant) -> Rules {
        let mut rules = Rules {
            variant,
            options: [0; MAX_OPTIONS],
            game_end: GameEnd::Rules,
            castles: [[None; 2]; 2],
            castle_files: [[CastleFiles::default(); 2]; 2],
            castle_empty: [[Bitboard::ALL; 2]; 2],
            castle_keep: [u8::MAX; SQUARE_COUNT],
        };
        rules.resolve();
        rules
    }

    /// The rules of `variant` under every combination of its options' values, in declaration
    /// order (the first option varying slowest), `game-end` at its default.
    pub fn every_combination(variant: &'static Variant) -> Vec<Rules> {
        let mut combos = vec![Rules::new(variant)];
        for option in &variant.spec.options {
            combos = combos
                .iter()
                .flat_map(|r| {
                    option.values.iter().map(move |value| {
                        let mut r = *r;
                        r.set(option.name, value).expect("a declared value");
                        r
                    })
                })
                .collect();
        }
        combos
    }

    /// The chosen values' overrides, in option order (later ones win).
    fn overrides(&self) -> impl Iterator<Item = &'static super::ValueOverride> + '_ {
        let options = &self.variant.spec.options;
        options.iter().enumerate().flat_map(move |(i, o)| {
            let value = o.values[self.options[i] as usize];
            o.overrides.iter().filter(move |v| v.value == value)
        })
    }

    /// The castlings under these options.
    pub fn castlings(&self) -> &'static Castlings {
        self.overrides()
            .filter_map(|o| o.castling.as_ref())
            .last()
            .unwrap_or(&self.variant.spec.castling)
    }

    fn resolve(&mut self) {
        self.castles = [[None; 2]; 2];
        self.castle_files = [[CastleFiles::default(); 2]; 2];
        self.castle_empty = [[Bitboard::ALL; 2]; 2];
        self.castle_keep = [u8::MAX; SQUARE_COUNT];
        for &(colour, wing, spec) in self.castlings() {
            self.castles[colour.index()][wing as usize] = Some(spec);
            let files = |a: u8, b: u8| -> u16 { ((1u32 << (b + 1)) - (1u32 << a)) as u16 };
            let all =
                [spec.king_from, spec.king_to, spec.rook_from, spec.rook_to].map(|s| s.file());
            let lo = *all.iter().min().expect("four squares");
            let hi = *all.iter().max().expect("four squares");
            let starts = 1u16 << spec.king_from.file() | 1u16 << spec.rook_from.file();
            let (a, b) = (
                spec.king_from.file().min(spec.king_to.file()),
                spec.king_from.file().max(spec.king_to.file()),
            );
            let ends = 1u16 << spec.king_from.file() | 1u16 << spec.king_to.file();
            self.castle_files[colour.index()][wing as usize] = CastleFiles {
                empty: files(lo, hi) & !starts,
                passed: files(a, b) & !ends,
            };
            self.castle_empty[colour.index()][wing as usize] =
                Bitboard::on_rank(files(lo, hi) & !starts, spec.king_from.rank());
            let bit = 1u8 << (colour.index() * 2 + wing as usize);
            for sq in [spec.king_from, spec.rook_from] {
                self.castle_keep[sq.index()] &= !bit;
            }
        }
    }

    /// The same rules at an address shared by every caller asking for equal rules, kept for the
    /// rest of the run: what positions refer to. There are a few per variant (one per
    /// combination of option values and game-end mode), so the memory kept stays small.
    pub fn interned(&self) -> &'static Rules {
        static INTERNED: Mutex<Vec<&'static Rules>> = Mutex::new(Vec::new());
        let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&rules) = interned.iter().find(|&&r| r == self) {
            return rules;
        }
        let rules: &'static Rules = Box::leak(Box::new(*self));
        interned.push(rules);
        rules
    }

    /// Sets `name` (an option or `game-end`) to `value`.
    ///
    /// # Errors
    /// The name or value is not declared; the message lists what is.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if name == "game-end" {
            self.game_end = GameEnd::parse(value).ok_or_else(|| OptionError::GameEndValue {
                value: value.to_string(),
            })?;
            return Ok(());
        }
        let (idx, spec) = self.variant.option(name).ok_or_else(|| {
            let mut known: Vec<&str> = self.variant.spec.options.iter().map(|o| o.name).collect();
            known.push("game-end");
            OptionError::UnknownOption {
                variant: self.variant.spec.id,
                name: name.to_string(),
                known,
            }
        })?;
        let v = spec
            .values
            .iter()
            .position(|v| *v == value)
            .ok_or_else(|| OptionError::UnknownValue {
                name: name.to_string(),
                value: value.to_string(),
                expected: spec.values,
            })?;
        self.options[idx] = v as u8;
        self.resolve();
        Ok(())
    }

    /// The value of option `name`, when declared.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        if name == "game-end" {
            return Some(self.game_end.name());
        }
        let (idx, _) = self.variant.option(name)?;
        let values = self.variant.spec.options[idx].values;
        Some(values[self.options[idx] as usize])
    }

    /// Whether option `name` has `value`.
    pub fn is(&self, name: &str, value: &str) -> bool {
        self.get(name) == Some(value)
    }

    /// Every declared option with its current value, then `game-end`.
    pub fn option_pairs(&self) -> Vec<(&'static str, &'static str)> {
        let mut out: Vec<(&'static str, &'static str)> = self
            .variant
            .spec
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name, o.values[self.options[i] as usize]))
            .collect();
        out.push(("game-end", self.game_end.name()));
        out
    }

    /// The start position's FEN under these options.
    pub fn start_fen(&self) -> String {
        self.overrides()
            .filter_map(|o| o.start_fen)
            .last()
            .unwrap_or(self.variant.spec.start_fen)
            .to_string()
    }

    /// The castling of `wing` for `colour`, if the rules have one.
    pub fn castle(&self, colour: super::Colour, wing: Wing) -> Option<CastleSpec> {
        self.castles[colour.index()][wing as usize]
    }
}
