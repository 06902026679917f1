//! Our own generator behind the [`Engine`] trait, so that it can stand on either side of a
//! comparison; with [`Faults`] it becomes a deliberately wrong engine for testing `diff`.

use super::{Divide, Engine, EngineError, EngineErrorKind, Query};
use crate::faults::Faults;
use crate::notation::{parse_move, parse_position};
use crate::position::Position;
use crate::variant::Rules;

/// The reference generator for one variant and set of rule options.
pub struct ReferenceEngine {
    rules: Rules,
    faults: Faults,
    threads: usize,
}

impl ReferenceEngine {
    /// The correct generator.
    pub fn new(rules: Rules) -> ReferenceEngine {
        ReferenceEngine {
            rules,
            faults: Faults::none(),
            threads: 1,
        }
    }

    /// The generator with `faults` planted.
    pub fn with_faults(rules: Rules, faults: Faults) -> ReferenceEngine {
        ReferenceEngine {
            rules,
            faults,
            threads: 1,
        }
    }

    /// Uses `threads` worker threads for fault-free divides (1: this thread only).
    pub fn threads(mut self, threads: usize) -> ReferenceEngine {
        self.threads = threads.max(1);
        self
    }

    /// The rules it plays by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position a query describes under these rules.
    ///
    /// # Errors
    /// A FEN the rules refuse (`Rejected`) or a move that is not legal (`IllegalMove`), naming
    /// the ply.
    pub fn position(&self, query: &Query) -> Result<Position, EngineError> {
        let fail = |kind| EngineError::new(&self.name(), Some(query), kind);
        let mut pos = parse_position(self.rules, &query.fen)
            .map_err(|e| fail(EngineErrorKind::Rejected(e.to_string())))?;
        for (ply, text) in query.moves.iter().enumerate() {
            let m = parse_move(&pos, text).map_err(|e| {
                fail(EngineErrorKind::IllegalMove(format!(
                    "ply {}: {e}",
                    ply + 1
                )))
            })?;
            pos = pos.play(m);
        }
        Ok(pos)
    }
}

impl Engine for ReferenceEngine {
    fn divide(&mut self, query: &Query) -> Result<Divide, EngineError> {
        let pos = self.position(query)?;
        let entries = if self.faults.is_empty() {
            crate::perft::divide_with(
                &pos,
                query.depth,
                &crate::perft::PerftConfig {
                    threads: self.threads,
                    ..Default::default()
                },
            )
        } else {
            crate::faults::divide(&pos, query.depth, &self.faults)
        };
        let counts = entries.iter().map(|e| e.count);
        crate::perft::checked(crate::perft::sum(counts)).map_err(|e| {
            EngineError::new(&self.name(), Some(query), EngineErrorKind::CountOverflow(e))
        })?;
        Ok(Divide::from_entries(entries))
    }

    fn name(&self) -> String {
        let mut name = format!("cvperft reference ({}", self.rules.variant.spec.id);
        for (option, value) in self.rules.option_pairs() {
            let default = match option {
                "game-end" => "rules",
                _ => self
                    .rules
                    .variant
                    .option(option)
                    .map(|(_, o)| o.values[0])
                    .unwrap_or(""),
            };
            if value != default {
                name.push_str(&format!(", {option}={value}"));
            }
        }
        for fault in self.faults.names() {
            name.push_str(&format!(", inject {fault}"));
        }
        name.push(')');
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn answers_and_refuses() {
        let rules = variants::rules("chess").expect("chess");
        let mut engine = ReferenceEngine::new(rules);
        let start = rules.start_fen();
        let d = engine
            .divide(&Query::new(start.clone(), &["e2e4".into()], 1))
            .unwrap();
        assert_eq!(d.total, d.entries.len() as u64);
        let e = engine
            .divide(&Query::new(start, &["e2e5".into()], 1))
            .unwrap_err();
        assert!(matches!(e.kind, EngineErrorKind::IllegalMove(_)), "{e}");
        assert!(e.to_string().contains("e2e5"));
    }
}
