//! The properties the fuzz targets check, one function per target.
//!
//! This file is the fuzz crate's library and is also compiled into the main crate's test
//! `tests/fuzz_corpus.rs` (by `#[path]`), which replays every committed seed and regression
//! input on the stable toolchain, so a crash once found stays fixed without a fuzzer.
//!
//! Input formats (chosen so that seeds are readable text files):
//! - `fen`: the whole input is a FEN, tried under every variant and every combination of its
//!   declared options.
//! - `move_text`: the first byte picks a position from [`MOVE_TEXT_POSITIONS`]
//!   (`a` is the first, `b` the second, ...), the rest is move text.
//! - `movegen`: byte 0 picks the variant (`0`..`5` in [`cvperft::variants::IDS`] order),
//!   byte 1 the options (`0`..`7`: bit 0 and bit 1 choose the second value of the first and
//!   second declared option, bit 2 sets `game-end=movegen`), byte 2 the start: `f` means a FEN
//!   follows up to a newline, anything else starts from the variant's start position. Each
//!   remaining byte picks the next move of a random walk (at most [`MAX_WALK`] plies).
//! - `suite_yaml`: the whole input is a suite file, read as UTF-8 with invalid bytes replaced
//!   (`load_file` refuses non-UTF-8 files before `load_str` sees them, and that path has its
//!   own fixture), named [`SUITE_PATH`] in errors.
//! - `record`: a first line `VON[ OURS=THEIRS ...]`, then the record's bytes. `V` picks the
//!   variant as `movegen`'s byte 0 does (a `[Variant]` tag overrides it), `O` the options as
//!   `movegen`'s byte 1 does, with bit 3 asking for the record's second game; `N` the notation
//!   (`c` coordinate, `g` Game Courier, `s` SAN, anything else `--notation auto`); the words
//!   after it are Game Courier label pairs (`--label`), but for a word `@K`, which cuts the
//!   game at ply `K` (`--at-ply`) where the record is read whole as `cvperft game` reads it.
//! - `engine_output`: the whole input is what an engine printed, split into lines as
//!   [`cvperft::engine::process::EngineProcess`] splits its output; read as a perftree
//!   command's answer and as a UCI engine's answer to `go perft` (with and without `O-O`
//!   and `O-O-O` named by a `--map`).
//! - `uci_handshake`: the whole input is what an engine printed after `uci` (split into lines
//!   as for `engine_output`), read as its reply up to `uciok`, then what follows as its reply
//!   to `isready` up to `readyok`; the whole input is also read as a reply to `isready` alone.
//!
//! A new target adds one function here, one file in `fuzz_targets/`, one directory of seeds in
//! `corpus/`, and one line in [`TARGETS`].

use cvperft::engine::uci::{Handshake, MAX_CHATTER, PerftAnswer, ReadyReply, UciReply};
use cvperft::engine::{Divide, EngineError, EngineErrorKind, Query, perftree};
use cvperft::game::{
    Detection, Game, Header, ReadOptions, ReadRecordError, RecordRequest, read_game, read_header,
    read_record,
};
use cvperft::notation::{
    move_text, normalise_move_text, parse_fen, parse_move, parse_position, play_moves, to_fen,
};
use cvperft::position::Position;
use cvperft::record::{self, Labels, Notation, RecordError, RecordReason};
use cvperft::san::san;
use cvperft::suite::{
    Case, CheckKind, LoadError, Reference, Selection, Shard, Suite, checks_of, load_str, plan,
    run_check,
};
use cvperft::variant::{Rules, Variant};
use cvperft::variants;
use std::collections::HashSet;

/// The check of one fuzz target: panics when a property fails.
pub type Check = fn(&[u8]);

/// Every fuzz target: its name (the directory under `corpus/` and `regressions/`) and check.
pub const TARGETS: &[(&str, Check)] = &[
    ("fen", check_fen),
    ("move_text", check_move_text),
    ("movegen", check_movegen),
    ("suite_yaml", check_suite_yaml),
    ("record", check_record),
    ("engine_output", check_engine_output),
    ("uci_handshake", check_uci_handshake),
];

/// The file name `suite_yaml` inputs are loaded under.
pub const SUITE_PATH: &str = "fuzz/input.yaml";

/// How the `record` target's errors name the record, as `cvperft game` names a file.
pub const RECORD_NAME: &str = "game `fuzz/input.txt`";

/// Deepest perft or divide a `suite_yaml` input's checks are run at (deeper ones are skipped).
pub const SUITE_MAX_DEPTH: u32 = 2;

/// Most plies of a `movegen` random walk.
pub const MAX_WALK: usize = 40;

