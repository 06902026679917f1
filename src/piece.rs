//! Piece movement as data, parsed from a small subset of Betza's notation.
//!
//! A piece is declared in one line such as `FfWAfD` (the Silver Elephant) or `fmWfcFifmnD` (the
//! orthodox Pawn). The parser expands every atom into concrete direction vectors seen from White
//! (forward = towards higher ranks); Black's vectors are the same turned half a circle.
//!
//! Supported subset:
//! * atoms `W` (1,0) `F` (1,1) `D` (2,0) `N` (2,1) `A` (2,2) `H` (3,0) `C` (3,1) `Z` (3,2) `G` (3,3);
//!   shorthands `K` = `WF`, `R` = `WW`, `B` = `FF`, `Q` = `RB`;
//! * a doubled atom (`WW`, `NN`) rides; a digit after an atom rides that many steps at most;
//! * direction modifiers relative to the moving side: `f` forward, `b` backward, `l` left, `r`
//!   right, `s` sideways (`l` or `r`), `v` vertical (`f` or `b`); on diagonal and oblique atoms a
//!   vertical and a horizontal letter together select their intersection (`fl` = forward-left);
//! * `m` move only, `c` capture only, `i` only from the side's second rank (the initial double
//!   step of pawns and Sergeants), `n` lame: every square passed on the way must be empty.

/// One concrete movement vector of a piece, from White's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Atom {
    /// File step.
    pub dx: i8,
    /// Rank step (positive is forward for the moving side).
    pub dy: i8,
    /// Whether the piece may repeat the step (a slide).
    pub rider: bool,
    /// Most repetitions for a rider (0 = unlimited).
    pub range: u8,
    /// Whether the move may go to an empty square.
    pub quiet: bool,
    /// Whether the move may capture.
    pub capture: bool,
    /// Only from the side's second rank.
    pub initial: bool,
    /// Every square passed must be empty.
    pub lame: bool,
}

/// The movement of one piece: a list of atoms.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Movement {
    /// Every movement vector with its modes.
    pub atoms: Vec<Atom>,
}

