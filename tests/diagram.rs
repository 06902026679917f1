//! Board diagrams and the reports built on them, through the real binary: `fen --format svg`
//! for a position of every game compared with its FEN square by square, byte-identical output,
//! `check --format html` with a planted engine fault (one board per failing case, identical
//! apart from the timing line), and `diff` in its text, patch and HTML forms.
//!
//! The browser's view of the same pages is checked in `tests/browser.rs`.

mod support;

use std::collections::BTreeMap;
use support::{
    board_size, cvperft, deepcrash_diff, ep_diff, faulty_check, is_light, read_fen, temp_dir,
};

/// Checks one `<svg class="board">` against its FEN: every square drawn once, the piece on it
/// (or none) as the FEN says, the hands and the side to move.
fn check_board(svg: &str, files: u8, ranks: u8) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.attribute("class"), Some("board"));
    let fen = root.attribute("data-fen").expect("data-fen");
    assert_eq!(
        root.attribute("data-files"),
        Some(files.to_string().as_str())
    );
    assert_eq!(
        root.attribute("data-ranks"),
        Some(ranks.to_string().as_str())
    );
    let expected = read_fen(fen, files, ranks);
    let mut squares = 0;
    let mut pieces: BTreeMap<String, String> = BTreeMap::new();
    let mut hands = [String::new(), String::new()];
    for node in doc.descendants().filter(|n| n.is_element()) {
        if node.tag_name().name() == "rect" && node.has_attribute("data-square") {
            squares += 1;
            let name = node.attribute("data-square").expect("square");
            let shade = if is_light(name) { "light" } else { "dark" };
            assert_eq!(node.attribute("data-shade"), Some(shade), "{name}");
        }
        if node.tag_name().name() == "g"
            && let Some(piece) = node.attribute("data-piece")
        {
            match node.attribute("data-square") {
                Some(sq) => {
                    let before = pieces.insert(sq.to_string(), piece.to_string());
                    assert!(before.is_none(), "two pieces on {sq}");
                }
                None => {
                    let colour = node
                        .ancestors()
                        .find_map(|a| a.attribute("data-hand"))
                        .expect("a hand piece sits in a hand");
                    let count: usize = node
                        .attribute("data-count")
                        .expect("count")
                        .parse()
                        .expect("number");
                    let letter = piece.chars().last().expect("letter");
                    let i = usize::from(colour == "black");
                    hands[i].extend(std::iter::repeat_n(letter, count));
                }
            }
        }
    }
    assert_eq!(squares, usize::from(files) * usize::from(ranks), "{fen}");
    assert_eq!(pieces, expected.squares, "{fen}");
    for h in &mut hands {
        let mut letters: Vec<char> = h.chars().collect();
        letters.sort_unstable();
        *h = letters.into_iter().collect();
    }
    assert_eq!(hands, expected.hands, "{fen}");
    assert_eq!(root.attribute("data-side"), Some(expected.side), "{fen}");
}

/// Positions of every game: starts, a carrier of each side, the unclaimed jewel off its start
/// square, hands of both kinds, Changelings and Dominators, Gnus, Elephants.
const POSITIONS: &[(&str, u8, u8, &str)] = &[
    (
        "chess",
        8,
        8,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "silver-elephant",
        10,
        8,
        "rnebqkbenr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNEBQKBENR w KQkq - 0 1",
    ),
    (
        "silver-elephant",
        10,
        8,
        "r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1",
    ),
    (
        "bachelor-kamil",
        9,
        8,
        "4k4/1P5r1/2q6/9/9/6W2/p8/4K3R w K - 0 1",
    ),
    (
        "cerimon",
        8,
        8,
        "rbbtkbbr/R1ssssnn/8/2n5/1N6/8/1NSSSSNN/1BBTKBBR[n] b - - 0 2",
    ),
    ("cerimon", 8, 8, "4k3/s7/8/8/8/2N5/8/4K3[NRs] w - - 0 1"),
    (
        "plutonian",
        8,
        8,
        "rcckqnnr/pppppppp/8/8/3C4/8/PPPPPPPP/RNNQK1CR w KQkq - 0 1",
    ),
    ("plutonian", 8, 8, "4k3/8/8/3D4/8/8/8/4K2C b - - 0 1"),
    (
        "pink-panther",
        7,
        7,
        "rnngbbr/pppippp/7/3*3/7/PPPIPPP/RNNGBBR w - - 0 1",
    ),
    ("pink-panther", 7, 7, "4g2/6p/7/2N4/7/4G2/+R6 w - - 0 1"),
    ("pink-panther", 7, 7, "3+g3/6p/7/2N4/7/4G2/R6 b - - 0 1"),
];