/// The positions `move_text` inputs choose from: (variant id, FEN).
pub const MOVE_TEXT_POSITIONS: &[(&str, &str)] = &[
    (
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("chess", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
    (
        "chess",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    (
        "silver-elephant",
        "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1",
    ),
    (
        "silver-elephant",
        "rnebqkb2r/1pp1p1ppp1/3p3n2/p4p2ep/10/1PN1PP1N1E/P1PPBBPPPP/R1E1QK3R w KQkq - 0 9",
    ),
    (
        "bachelor-kamil",
        "rn3c3/5nP2/pNPpb1k1p/3cppbNP/4PPP2/P1C2B3/2PP1K3/R1B2CR2 w - - 1 33",
    ),
    (
        "cerimon",
        "r1b1k1b1/nn3s2/3b4/ssSs1r1n/SN1B2Sb/3N1S2/3TB2N/RB3KBR[Nnt] b - - 5 19",
    ),
    (
        "cerimon",
        "rbbtkbbr/nnssssnn/8/8/8/8/NNSSSSNN/RBBTKBBR[] w - - 0 1",
    ),
    (
        "plutonian",
        "r1ckq1nr/p1pp2pp/6n1/1pP1p3/3P4/1N6/P1Q1Pp1P/RN1cCKCR b kq - 1 15",
    ),
    (
        "pink-panther",
        "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1",
    ),
    (
        "pink-panther",
        "1rng1br/Bp2ppp/n5I/4i2/P1P1+b2/1P3PP/RN1G2R b - - 1 11",
    ),
];

/// The input as text: itself when it is UTF-8, else with invalid bytes replaced.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Every combination of the variant's declared options (`game-end` left at its default).
pub fn option_combinations(variant: &'static Variant) -> Vec<Rules> {
    let mut out = vec![Rules::new(variant)];
    for option in &variant.spec.options {
        let mut next = Vec::new();
        for rules in &out {
            for value in option.values {
                let mut r = *rules;
                r.set(option.name, value).expect("declared option");
                next.push(r);
            }
        }
        out = next;
    }
    out
}

fn one_line(what: &str, message: &str) {
    assert!(
        !message.contains('\n') && !message.contains('\r'),
        "{what} error is not one line: {message:?}"
    );
}

/// `fen`: parsing never panics, errors are one line, and an accepted FEN round-trips: the FEN
/// printed for the position parses back to a position printing the same FEN, with the same
/// Zobrist key, and the position's own setup validates again.
pub fn check_fen(data: &[u8]) {
    let fen = text(data);
    for variant in variants::all() {
        if let Err(e) = parse_fen(variant, &fen)
            && !fen.contains(['\n', '\r'])
        {
            one_line("FEN", &e.to_string());
        }
        for rules in option_combinations(variant) {
            match parse_position(rules, &fen) {
                Err(e) => {
                    if !fen.contains(['\n', '\r']) {
                        one_line("FEN", &e.to_string());
                    }
                }
                Ok(pos) => check_round_trip(&pos, &format!("FEN {fen:?}")),
            }
        }
    }
}

/// The position's FEN parses back to an equal position.
fn check_round_trip(pos: &Position, context: &str) {
    let rules = *pos.rules();
    let printed = to_fen(pos);
    let again = parse_position(rules, &printed).unwrap_or_else(|e| {
        panic!("{rules:?}: {context}: printed FEN {printed:?} does not parse back: {e}")
    });
    assert_eq!(
        to_fen(&again),
        printed,
        "{rules:?}: {context}: FEN does not round-trip"
    );
    assert_eq!(
        again.zobrist(),
        pos.zobrist(),
        "{rules:?}: {context}: the FEN {printed:?} loses state (Zobrist keys differ)"
    );
    let from_setup = Position::from_setup(rules, &pos.to_setup()).unwrap_or_else(|e| {
        panic!("{rules:?}: {context}: the position's own setup is refused: {e}")
    });
    assert_eq!(to_fen(&from_setup), printed, "{rules:?}: {context}");
}

/// `move_text`: move text never panics the syntax check, the legal-move lookup or a list of
/// moves; canonical text is a fixed point; a move found is legal and prints as the canonical
/// spelling of the text given.
pub fn check_move_text(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (id, fen) =
        MOVE_TEXT_POSITIONS[pick.wrapping_sub(b'a') as usize % MOVE_TEXT_POSITIONS.len()];
    let rules = variants::rules(id).expect("variant");
    let pos = parse_position(rules, fen).expect("listed positions are legal");
    let input = text(rest);
    let single_line = !input.contains(['\n', '\r']);
    match normalise_move_text(rules.variant, &input) {
        Ok(canonical) => {
            let again = normalise_move_text(rules.variant, &canonical)
                .unwrap_or_else(|e| panic!("canonical text {canonical:?} is refused: {e}"));
            assert_eq!(again, canonical, "normalising {input:?} twice");
        }
        Err(e) if single_line => one_line("move", &e.to_string()),
        Err(_) => {}
    }
    match parse_move(&pos, &input) {
        Ok(m) => {
            assert!(
                pos.legal_moves().contains(&m),
                "{input:?} gave an illegal move"
            );
            let canonical = normalise_move_text(rules.variant, input.trim()).expect("parsed");
            assert_eq!(move_text(&pos, &m), canonical, "{input:?}");
        }
        Err(e) if single_line => one_line("move", &e.to_string()),
        Err(_) => {}
    }
    if let Ok(after) = play_moves(&pos, &input) {
        check_round_trip(&after, &format!("{fen:?} after {input:?}"));
    }
}

/// The rules a `movegen` input selects.
fn movegen_rules(variant_byte: u8, option_byte: u8) -> Rules {
    let ids = variants::IDS;
    let id = ids[variant_byte.wrapping_sub(b'0') as usize % ids.len()];
    rules_with_options(id, option_byte)
}

/// Variant `id` with the options `option_byte` selects (as `movegen`'s byte 1).
fn rules_with_options(id: &str, option_byte: u8) -> Rules {
    let mut rules = variants::rules(id).expect("variant");
    let bits = option_byte.wrapping_sub(b'0');
    for (i, option) in rules
        .variant
        .spec
        .options
        .clone()
        .iter()
        .enumerate()
        .take(2)
    {
        let value = option.values[(bits >> i & 1) as usize % option.values.len()];
        rules.set(option.name, value).expect("declared option");
    }
    if bits & 4 != 0 {
        rules.set("game-end", "movegen").expect("game-end");
    }
    rules
}

/// `movegen`: along a random walk from any accepted position, legal move lists are
/// deterministic and agree with the bulk count, every position reached prints a FEN that parses
/// back to an equal position, and the move picked is found again from its text. At the end of
/// the walk every legal move is checked: it has its own canonical text, it can be played, and
/// the position it leads to round-trips through FEN.
pub fn check_movegen(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let rules = movegen_rules(data[0], data[1]);
    let (start, walk) = if data[2] == b'f' {
        let rest = &data[3..];
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let Ok(pos) = parse_position(rules, &text(&rest[..end])) else {
            return;
        };
        (pos, rest.get(end + 1..).unwrap_or(&[]))
    } else {
        let start = parse_position(rules, &rules.start_fen()).expect("start position");
        (start, &data[3..])
    };
    let mut pos = start;
    for &byte in walk.iter().take(MAX_WALK) {
        let fen = to_fen(&pos);
        let moves = pos.legal_moves();
        assert_eq!(
            moves,
            pos.legal_moves(),
            "{fen}: legal moves differ between calls"
        );
        assert_eq!(
            pos.count_legal(),
            moves.len() as u64,
            "{fen}: bulk count differs from the move list"
        );
        if pos.variant().narrow {
            assert_eq!(
                pos.narrowed().count_legal(),
                moves.len() as u64,
                "{fen}: bulk count on 64-bit masks differs from the move list"
            );
        }
        if moves.is_empty() {
            break;
        }
        let m = moves[byte as usize % moves.len()];
        let spelled = move_text(&pos, &m);
        let found = parse_move(&pos, &spelled)
            .unwrap_or_else(|e| panic!("{fen}: {spelled:?} is not found again: {e}"));
        assert_eq!(found, m, "{fen}: {spelled:?} names another move");
        pos = pos.play(m);
        check_round_trip(&pos, &format!("{fen} after {spelled}"));
    }
    check_every_move(&pos);
}

/// Checks every legal move of one position.
fn check_every_move(pos: &Position) {
    let fen = to_fen(pos);
    let moves = pos.legal_moves();
    assert_eq!(
        pos.count_legal(),
        moves.len() as u64,
        "{fen}: bulk count differs from the move list"
    );
    if pos.variant().narrow {
        assert_eq!(
            pos.narrowed().count_legal(),
            moves.len() as u64,
            "{fen}: bulk count on 64-bit masks differs from the move list"
        );
    }
    let _ = pos.outcome();
    let mut texts: Vec<String> = Vec::with_capacity(moves.len());
    for m in &moves {
        let spelled = move_text(pos, m);
        let canonical = normalise_move_text(pos.variant(), &spelled)
            .unwrap_or_else(|e| panic!("{fen}: generated text {spelled:?} is refused: {e}"));
        assert_eq!(canonical, spelled, "{fen}: generated text is not canonical");
        let after = pos.play(*m);
        check_round_trip(&after, &format!("{fen} after {spelled}"));
        texts.push(spelled);
    }
    texts.sort();
    let before = texts.len();
    texts.dedup();
    assert_eq!(
        before,
        texts.len(),
        "{fen}: two legal moves print the same text"
    );
}

/// `suite_yaml`: loading never panics; every error is one line, names the file and a line of
/// the input; loading is deterministic; an accepted suite's cases replay (FEN and moves under
/// the case's rules reach the case's position, which round-trips through FEN), its checks have
/// distinct names and shard into a partition, and its cheap checks (move lists, outcome, perft
/// and divide up to depth [`SUITE_MAX_DEPTH`]) run against the reference without panicking.
pub fn check_suite_yaml(data: &[u8]) {
    let yaml = text(data);
    let path = std::path::Path::new(SUITE_PATH);
    let loaded = load_str(&yaml, path);
    let again = load_str(&yaml, path);
    match (&loaded, &again) {
        (Err(errors), Err(repeated)) => {
            assert!(!errors.is_empty(), "refused without an error");
            assert_eq!(errors, repeated, "loading twice gives other errors");
            // YAML breaks lines at CR, LF, CR LF, NEL, LS and PS.
            let breaks = ['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'];
            let lines = yaml.matches(breaks).count() + 1;
            for e in errors {
                check_load_error(e, lines);
            }
        }
        (Ok(suite), Ok(repeated)) => {
            assert_eq!(
                format!("{suite:?}"),
                format!("{repeated:?}"),
                "loading twice gives another suite"
            );
            check_suite(suite);
        }
        _ => panic!("loading twice: once accepted, once refused"),
    }
}

/// A load error names [`SUITE_PATH`] and a line of the input (at most `lines` lines, one more
/// for the end of the input), on one line.
fn check_load_error(e: &LoadError, lines: usize) {
    let shown = e.to_string();
    one_line("suite", &shown);
    assert_eq!(e.file, std::path::Path::new(SUITE_PATH), "{shown}");
    assert!(shown.starts_with(&format!("{SUITE_PATH}:")), "{shown}");
    let line = e
        .line
        .unwrap_or_else(|| panic!("error without a line: {shown}"));
    assert!(
        (1..=lines + 1).contains(&line),
        "line {line} outside the input's {lines} lines: {shown}"
    );
    assert!(
        !e.reason.to_string().trim().is_empty(),
        "empty message: {shown}"
    );
}

/// The properties of an accepted suite.
fn check_suite(suite: &Suite) {
    let mut ids = std::collections::BTreeSet::new();
    for case in &suite.cases {
        assert!(ids.insert(&case.id), "duplicate id {:?} accepted", case.id);
        check_case_replays(case);
    }
    let suites = std::slice::from_ref(suite);
    let planned = plan(suites, &Selection::default());
    let mut names: Vec<&str> = planned.iter().map(|p| p.name.as_str()).collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "two checks share a name");
    let mut sharded: Vec<String> = (1..=2)
        .flat_map(|index| {
            let shard = Shard { index, count: 2 };
            let selection = Selection {
                shard: Some(shard),
                ..Selection::default()
            };
            plan(suites, &selection).into_iter().map(|p| p.name)
        })
        .collect();
    sharded.sort_unstable();
    assert_eq!(
        sharded, names,
        "two shards are not a partition of the checks"
    );
    for (index, case) in suite.cases.iter().enumerate() {
        for check in checks_of(0, index, case) {
            let cheap = match check.kind {
                CheckKind::Perft(d) | CheckKind::Divide(d) => d <= SUITE_MAX_DEPTH,
                CheckKind::Legal | CheckKind::Illegal | CheckKind::Outcome => true,
            };
            if cheap {
                let result = run_check(suites, &check, &Reference);
                assert_eq!(result.name, check.name(suites));
            }
        }
    }
}

/// A case's FEN and moves, replayed under its position's rules, reach its position, and every
/// position it keeps round-trips through FEN.
fn check_case_replays(case: &Case) {
    let positions = std::iter::once(&case.position)
        .chain(case.alternatives.iter().filter_map(|a| a.position.as_ref()));
    for pos in positions {
        let rules = *pos.rules();
        let fen = case.fen.clone().unwrap_or_else(|| rules.start_fen());
        let start = parse_position(rules, &fen)
            .unwrap_or_else(|e| panic!("case {}: accepted FEN {fen:?} is refused: {e}", case.id));
        let reached = match &case.moves {
            None => start,
            Some(moves) => play_moves(&start, moves).unwrap_or_else(|e| {
                panic!(
                    "case {}: accepted moves are refused at ply {}: {}",
                    case.id, e.ply, e.error
                )
            }),
        };
        assert_eq!(to_fen(&reached), to_fen(pos), "case {}: replay", case.id);
        check_round_trip(pos, &format!("case {}", case.id));
    }
}

/// Line breaks as a record's reader counts them (see `cvperft::record`): LF, and CR alone in a
/// record whose lone CRs outnumber its LFs. The characters of each line (its break not
/// counted, nor a byte-order mark opening the record).
fn record_lines(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    let lone_cr = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    let cr_alone = lone_cr > lf;
    let chars: Vec<char> = text.chars().collect();
    let mut lines = vec![0usize];
    for (i, &c) in chars.iter().enumerate() {
        let ends = c == '\n' || (c == '\r' && cr_alone && chars.get(i + 1) != Some(&'\n'));
        if ends {
            lines.push(0);
        } else if i > 0 || c != '\u{feff}' {
            *lines.last_mut().expect("a line") += 1;
        }
    }
    lines
}

/// A record error is one line and names a line and column of `text` (the column at most one
/// past the line's last character).
fn check_record_error(e: &RecordError, text: &str) {
    let shown = e.to_string();
    one_line("record", &shown);
    if matches!(e.reason, RecordReason::TooLarge(_)) {
        return;
    }
    let lines = record_lines(text);
    assert!(
        (1..=lines.len()).contains(&e.line),
        "line {} outside the record's {} lines: {shown}",
        e.line,
        lines.len()
    );
    let length = lines[e.line - 1];
    assert!(
        (1..=length + 1).contains(&e.column),
        "column {} outside line {} of {length} characters: {shown}",
        e.column,
        e.line
    );
}

/// `record`: reading a game record never panics; every error is one line and names a line and
/// column of the record; reading twice gives the same result; an accepted record's plies are
/// legal moves that replay under the reference generator (each move's own text and SAN as the
/// ply gives them, found again from its text) to the game's final position, which round-trips
/// through FEN; with `--notation auto` the notation chosen reads the same game alone; and the
/// game written in our SAN reads back as the same moves.
pub fn check_record(data: &[u8]) {
    let Some(newline) = data.iter().position(|&b| b == b'\n') else {
        return;
    };
    let (head, body) = (&data[..newline], &data[newline + 1..]);
    let [variant_byte, option_byte, notation_byte, rest @ ..] = head else {
        return;
    };
    let notation = match notation_byte {
        b'c' => Some(Notation::Coordinate),
        b'g' => Some(Notation::GameCourier),
        b's' => Some(Notation::San),
        _ => None,
    };
    let mut rules = movegen_rules(*variant_byte, *option_byte);
    let words = text(rest);
    let (cuts, pairs): (Vec<&str>, Vec<&str>) =
        words.split_whitespace().partition(|w| w.starts_with('@'));
    let pairs: Vec<String> = pairs.into_iter().map(String::from).collect();
    // The last `@K`; one that is no number cuts nowhere.
    let at_ply = cuts.last().and_then(|w| w[1..].parse::<usize>().ok());
    let game_index = if option_byte.wrapping_sub(b'0') & 8 != 0 {
        2
    } else {
        1
    };
    let text = match record::decode(body.to_vec()) {
        Ok(text) => text,
        Err(e) => {
            assert!(matches!(e.reason, RecordReason::NotUtf8(_)), "{e}");
            return check_record_error(&e, &String::from_utf8_lossy(body));
        }
    };
    let request = RecordRequest {
        notation,
        labels: pairs.clone(),
        game_index,
        fen: None,
        at_ply,
    };
    check_read_record(&text, rules, *option_byte, &request);
    let mut options = ReadOptions {
        notation,
        game_index,
        ..ReadOptions::default()
    };
    let header = read_header(&text, &options);
    let again = read_header(&text, &options);
    assert_eq!(
        format!("{header:?}"),
        format!("{again:?}"),
        "reading the header twice"
    );
    let header = match header {
        Ok(header) => header,
        Err(e) => return check_record_error(&e, &text),
    };
    if let Some((id, _)) = &header.variant
        && *id != rules.variant.spec.id
    {
        rules = rules_with_options(id, *option_byte);
    }
    options.labels = match Labels::new(rules.variant, &pairs) {
        Ok(labels) => labels,
        Err(e) => return one_line("label", &e.to_string()),
    };
    let start = match &header.fen {
        Some(tag) => match parse_position(rules, &tag.value) {
            Ok(pos) => pos,
            Err(_) => return,
        },
        None => parse_position(rules, &rules.start_fen()).expect("start position"),
    };
    let read = read_game(&text, &start, &options);
    let again = read_game(&text, &start, &options);
    let game = match (read, again) {
        (Err(e), Err(repeated)) => {
            assert_eq!(e, repeated, "reading twice gives other errors");
            return check_record_error(&e, &text);
        }
        (Ok(game), Ok(repeated)) => {
            assert_eq!(
                format!("{game:?}"),
                format!("{repeated:?}"),
                "reading twice gives another game"
            );
            game
        }
        (a, b) => panic!("reading twice: {:?} then {:?}", a.err(), b.err()),
    };
    check_game_replays(&game, &text);
    if notation.is_none() {
        let alone = ReadOptions {
            notation: Some(game.notation),
            ..options.clone()
        };
        let again = read_game(&text, &start, &alone).unwrap_or_else(|e| {
            panic!(
                "auto read it as {}, which alone refuses it: {e}",
                game.notation.name()
            )
        });
        assert_eq!(
            plies_of(&again),
            plies_of(&game),
            "auto and {} alone read other games",
            game.notation.name()
        );
    }
    // Our own SAN of the game reads back as the same moves.
    let written: Vec<String> = game.plies.iter().map(|p| p.san.clone()).collect();
    let san_record = written.join(" ");
    let san_only = ReadOptions {
        notation: Some(Notation::San),
        ..ReadOptions::default()
    };
    let reread = read_game(&san_record, &start, &san_only)
        .unwrap_or_else(|e| panic!("our SAN {san_record:?} is refused: {e}"));
    assert_eq!(
        plies_of(&reread),
        plies_of(&game),
        "our SAN {san_record:?} reads as another game"
    );
}

/// The record read whole as `cvperft game` reads it (`read_record`: its header, the rules, the
/// start, the game; with `--notation auto` the notations cross-checked): the same twice; an
/// error is one line and names the record, a record error a line and column inside it; a game
/// found replays (as `check_game_replays` says), cut where asked. With `auto`, every notation
/// that reads the whole game alone reads the same game, which the game found begins (it is that
/// game when not cut); the notations the choice names are ones that read it alone; a refusal
/// for readings that disagree or a game one notation says is not there holds.
fn check_read_record(text: &str, rules: Rules, option_byte: u8, request: &RecordRequest) {
    // As `cvperft game` without `-v`: the record's [Variant] over the variant chosen.
    let rules_for = |header: &Header| -> Result<Rules, std::convert::Infallible> {
        Ok(match &header.variant {
            Some((id, _)) if *id != rules.variant.spec.id => rules_with_options(id, option_byte),
            _ => rules,
        })
    };
    let read = read_record(text, RECORD_NAME, request, rules_for);
    let again = read_record(text, RECORD_NAME, request, rules_for);
    assert_eq!(
        format!("{read:?}"),
        format!("{again:?}"),
        "reading the record whole twice"
    );
    // Each notation alone, reading the whole game.
    let alone = |n: Notation| {
        let request = RecordRequest {
            notation: Some(n),
            at_ply: None,
            ..request.clone()
        };
        read_record(text, RECORD_NAME, &request, rules_for).map(|r| r.game)
    };
    let same_game = |a: &Game, b: &Game| {
        to_fen(&a.start) == to_fen(&b.start)
            && a.start.variant().spec.id == b.start.variant().spec.id
            && plies_of(a) == plies_of(b)
    };
    let read = match read {
        Ok(read) => read,
        Err(e) => {
            let shown = e.to_string();
            one_line("record", &shown);
            match e {
                ReadRecordError::Record { name, error } => {
                    assert_eq!(name, RECORD_NAME, "{shown}");
                    check_record_error(&error, text);
                }
                ReadRecordError::Label(_) => {}
                ReadRecordError::FenNotGiven { .. } | ReadRecordError::Fen(_) => {
                    panic!("no start was given, yet: {shown}")
                }
                ReadRecordError::Rules(never) => match never {},
                ReadRecordError::FewerGames {
                    notation,
                    games,
                    other,
                    index,
                    ..
                } => {
                    assert!(request.notation.is_none(), "{shown}");
                    assert_eq!(index, request.game_index, "{shown}");
                    let split = record::games(text, notation).map_or(0, |g| g.len());
                    assert!(split == games && games < index, "{shown}: {split} games");
                    let last = RecordRequest {
                        notation: Some(notation),
                        game_index: games,
                        at_ply: None,
                        ..request.clone()
                    };
                    if let Err(e) = read_record(text, RECORD_NAME, &last, rules_for) {
                        panic!("{shown}, but its last game is refused: {e}");
                    }
                    if let Err(e) = alone(other) {
                        panic!("{shown}, but {} refuses it: {e}", other.name());
                    }
                }
                ReadRecordError::Disagree { first, other, .. } => {
                    assert!(request.notation.is_none(), "{shown}");
                    match (alone(first), alone(other)) {
                        (Ok(a), Ok(b)) => assert!(!same_game(&a, &b), "{shown}, but they agree"),
                        (a, b) => {
                            panic!("{shown}, but one refuses it: {:?} {:?}", a.err(), b.err())
                        }
                    }
                }
            }
            return;
        }
    };
    check_game_replays(&read.game, text);
    if let Some(k) = request.at_ply {
        assert_eq!(read.game.plies.len(), k, "cut at ply {k}");
    }
    let Some(detection) = &read.detection else {
        assert_eq!(request.notation, Some(read.game.notation), "no detection");
        assert_eq!(read.note(RECORD_NAME), None);
        return;
    };
    assert!(
        request.notation.is_none(),
        "a notation given, yet {detection:?}"
    );
    one_line("note", &read.note(RECORD_NAME).expect("a note with auto"));
    let whole: Vec<(Notation, Game)> = Notation::AUTO_ORDER
        .into_iter()
        .filter_map(|n| Some((n, alone(n).ok()?)))
        .collect();
    for (n, game) in &whole {
        let mut cut = game.clone();
        if request.at_ply.is_some() {
            cut.plies.truncate(read.game.plies.len());
        }
        assert!(
            same_game(&cut, &read.game),
            "{} alone reads another game than auto: {game:?} against {:?}",
            n.name(),
            read.game
        );
    }
    let names: Vec<Notation> = whole.iter().map(|(n, _)| *n).collect();
    match detection {
        Detection::First => assert!(
            names.is_empty() || names.contains(&read.game.notation),
            "{} chosen, but {names:?} read the record alone",
            read.game.notation.name()
        ),
        Detection::Agreed { chosen, also } => {
            assert_eq!(*chosen, read.game.notation, "{detection:?}");
            let mut agreed = vec![*chosen];
            agreed.extend(also);
            assert_eq!(agreed, names, "the notations that read the record alone");
        }
    }
}

/// The moves of a game, in our text.
fn plies_of(game: &Game) -> Vec<String> {
    game.plies.iter().map(|p| p.text.clone()).collect()
}

/// Every ply of an accepted game is legal where it is played and gives the position the game
/// says; the last one is the game's end.
fn check_game_replays(game: &Game, text: &str) {
    let lines = record_lines(text);
    let mut pos = game.start;
    for (i, ply) in game.plies.iter().enumerate() {
        let fen = to_fen(&pos);
        assert_eq!(ply.ply, i + 1, "{fen}: plies numbered out of order");
        assert!(
            pos.legal_moves().contains(&ply.mv),
            "{fen}: ply {} `{}` is not a legal move",
            ply.ply,
            ply.written
        );
        assert_eq!(ply.text, move_text(&pos, &ply.mv), "{fen}: ply {}", ply.ply);
        assert_eq!(ply.san, san(&pos, &ply.mv), "{fen}: ply {}", ply.ply);
        let found = parse_move(&pos, &ply.text)
            .unwrap_or_else(|e| panic!("{fen}: {:?} is not found again: {e}", ply.text));
        assert_eq!(found, ply.mv, "{fen}: {:?} names another move", ply.text);
        let (line, column) = ply.at;
        assert!(
            line >= 1 && line <= lines.len() && column >= 1 && column <= lines[line - 1] + 1,
            "ply {} placed at line {line}, column {column}, outside the record",
            ply.ply
        );
        pos = pos.play(ply.mv);
        assert_eq!(
            ply.fen(),
            to_fen(&pos),
            "{fen}: ply {} reaches another position",
            ply.ply
        );
    }
    assert_eq!(to_fen(game.end()), to_fen(&pos), "the game's end");
    check_round_trip(&pos, "the end of a record");
}

/// The lines of an engine's output, split as `EngineProcess` splits them: at LF, the line's
/// trailing CRs and LFs dropped, invalid UTF-8 replaced; a last line without LF is a line.
fn engine_lines(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let mut line = &rest[..end];
        while let [start @ .., b'\n' | b'\r'] = line {
            line = start;
        }
        lines.push(String::from_utf8_lossy(line).into_owned());
        rest = &rest[end..];
    }
    lines
}

/// An engine error is one line, alone and as a whole engine error.
fn check_engine_error(kind: &EngineErrorKind) {
    one_line("engine", &kind.to_string());
    let query = Query::new("8/8/8/8/8/8/8/K6k w - - 0 1", &["a1a2".to_string()], 2);
    one_line(
        "engine",
        &EngineError::new("engine --fast", Some(&query), kind.clone()).to_string(),
    );
}

/// A divide's entries are sorted, distinct, and add up to its total.
fn check_divide(divide: &Divide) {
    assert!(
        divide.entries.windows(2).all(|w| w[0].text < w[1].text),
        "entries not sorted or not distinct: {divide:?}"
    );
    assert_eq!(
        Divide::sum_of(&divide.entries),
        u128::from(divide.total),
        "the total is not the sum: {divide:?}"
    );
}

/// The count a word holds, as an engine wrote it (leading zeros allowed).
fn count_written(word: &str) -> Option<u64> {
    (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
}

/// `engine_output`: reading an engine's answer never panics; errors are one line; an accepted
/// answer's counts are those its lines give (each move's count on the line the divide names,
/// the total the sum), and the divide printed again in the same format reads back the same.
pub fn check_engine_output(data: &[u8]) {
    let lines = engine_lines(data);
    check_perftree_output(&lines);
    let none = HashSet::new();
    let castling: HashSet<String> = ["O-O".to_string(), "O-O-O".to_string()].into();
    for named in [&none, &castling] {
        check_uci_answer(&lines, named);
    }
}

fn check_perftree_output(lines: &[String]) {
    let divide = match perftree::parse_output(lines) {
        Ok(divide) => divide,
        Err(kind) => return check_engine_error(&kind),
    };
    check_divide(&divide);
    assert_eq!(divide.lines.len(), divide.entries.len(), "{divide:?}");
    for entry in &divide.entries {
        let line = divide.lines[&entry.text];
        let words: Vec<&str> = lines[line - 1].split_whitespace().collect();
        assert_eq!(words.len(), 2, "line {line}: {:?}", lines[line - 1]);
        assert_eq!(words[0], entry.text, "line {line}");
        assert_eq!(count_written(words[1]), Some(entry.count), "line {line}");
    }
    let blank = lines
        .iter()
        .position(|l| l.trim().is_empty())
        .expect("a blank line");
    assert_eq!(
        blank,
        divide.entries.len(),
        "every line before the blank one is a move"
    );
    assert_eq!(
        count_written(lines[blank + 1].trim()),
        Some(divide.total),
        "the total line"
    );
    let mut printed: Vec<String> = divide
        .entries
        .iter()
        .map(|e| format!("{} {}", e.text, e.count))
        .collect();
    printed.push(String::new());
    printed.push(divide.total.to_string());
    let again = perftree::parse_output(&printed)
        .unwrap_or_else(|e| panic!("{divide:?} printed again is refused: {e}"));
    assert_eq!(again.entries, divide.entries);
    assert_eq!(again.total, divide.total);
}

fn check_uci_answer(lines: &[String], named: &HashSet<String>) {
    let mut answer = PerftAnswer::new(named);
    let mut read = None;
    for (i, line) in lines.iter().enumerate() {
        match answer.line(line.clone()) {
            Ok(None) => {}
            Ok(Some(divide)) => {
                read = Some((divide, i));
                break;
            }
            Err(kind) => return check_engine_error(&kind),
        }
    }
    let Some((divide, total_at)) = read else {
        return;
    };
    check_divide(&divide);
    assert_eq!(divide.lines.len(), divide.entries.len(), "{divide:?}");
    for entry in &divide.entries {
        let line = divide.lines[&entry.text];
        assert!(line <= total_at, "a count after the total");
        let (head, count) = lines[line - 1]
            .trim()
            .split_once(':')
            .unwrap_or_else(|| panic!("line {line} {:?}: no count", lines[line - 1]));
        assert_eq!(head.trim(), entry.text, "line {line}");
        assert_eq!(
            count_written(count.trim()),
            Some(entry.count),
            "line {line}"
        );
    }
    let total = lines[total_at].trim();
    assert!(total.starts_with("Nodes searched:"), "{total:?}");
    let mut printed: Vec<String> = divide
        .entries
        .iter()
        .map(|e| format!("{}: {}", e.text, e.count))
        .collect();
    printed.push(format!("Nodes searched: {}", divide.total));
    let mut again = PerftAnswer::new(named);
    let mut reread = None;
    for line in printed {
        if let Some(d) = again
            .line(line)
            .unwrap_or_else(|e| panic!("{divide:?} printed again is refused: {e}"))
        {
            reread = Some(d);
        }
    }
    let reread = reread.expect("the total printed again");
    assert_eq!(reread.entries, divide.entries);
    assert_eq!(reread.total, divide.total);
}

/// Where a reply fed line by line ended: the index of the line that ended it and what it gave
/// (`None` when no line ended it), and the lines of chatter it counted.
type ReplyEnd<T> = (Option<(usize, Result<T, EngineErrorKind>)>, usize);

/// Feeds `lines` to a reply's `line` until one ends it.
fn feed<T>(
    lines: &[String],
    mut line: impl FnMut(String) -> Result<Option<T>, EngineErrorKind>,
) -> Option<(usize, Result<T, EngineErrorKind>)> {
    for (i, l) in lines.iter().enumerate() {
        match line(l.clone()) {
            Ok(None) => {}
            Ok(Some(done)) => return Some((i, Ok(done))),
            Err(kind) => return Some((i, Err(kind))),
        }
    }
    None
}

/// `lines` read as a reply to `uci` with at most `cap` lines of chatter.
fn read_uci_reply(lines: &[String], cap: usize) -> ReplyEnd<Handshake> {
    let mut reply = UciReply::new().chatter_cap(cap);
    let end = feed(lines, |l| reply.line(l));
    (end, reply.chatter())
}

/// `lines` read as a reply to `isready` with at most `cap` lines of chatter.
fn read_ready_reply(lines: &[String], cap: usize) -> ReplyEnd<()> {
    let mut reply = ReadyReply::new().chatter_cap(cap);
    let end = feed(lines, |l| reply.line(l).map(|ready| ready.then_some(())));
    (end, reply.chatter())
}

/// The properties every reply has: reading twice gives the same end; an error is one line, a
/// refusal quotes the line that ended the reply and complains about an option, the chatter
/// error comes at the line past the cap; chatter is counted up to the cap, not past it, and
/// a smaller cap ends the reply at the line past it. The reply's value, when it gave one.
fn check_reply<T: PartialEq + std::fmt::Debug>(
    lines: &[String],
    waiting_for: &str,
    read: impl Fn(&[String], usize) -> ReplyEnd<T>,
) -> Option<(usize, T)> {
    let once = read(lines, MAX_CHATTER);
    assert_eq!(read(lines, MAX_CHATTER), once, "reading twice");
    let (end, chatter) = (&once.0, once.1);
    let chatter_error = |cap: usize| EngineErrorKind::Malformed {
        line: format!("<{cap} lines without {waiting_for}>"),
        expected: waiting_for.to_string(),
    };
    // Past a smaller cap, the reply ends at the line of chatter past it; at a cap it meets, the
    // reply is unchanged.
    if chatter <= MAX_CHATTER {
        assert_eq!(read(lines, chatter), once, "cap {chatter}");
    }
    for cap in [0, chatter / 2, chatter.saturating_sub(1)] {
        if cap < chatter {
            let (at, kind) = match read(lines, cap) {
                (Some((at, Err(kind))), counted) if counted == cap + 1 => (at, kind),
                other => panic!("cap {cap} of {chatter} lines of chatter: {other:?}"),
            };
            assert_eq!(kind, chatter_error(cap), "cap {cap}");
            assert!(
                end.as_ref().is_none_or(|(last, _)| at <= *last),
                "cap {cap}"
            );
        }
    }
    let (at, result) = once.0?;
    match result {
        Ok(value) => return Some((at, value)),
        Err(EngineErrorKind::Rejected(text)) => {
            check_engine_error(&EngineErrorKind::Rejected(text.clone()));
            assert_eq!(text, lines[at].trim(), "a refusal quotes its line");
            assert!(
                text.to_ascii_lowercase().contains("option"),
                "refused for {text:?}"
            );
            // The engine's own declarations are not complaints.
            let mut words = text.split_whitespace();
            assert!(
                !matches!(
                    (words.next(), words.next()),
                    (Some("id"), Some("name" | "author")) | (Some("option"), Some("name"))
                ),
                "a declaration read as a refusal: {text:?}"
            );
        }
        Err(kind) => {
            check_engine_error(&kind);
            assert_eq!(kind, chatter_error(MAX_CHATTER));
            assert_eq!(chatter, MAX_CHATTER + 1);
        }
    }
    None
}

/// What a line declares of `UCI_Variant`: `Some(Some(values))` for a combo option (each
/// value the words from one `var` to the next `var` or `default`, joined by one blank; none
/// without words),
/// `Some(None)` for a string option (any name), `None` for any other line.
fn declared_variants(line: &str) -> Option<Option<Vec<String>>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["option", "name", "UCI_Variant", "type", "string", ..] => Some(None),
        ["option", "name", "UCI_Variant", "type", "combo", rest @ ..] => {
            let mut values: Vec<String> = Vec::new();
            let mut current: Option<Vec<&str>> = None;
            for w in rest {
                if *w == "var" || *w == "default" {
                    if let Some(words) = current.take().filter(|v| !v.is_empty()) {
                        values.push(words.join(" "));
                    }
                    if *w == "var" {
                        current = Some(Vec::new());
                    }
                } else if let Some(words) = current.as_mut() {
                    words.push(w);
                }
            }
            if let Some(words) = current.filter(|v| !v.is_empty()) {
                values.push(words.join(" "));
            }
            Some(Some(values))
        }
        _ => None,
    }
}