/// A Betza string the parser does not accept.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("betza `{text}`, column {}: {message}", .column + 1)]
pub struct BetzaError {
    /// The text given.
    pub text: String,
    /// Zero-based column of the offending character.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

fn atom_base(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

fn all_directions(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn direction_allowed(dx: i8, dy: i8, dirs: &str) -> bool {
    if dirs.is_empty() {
        return true;
    }
    let vertical = |c: char| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'v' => {
            if dx == 0 || dy == 0 {
                dx == 0
            } else {
                dy.abs() > dx.abs() || dx.abs() == dy.abs()
            }
        }
        _ => false,
    };
    let horizontal = |c: char| match c {
        'l' => dx < 0,
        'r' => dx > 0,
        's' => {
            if dx == 0 || dy == 0 {
                dy == 0
            } else {
                dx.abs() > dy.abs() || dx.abs() == dy.abs()
            }
        }
        _ => false,
    };
    let has_v = dirs.chars().any(|c| "fbv".contains(c));
    let has_h = dirs.chars().any(|c| "lrs".contains(c));
    let oblique_or_diagonal = dx != 0 && dy != 0;
    let v_ok = dirs.chars().any(vertical);
    let h_ok = dirs.chars().any(horizontal);
    if oblique_or_diagonal && has_v && has_h && dirs.chars().any(|c| "lr".contains(c)) {
        v_ok && h_ok
    } else {
        v_ok || h_ok
    }
}

/// Parses a Betza string into its movement.
///
/// # Errors
/// An unknown letter, a modifier with no atom after it, or an empty string.
///
/// # Examples
/// ```
/// let elephant = cvperft::piece::parse_betza("FfWAfD").unwrap();
/// assert_eq!(elephant.atoms.len(), 4 + 1 + 4 + 1);
/// ```
pub fn parse_betza(text: &str) -> Result<Movement, BetzaError> {
    let err = |column: usize, message: &str| BetzaError {
        text: text.to_string(),
        column,
        message: message.to_string(),
    };
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Err(err(0, "empty movement"));
    }
    let mut atoms: Vec<Atom> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let group_start = i;
        let mut dirs = String::new();
        let (mut only_move, mut only_capture, mut initial, mut lame) = (false, false, false, false);
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 's' | 'v' => dirs.push(chars[i]),
                'm' => only_move = true,
                'c' => only_capture = true,
                'i' => initial = true,
                'n' => lame = true,
                other => return Err(err(i, &format!("unknown modifier `{other}`"))),
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(err(group_start, "modifiers with no atom after them"));
        }
        if only_move && only_capture {
            return Err(err(group_start, "`m` and `c` together allow nothing"));
        }
        let letter = chars[i];
        let expansions: Vec<(char, bool)> = match letter {
            'K' => vec![('W', false), ('F', false)],
            'R' => vec![('W', true)],
            'B' => vec![('F', true)],
            'Q' => vec![('W', true), ('F', true)],
            c if atom_base(c).is_some() => vec![(c, false)],
            other => return Err(err(i, &format!("unknown atom `{other}`"))),
        };
        i += 1;
        let mut rider_by_doubling = false;
        let mut range: u8 = 0;
        if i < chars.len() && chars[i] == letter && atom_base(letter).is_some() {
            rider_by_doubling = true;
            i += 1;
        } else if i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            range = digits
                .parse()
                .ok()
                .filter(|r| *r > 0)
                .ok_or_else(|| err(start, "range must be between 1 and 255"))?;
            rider_by_doubling = true;
        }
        let mut produced = 0;
        for (base, rider) in expansions {
            let (a, b) = atom_base(base).expect("expansion letters are atoms");
            for (dx, dy) in all_directions(a, b) {
                if !direction_allowed(dx, dy, &dirs) {
                    continue;
                }
                produced += 1;
                atoms.push(Atom {
                    dx,
                    dy,
                    rider: rider || rider_by_doubling,
                    range,
                    quiet: !only_capture,
                    capture: !only_move,
                    initial,
                    lame,
                });
            }
        }
        if produced == 0 {
            return Err(err(group_start, "direction modifiers leave no direction"));
        }
    }
    Ok(Movement { atoms })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(m: &Movement) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = m.atoms.iter().map(|a| (a.dx, a.dy)).collect();
        v.sort();
        v
    }

    #[test]
    fn simple_atoms() {
        assert_eq!(parse_betza("W").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("F").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("N").unwrap().atoms.len(), 8);
        assert_eq!(parse_betza("C").unwrap().atoms.len(), 8);
        assert_eq!(parse_betza("Z").unwrap().atoms.len(), 8);
        assert_eq!(parse_betza("D").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("A").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("H").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("G").unwrap().atoms.len(), 4);
        assert_eq!(parse_betza("K").unwrap().atoms.len(), 8);
        assert!(
            parse_betza("C")
                .unwrap()
                .atoms
                .iter()
                .any(|a| (a.dx, a.dy) == (1, 3))
        );
    }

    #[test]
    fn riders() {
        let q = parse_betza("Q").unwrap();
        assert_eq!(q.atoms.len(), 8);
        assert!(q.atoms.iter().all(|a| a.rider && a.range == 0));
        let nn = parse_betza("NN").unwrap();
        assert!(nn.atoms.iter().all(|a| a.rider));
        let w2 = parse_betza("W2").unwrap();
        assert!(w2.atoms.iter().all(|a| a.rider && a.range == 2));
        assert!(
            parse_betza("R")
                .unwrap()
                .atoms
                .iter()
                .all(|a| a.dx == 0 || a.dy == 0)
        );
    }

    #[test]
    fn directions() {
        assert_eq!(vectors(&parse_betza("fW").unwrap()), vec![(0, 1)]);
        assert_eq!(vectors(&parse_betza("bW").unwrap()), vec![(0, -1)]);
        assert_eq!(vectors(&parse_betza("sW").unwrap()), vec![(-1, 0), (1, 0)]);
        assert_eq!(vectors(&parse_betza("vW").unwrap()), vec![(0, -1), (0, 1)]);
        assert_eq!(vectors(&parse_betza("fF").unwrap()), vec![(-1, 1), (1, 1)]);
        assert_eq!(vectors(&parse_betza("flF").unwrap()), vec![(-1, 1)]);
        assert_eq!(vectors(&parse_betza("lW").unwrap()), vec![(-1, 0)]);
        assert_eq!(vectors(&parse_betza("rW").unwrap()), vec![(1, 0)]);
        assert_eq!(vectors(&parse_betza("fN").unwrap()).len(), 4);
        assert_eq!(vectors(&parse_betza("fD").unwrap()), vec![(0, 2)]);
        let princess = parse_betza("fRfB").unwrap();
        assert_eq!(vectors(&princess), vec![(-1, 1), (0, 1), (1, 1)]);
    }

    #[test]
    fn modes() {
        let pawn = parse_betza("fmWfcFifmnD").unwrap();
        let step = pawn.atoms.iter().find(|a| (a.dx, a.dy) == (0, 1)).unwrap();
        assert!(step.quiet && !step.capture && !step.initial);
        let diag: Vec<_> = pawn.atoms.iter().filter(|a| a.dx != 0).collect();
        assert_eq!(diag.len(), 2);
        assert!(diag.iter().all(|a| a.capture && !a.quiet));
        let double = pawn.atoms.iter().find(|a| (a.dx, a.dy) == (0, 2)).unwrap();
        assert!(double.initial && double.lame && double.quiet && !double.capture);
    }

    #[test]
    fn silver_elephant() {
        let e = parse_betza("FfWAfD").unwrap();
        let v = vectors(&e);
        for want in [(1, 1), (-1, -1), (0, 1), (2, 2), (-2, -2), (0, 2)] {
            assert!(v.contains(&want), "{want:?}");
        }
        assert!(!v.contains(&(0, -1)) && !v.contains(&(1, 0)));
        assert!(e.atoms.iter().all(|a| !a.lame && a.quiet && a.capture));
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse_betza("fWx").unwrap_err();
        assert_eq!(e.column, 2);
        let e = parse_betza("fWY").unwrap_err();
        assert_eq!(e.column, 2);
        assert!(parse_betza("").is_err());
        assert!(parse_betza("f").is_err());
        assert!(parse_betza("mcW").is_err());
        assert!(parse_betza("W0").is_err());
    }
}