#[test]
fn diagrams_of_every_game_match_their_fen_square_by_square() {
    for &(variant, files, ranks, fen) in POSITIONS {
        let run = cvperft(&["fen", "-v", variant, "--format", "svg", fen]);
        assert_eq!(run.code, 0, "{variant} {fen}: {}", run.stderr);
        check_board(run.stdout.trim(), files, ranks);
        // The same position gives the same bytes.
        let again = cvperft(&["fen", "-v", variant, "--format", "svg", fen]);
        assert_eq!(run.stdout, again.stdout, "{variant} {fen}");
    }
}

#[test]
fn a_diagram_has_a_legend_naming_every_kind_shown() {
    let run = cvperft(&[
        "fen",
        "-v",
        "pink-panther",
        "--format",
        "svg",
        "4g2/6p/7/2N4/7/4G2/+R6 w - - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for words in [
        "G General",
        "+R Chatelaine",
        "N Knight",
        "P Pawn",
        "carries the jewel",
    ] {
        assert!(run.stdout.contains(words), "{words}: {}", run.stdout);
    }
    let run = cvperft(&["fen", "-v", "plutonian", "--format", "svg"]);
    assert!(run.stdout.contains("C Changeling"));
    let bad = cvperft(&["fen", "-v", "chess", "--format", "png"]);
    assert_eq!(bad.code, 2);
    let bad = cvperft(&["fen", "-v", "chess", "--format", "svg", "8/8/8 w - - 0 1"]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
}

/// The SVG boards in an HTML page, with their role.
fn boards(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg ") {
        let end = rest[i..].find("</svg>").expect("closed svg") + i + "</svg>".len();
        let svg = &rest[i..end];
        let role = svg
            .split("data-role=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        out.push((role, svg.to_string()));
        rest = &rest[end..];
    }
    out
}

#[test]
fn check_html_draws_one_board_per_failing_case() {
    let dir = temp_dir("diagram-check");
    let (html, failing) = faulty_check(&dir.join("report.html"));
    assert!(failing.len() >= 5, "{failing:?}");
    let boards = boards(&html);
    let cases: Vec<&(String, String)> = boards.iter().filter(|(role, _)| role == "case").collect();
    assert_eq!(cases.len(), failing.len());
    for (_, svg) in &cases {
        let variant = svg
            .split("data-variant=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("variant");
        let (files, ranks) = board_size(variant);
        check_board(svg, files, ranks);
    }
    for case in &failing {
        assert!(
            html.contains(&format!("data-case=\"{case}\"")),
            "{case} has no section"
        );
    }
    // Knight promotions are what the engine lacks: drawn as missing moves.
    assert!(html.contains("data-mark=\"missing\""));
    // Rulings cited, with their page as text.
    assert!(html.contains("docs/rules/chess.md") || html.contains("docs/rules/README.md"));
    assert!(html.contains("FIDE-PROMOTION"));
    // Self-contained: no link, no source, nothing fetched; links only within the page (a
    // failing check to its finding).
    for forbidden in ["<link", " src=", "url(", "@import"] {
        assert!(!html.contains(forbidden), "{forbidden}");
    }
    assert_eq!(
        html.matches("href=").count(),
        html.matches("href=\"#").count(),
        "a link out of the page"
    );
    assert!(html.contains("Content-Security-Policy"));
    // Two runs differ only in the timing line.
    let (again, _) = faulty_check(&dir.join("again.html"));
    let strip = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.contains("class=\"timing"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&html), strip(&again));
    assert_eq!(
        html.lines().count(),
        strip(&html).lines().count() + 1,
        "exactly one timing line"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run failing thousands of cases writes a page of a few megabytes: the first
/// `MAX_CASE_BOARDS` (100) failing cases are drawn, the others keep their section with their
/// FEN. Every failing case drew its board (about 20 kB), and 3,000 of them made 68 MB.
#[test]
fn check_html_draws_a_bounded_number_of_boards() {
    let dir = temp_dir("diagram-many-failures");
    let mut suite =
        String::from("variant: chess\ndescription: many failures\ngame-end: rules\ncases:\n");
    for i in 0..1000 {
        suite.push_str(&format!(
            "  - id: wrong-{i}\n    perft: {{1: {}}}\n    source: {{kind: hand, derivation: planted}}\n",
            21 + i
        ));
    }
    let path = dir.join("many.yaml");
    std::fs::write(&path, suite).expect("suite written");
    let report = dir.join("report.html");
    let run = cvperft(&[
        "check",
        path.to_str().expect("path"),
        "--format",
        "html",
        "--output",
        report.to_str().expect("path"),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let html = std::fs::read_to_string(&report).expect("report");
    let boards = boards(&html);
    assert_eq!(boards.len(), 100);
    assert_eq!(html.matches("<article class=\"case failed\"").count(), 1000);
    assert_eq!(html.matches("board-not-drawn").count(), 900);
    assert!(html.contains("the other 900 show their FEN"), "no notice");
    // Each drawn and each undrawn case in its own section, the last one too.
    assert!(html.contains("data-case=\"chess::many::wrong-999\""));
    assert!(
        html.len() < 5_000_000,
        "{} bytes for 1000 failing cases",
        html.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_prints_a_table_and_a_diagram_of_the_first_difference() {
    let run = ep_diff(&[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    // The root comparison as an aligned table, not as a line dump.
    assert!(
        out.contains("  move   reference  engine  difference\n"),
        "{out}"
    );
    assert!(
        out.contains("  a5a4         224     223          -1\n"),
        "{out}"
    );
    assert!(
        out.contains("  total       2812    2810          -2\n"),
        "{out}"
    );
    assert!(!out.contains("--- reference"), "{out}");
    // The position found, drawn with the missing move's squares bracketed.
    assert!(out.contains(" 6 │ ·  · (·) p  ·  ·  ·  · │\n"), "{out}");
    assert!(out.contains(" 5 │ · (P) p  ·  ·  ·  ·  r │\n"), "{out}");
    assert!(out.contains("lacks: b5c6"), "{out}");
    let ascii = ep_diff(&["--ascii"]);
    assert!(
        ascii.stdout.contains(" 5 | . (P) p  .  .  .  .  r |\n"),
        "{}",
        ascii.stdout
    );
    assert!(ascii.stdout.is_ascii(), "{}", ascii.stdout);
    // The old dump stays available.
    let patch = ep_diff(&["--format", "patch"]);
    assert_eq!(patch.code, 1);
    assert!(
        patch
            .stdout
            .contains("--- reference\n+++ engine\n-a5a4 224\n"),
        "{}",
        patch.stdout
    );
    assert!(!patch.stdout.contains('│'));
}

#[test]
fn diff_html_draws_the_finding_with_its_arrows_and_path() {
    let run = ep_diff(&["--format", "html"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let html = &run.stdout;
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    let boards = boards(html);
    let finding: Vec<&(String, String)> = boards
        .iter()
        .filter(|(role, _)| role == "finding")
        .collect();
    assert_eq!(finding.len(), 1);
    let svg = &finding[0].1;
    check_board(svg, 8, 8);
    assert!(svg.contains(r#"data-mark="missing" data-move="b5c6" data-from="b5" data-to="c6""#));
    assert!(svg.contains(r#"data-mark="path" data-move="a5a4""#));
    assert!(svg.contains(r#"data-mark="path" data-move="c7c5""#));
    assert!(svg.contains(r#"data-highlight="c5""#));
    assert!(boards.iter().any(|(role, _)| role == "root"));
    assert!(html.contains("cvperft diff 1 -v chess"));
    assert!(html.contains("class=\"copy\""));
    assert_eq!(run.stdout, ep_diff(&["--format", "html"]).stdout);
}

/// A self-contained page: nothing linked or fetched, and the content security policy.
fn check_self_contained(html: &str) {
    for forbidden in ["<link", " src=", "href=", "url(", "@import"] {
        assert!(!html.contains(forbidden), "{forbidden}");
    }
    assert!(html.contains("Content-Security-Policy"));
}

/// The engine answers the root question (without en passant) and crashes when the descent asks
/// after a5a4: the page is still written, with the root comparison, its board, the descent so
/// far and the failure, and the run fails with the crash (exit 2, one line on stderr). It used to
/// write no page at all.
#[test]
fn diff_html_keeps_what_was_found_when_the_engine_fails_during_the_descent() {
    let run = deepcrash_diff(&["--format", "html"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("killed by signal 11"), "{}", run.stderr);
    let html = &run.stdout;
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.trim_end().ends_with("</html>"), "{html}");
    check_self_contained(html);
    for shown in [
        "The sides differ; the descent stopped when a side failed.",
        "At the root: 0 missing, 0 extra, 2 counts differ, 12 agree; totals 2812 (reference) vs \
         2810 (engine).",
        "<h2>Where the descent stopped</h2>",
        "The descent stopped before reaching a position where the moves differ: the engine \
         failed: engine ",
        "crashed mid-output after 2 lines (killed by signal 11); stderr: segmentation fault in \
         generate_moves (asked depth 2, fen &quot;",
        "<h3>The root, depth 3</h3>",
        "Descends into <code>a5a4</code>.",
        "The question that failed, to ask again:",
        "--moves a5a4 --engine",
    ] {
        assert!(html.contains(shown), "{shown:?} in\n{html}");
    }
    // No finding is claimed: only the root board, with the move descended into.
    assert!(!html.contains("First difference"), "{html}");
    let boards = boards(html);
    assert_eq!(boards.len(), 1, "{boards:?}");
    assert_eq!(boards[0].0, "root");
    check_board(&boards[0].1, 8, 8);
    assert!(boards[0].1.contains(r#"data-mark="path" data-move="a5a4""#));
    // The failure's text comes from the engine: escaped like the rest of the page.
    let dir = temp_dir("diagram-deepcrash");
    let script = dir.join("engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ -n \"$3\" ]; then echo '<script>alert(1)</script>' >&2; exit 3; fi\n\
             exec {} perftree --inject no-en-passant \"$@\"\n",
            support::CVPERFT
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("executable");
    let engine = script.display().to_string();
    let run = support::ep_diff_against(&engine, &["--format", "html"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("<script>alert(1)</script>"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("<script>alert"), "{}", run.stdout);
    check_self_contained(&run.stdout);
    // A failure of the root question itself has nothing to show: no page.
    let crash = format!(
        "{}/fixtures/engines/perftree-faulty crash",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = cvperft(&[
        "diff",
        "2",
        "--engine",
        &crash,
        "--protocol",
        "perftree",
        "--format",
        "html",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_html_of_agreeing_engines_shows_the_position() {
    let engine = format!("{} perftree", support::CVPERFT);
    let run = cvperft(&[
        "diff",
        "2",
        "-v",
        "chess",
        "--fen",
        support::EP_FEN,
        "--engine",
        &engine,
        "--protocol",
        "perftree",
        "--format",
        "html",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("The two sides agree."));
    let boards = boards(&run.stdout);
    assert_eq!(boards.len(), 1);
    assert_eq!(boards[0].0, "root");
    check_board(&boards[0].1, 8, 8);
    assert!(!run.stdout.contains("First difference"));
}

/// The board size the drawing tests expect comes from `cvperft variants` for every registered
/// variant (a list in `tests/support` said 8x8 for any variant it did not name, so a new
/// 10x8 variant's boards failed with "left: 10, right: 8").
#[test]
fn board_sizes_are_known_for_every_variant() {
    for v in cvperft::variants::all() {
        assert_eq!(
            board_size(v.spec.id),
            (v.spec.files, v.spec.ranks),
            "{}",
            v.spec.id
        );
    }
}