/// `uci_handshake`: reading an engine's reply to `uci` and to `isready` never panics or hangs;
/// each reading twice gives the same; errors are one line; chatter is refused past the cap,
/// at the line past it; a reply to `uci` ends at the first line that is `uciok` alone and
/// reports the variants of the last `UCI_Variant` declaration before it, every other line
/// before it being chatter; the variant asked is selected when declared (and `chess` needs no
/// selecting on an engine without `UCI_Variant`), refused on one line naming it and the
/// values declared otherwise; a reply to `isready` ends at the first line `readyok`.
pub fn check_uci_handshake(data: &[u8]) {
    let lines = engine_lines(data);
    let uciok = |l: &String| l.split_whitespace().eq(["uciok"]);
    match check_reply(&lines, "uciok", read_uci_reply) {
        Some((at, info)) => {
            assert!(uciok(&lines[at]), "ended at {:?}", lines[at]);
            let before = &lines[..at];
            assert!(!before.iter().any(uciok), "an earlier uciok");
            let declared = before.iter().rev().find_map(|l| declared_variants(l));
            assert_eq!(
                info.variants,
                declared.clone().flatten(),
                "the variants reported"
            );
            assert_eq!(info.any_variant, declared == Some(None), "a string option");
            let chatter = before.iter().filter(|l| declared_variants(l).is_none());
            assert_eq!(read_uci_reply(&lines, MAX_CHATTER).1, chatter.count());
            check_variant_selection(&info);
            check_ready_reply(&lines[at + 1..]);
        }
        // Not ended (an error ends it too): no line is `uciok`.
        None if read_uci_reply(&lines, MAX_CHATTER).0.is_none() => {
            assert!(!lines.iter().any(uciok), "uciok not read");
        }
        None => {}
    }
    check_ready_reply(&lines);
}

