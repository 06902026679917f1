//! Prints the legal moves of many positions in the order the generator makes them, for
//! comparing two builds of the library (`tools/compare-move-order.sh`): every variant under
//! every combination of its options and both game-end modes, along fixed-seed random games
//! from the start (and from Silver Elephant's set-up position). One line per position: its
//! FEN, the bulk count, then the move texts in generated order.
//!
//! Built with rustc against a release build of the library, not part of the crate (see
//! `tools/compare-move-order.sh`). It goes through the option combinations itself, with no
//! library function newer than the builds it compares.

use cvperft::notation::{move_text, parse_position, to_fen};
use cvperft::variant::Rules;
use cvperft::variants;

fn main() {
    let mut seed: u64 = 0x5eed_0f_0de2;
    for variant in variants::all() {
        let mut combos = vec![Rules::new(variant)];
        for option in &variant.spec.options {
            combos = combos
                .iter()
                .flat_map(|r| {
                    option.values.iter().map(move |value| {
                        let mut r = *r;
                        r.set(option.name, value).expect("declared option");
                        r
                    })
                })
                .collect();
        }
        for mut rules in combos {
            for game_end in ["rules", "movegen"] {
                rules.set("game-end", game_end).expect("game-end");
                let mut starts = vec![rules.start_fen()];
                if variant.spec.id == "silver-elephant" {
                    starts.push(variants::silver_elephant::SETUP_FEN.to_string());
                }
                for start in starts {
                    println!("# {rules:?} from {start}");
                    let root = parse_position(rules, &start).expect("start");
                    for _ in 0..6 {
                        let mut pos = root;
                        for _ in 0..80 {
                            let moves = pos.legal_moves();
                            let texts: Vec<String> =
                                moves.iter().map(|m| move_text(&pos, m)).collect();
                            println!(
                                "{} | {} | {}",
                                to_fen(&pos),
                                pos.count_legal(),
                                texts.join(" ")
                            );
                            if moves.is_empty() {
                                break;
                            }
                            seed = seed
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            pos = pos.play(moves[(seed >> 33) as usize % moves.len()]);
                        }
                    }
                }
            }
        }
    }
}