fn check_ready_reply(lines: &[String]) {
    let readyok = |l: &String| l.trim() == "readyok";
    if let Some((at, ())) = check_reply(lines, "readyok", read_ready_reply) {
        assert!(readyok(&lines[at]), "ended at {:?}", lines[at]);
        assert!(!lines[..at].iter().any(readyok), "an earlier readyok");
        assert_eq!(
            read_ready_reply(lines, MAX_CHATTER).1,
            at,
            "chatter before readyok"
        );
    } else if read_ready_reply(lines, MAX_CHATTER).0.is_none() {
        assert!(!lines.iter().any(readyok), "readyok not read");
    }
}

/// A variant is selected when the engine declares it; `chess` needs no selecting on an engine
/// without `UCI_Variant`; any other is refused on one line that names it and what the engine
/// declared.
fn check_variant_selection(info: &Handshake) {
    let declared = info.variants.clone().unwrap_or_default();
    let asked = ["chess", "crazyhouse", "not-a-variant"]
        .into_iter()
        .map(String::from)
        .chain(declared.iter().take(4).cloned());
    for variant in asked {
        let known = declared.contains(&variant);
        assert_eq!(info.knows(&variant), known, "{variant:?}");
        match info.selects(&variant) {
            Ok(select) => {
                assert_eq!(select, known || info.any_variant, "{variant:?}");
                assert!(
                    known || info.any_variant || (info.variants.is_none() && variant == "chess")
                );
            }
            Err(kind) => {
                assert!(!known, "{variant:?} is declared but refused: {kind}");
                check_engine_error(&kind);
                let EngineErrorKind::Rejected(why) = &kind else {
                    panic!("{kind:?}");
                };
                assert!(why.contains(&format!("`{variant}`")), "{why}");
                assert!(declared.iter().all(|v| why.contains(v.as_str())), "{why}");
            }
        }
    }
}
