//! The attacks of issue 19, kept: the built binary run as careful users' scripts and CI run it,
//! against files, engines and signals that misbehave. Each test states what must hold (nothing
//! lost, nothing hung, no panic, one clear line and exit 2 for every refusal); see
//! docs/reliability.md for the guarantees.
//!
//! Everything happens in scratch directories under `CARGO_TARGET_TMPDIR`; the engines are small
//! shell scripts written there. A run that does not end within its watchdog is killed and fails
//! the test (a hang detector, not a speed measurement).

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_cvperft")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("reliability-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    c
}

/// Waits for `child` at most `limit`, reading its output meanwhile (a full pipe would stop
/// it); kills it and fails the test if it takes longer.
fn finish(mut child: Child, limit: Duration, what: &str) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        match child.try_wait().expect("wait") {
            Some(status) => break status,
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{what}: still running after {limit:?}");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    Output {
        status,
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
    }
}

/// Runs `cvperft args`, failing the test if it runs longer than `limit`.
fn run_within(args: &[&str], limit: Duration) -> Output {
    let child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cvperft starts");
    finish(child, limit, &format!("{args:?}"))
}

fn run(args: &[&str]) -> Output {
    run_within(args, Duration::from_secs(60))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit 2 and exactly one stderr line, `cvperft: ...`, containing `fragment`.
fn assert_refused(o: &Output, fragment: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("cvperft: "), "{err}");
    assert!(err.contains(fragment), "expected {fragment:?} in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

const SUITE: &str = "variant: chess\ndescription: add-case target\ngame-end: rules\ncases:\n  - id: start\n    rules: [GE-1]\n    perft: {1: 20}\n    source: {kind: public, citation: \"chessprogramming wiki, Perft Results\"}\n";

/// A small suite in `dir`.
fn suite(dir: &Path) -> PathBuf {
    let path = dir.join("suite.yaml");
    std::fs::write(&path, SUITE).expect("suite");
    path
}

/// `add-case --suite SUITE --moves MOVES --depth 1`, then `extra`.
fn add_case_args<'a>(suite: &'a Path, moves: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "add-case",
        "--suite",
        suite.to_str().expect("utf-8"),
        "--moves",
        moves,
        "--depth",
        "1",
    ];
    args.extend_from_slice(extra);
    args
}

fn add_case(suite: &Path, moves: &str, id: &str, extra: &[&str]) -> Command {
    let mut c = command(&add_case_args(
        suite,
        moves,
        &[&["--id", id], extra].concat(),
    ));
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn ids(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("suite")
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- id: ").map(str::to_string))
        .collect()
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .expect("link")
        .file_type()
        .is_symlink()
}

fn is_char_device(path: &Path) -> bool {
    std::fs::metadata(path)
        .expect("device")
        .file_type()
        .is_char_device()
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

// ----- data loss -----

#[test]
fn concurrent_add_case_runs_serialise_and_lose_nothing() {
    let dir = scratch("concurrent");
    let path = suite(&dir);
    let moves = [
        "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3",
        "f2f4",
    ];
    let children: Vec<Child> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            add_case(&path, m, &format!("c{i}"), &[])
                .spawn()
                .expect("add-case starts")
        })
        .collect();
    for child in children {
        let o = finish(child, Duration::from_secs(60), "add-case");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let found = ids(&path);
    assert_eq!(found.len(), moves.len() + 1, "{found:?}");
    for i in 0..moves.len() {
        assert!(found.contains(&format!("c{i}")), "c{i} lost: {found:?}");
    }
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let check = run(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

#[test]
fn concurrent_add_case_create_runs_on_one_new_suite_lose_nothing() {
    let moves = [
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3",
    ];
    // Runs that found the suite missing and then found it created by another run.
    let mut meanwhile = 0;
    for round in 0..3 {
        let dir = scratch(&format!("create-race-{round}"));
        let path = dir.join("new.yaml");
        let children: Vec<Child> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                add_case(&path, m, &format!("c{i}"), &["--create", "-v", "chess"])
                    .spawn()
                    .expect("add-case starts")
            })
            .collect();
        let outputs: Vec<Output> = children
            .into_iter()
            .map(|child| finish(child, Duration::from_secs(60), "add-case --create"))
            .collect();
        for o in &outputs {
            assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        }
        // One run created the suite; every other added its case to it.
        meanwhile += outputs
            .iter()
            .filter(|o| stdout(o).contains("(created meanwhile by another program)"))
            .count();
        let created = outputs
            .iter()
            .filter(|o| stdout(o).starts_with(&format!("created {} with case", path.display())))
            .count();
        assert_eq!(created, 1, "round {round}");
        let mut found = ids(&path);
        found.sort();
        let expected: Vec<String> = (0..moves.len()).map(|i| format!("c{i}")).collect();
        assert_eq!(found, expected, "round {round}");
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
        let check = run(&["check", path.to_str().expect("utf-8")]);
        assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    }
    // The race was run, not only runs one after another.
    assert!(meanwhile > 0, "no run found the suite created meanwhile");
}

/// Runs `add-case --create -v chess` on `path` with its game read from a FIFO, and writes
/// `existing` (as another program would) at `path` once the run has found it missing and is
/// reading the game, then sends the game: the run finds the file there when it creates it.
fn create_while_another_program_creates(dir: &Path, path: &Path, existing: &str) -> Output {
    create_while_another_program_plants(dir, path, |p| {
        std::fs::write(p, existing).expect("another program's suite")
    })
}

/// `add-case --create` on `path`, with `plant` making something at `path` while the run reads
/// its game.
fn create_while_another_program_plants(
    dir: &Path,
    path: &Path,
    plant: impl FnOnce(&Path),
) -> Output {
    use std::io::Write;
    let fifo = dir.join("game.fifo");
    mkfifo(&fifo);
    let child = command(&[
        "add-case",
        "--suite",
        path.to_str().expect("utf-8"),
        "--create",
        "-v",
        "chess",
        "--game",
        fifo.to_str().expect("utf-8"),
        "--depth",
        "1",
        "--id",
        "mine",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("add-case starts");
    // Opening the FIFO waits for the run to open it, which it does after looking for the suite.
    let mut game = std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .expect("the run reads the game");
    plant(path);
    game.write_all(b"1. d2-d4 *\n").expect("game");
    drop(game);
    let o = finish(child, Duration::from_secs(60), "add-case --create");
    std::fs::remove_file(&fifo).expect("fifo");
    o
}

#[test]
fn a_suite_created_meanwhile_by_another_program_gets_the_case_or_is_left_as_it_is() {
    let dir = scratch("created-meanwhile");
    // A suite of the same variant and settings: the case is added to it.
    let path = dir.join("same.yaml");
    let o = create_while_another_program_creates(&dir, &path, SUITE);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "added case `mine` to {} (created meanwhile by another program): perft 1: 20\n",
            path.display()
        )
    );
    let text = std::fs::read_to_string(&path).expect("suite");
    assert!(text.starts_with(SUITE), "{text}");
    assert_eq!(ids(&path), ["start", "mine"]);
    // A suite of another variant: refused, and left as it was.
    let other = SUITE.replace("variant: chess", "variant: silver-elephant");
    let other = other.replace("{1: 20}", "{1: 30}");
    let path = dir.join("other.yaml");
    let o = create_while_another_program_creates(&dir, &path, &other);
    assert_refused(
        &o,
        "its variant, game-end or options changed (or it was created, with others) while the \
         case was computed; run again",
    );
    assert_eq!(std::fs::read_to_string(&path).expect("suite"), other);
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    // A link planted in the race, to a suite it would fit: refused, its target untouched (the
    // case was appended to the target).
    let target = dir.join("target.yaml");
    std::fs::write(&target, SUITE).expect("target");
    let path = dir.join("planted.yaml");
    let o = create_while_another_program_plants(&dir, &path, |p| {
        std::os::unix::fs::symlink(&target, p).expect("link")
    });
    assert_refused(
        &o,
        "created meanwhile by another program, but not as a file (a link?); nothing was written",
    );
    assert_eq!(std::fs::read_to_string(&target).expect("target"), SUITE);
}

#[test]
fn add_case_create_makes_nothing_through_a_dangling_link_nor_a_directory() {
    let dir = scratch("create-refusals");
    let create = |path: &Path| {
        add_case(path, "e2e4", "new", &["--create", "-v", "chess"])
            .output()
            .expect("runs")
    };
    // A dangling link: refused, not followed (its target is not created).
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink("target.yaml", &link).expect("link");
    let o = create(&link);
    assert_refused(
        &o,
        &format!(
            "{}: is a symbolic link to target.yaml, which does not exist; cvperft does not create \
             a file through a link",
            link.display()
        ),
    );
    assert!(is_symlink(&link) && !dir.join("target.yaml").exists());
    // A directory that does not exist is not made.
    let nested = dir.join("no-such-dir").join("s.yaml");
    let o = create(&nested);
    assert_refused(
        &o,
        &format!(
            "{}: its directory {} does not exist; cvperft creates no directories",
            nested.display(),
            dir.join("no-such-dir").display()
        ),
    );
    assert!(!dir.join("no-such-dir").exists());
    // A directory named as the suite is no suite to create, nor to add to.
    let sub = dir.join("sub.yaml");
    std::fs::create_dir(&sub).expect("dir");
    let o = create(&sub);
    assert_refused(&o, &format!("{}: is not a regular file", sub.display()));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.yaml", "sub.yaml"]);
}

#[test]
fn a_held_lock_is_waited_for_then_refused_naming_it() {
    let dir = scratch("lock");
    let path = suite(&dir);
    let lock = std::fs::File::create(dir.join(".suite.yaml.lock")).expect("lock file");
    // SAFETY: flock on a descriptor this test owns; released when `lock` is dropped.
    assert_eq!(
        unsafe { libc::flock(std::os::unix::io::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) },
        0
    );
    let o = finish(
        add_case(&path, "e2e4", "blocked", &["--lock-timeout", "0.3"])
            .spawn()
            .expect("starts"),
        Duration::from_secs(30),
        "add-case",
    );
    assert_refused(&o, ".suite.yaml.lock: another process holds the lock on");
    assert_eq!(std::fs::read_to_string(&path).expect("suite"), SUITE);
    drop(lock);
    let o = add_case(&path, "e2e4", "after", &[])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn planted_links_at_the_lock_are_refused_and_their_targets_untouched() {
    let dir = scratch("planted");
    let path = suite(&dir);
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim");
    std::os::unix::fs::symlink(&victim, dir.join(".suite.yaml.lock")).expect("link");
    let o = add_case(&path, "e2e4", "x", &[]).output().expect("runs");
    assert_refused(&o, "the lock file is a symbolic link");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("suite"), SUITE);
}

#[test]
fn links_are_followed_and_kept_hard_links_and_read_only_suites_refused() {
    let dir = scratch("links");
    let real = suite(&dir);
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink("suite.yaml", &link).expect("link");
    let o = add_case(&link, "e2e4", "through-link", &[])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let meta = std::fs::symlink_metadata(&link).expect("link");
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert!(ids(&real).contains(&"through-link".to_string()));
    assert_eq!(
        std::fs::metadata(&real).expect("real").mode() & 0o7777,
        0o640
    );

    let hard = dir.join("hard.yaml");
    std::fs::hard_link(&real, &hard).expect("hard link");
    let before = std::fs::read(&real).expect("suite");
    let o = add_case(&hard, "d2d4", "split", &[])
        .output()
        .expect("runs");
    assert_refused(&o, "has 2 hard links");
    std::fs::remove_file(&hard).expect("unlink");

    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let o = add_case(&link, "d2d4", "read-only", &[])
        .output()
        .expect("runs");
    assert_refused(&o, "is read-only (mode 0444)");
    assert_eq!(std::fs::read(&real).expect("suite"), before);
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn a_suite_whose_owner_cannot_be_kept_is_refused() {
    // Only root can run the binary as another user here; elsewhere there is nothing to try.
    // SAFETY: geteuid has no preconditions.
    let root_user = unsafe { libc::geteuid() } == 0;
    if !root_user || !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipped: needs root and setpriv to run cvperft as another user");
        return;
    }
    let dir = scratch("owner");
    let path = suite(&dir);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let o = Command::new("/usr/bin/setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", bin()])
        .args(["add-case", "--suite", path.to_str().expect("utf-8")])
        .args(["--moves", "e2e4", "--depth", "1", "--id", "other-user"])
        .output()
        .expect("setpriv runs");
    assert_refused(&o, "belongs to user 0; its replacement would belong to you");
    assert_eq!(std::fs::read_to_string(&path).expect("suite"), SUITE);
    assert_eq!(std::fs::metadata(&path).expect("suite").uid(), 0);
}

#[test]
fn output_never_overwrites_an_input_and_writes_devices_and_fifos_directly() {
    let dir = scratch("output");
    let input = suite(&dir);
    let input_text = input.to_str().expect("utf-8");
    let link = dir.join("report-link");
    std::os::unix::fs::symlink(&input, &link).expect("link");
    for target in [input.clone(), link.clone()] {
        let o = run(&[
            "check",
            input_text,
            "--output",
            target.to_str().expect("utf-8"),
        ]);
        assert_refused(&o, "is an input of this run");
    }
    assert_eq!(std::fs::read_to_string(&input).expect("suite"), SUITE);
    let o = run(&[
        "check",
        input_text,
        "--output",
        dir.to_str().expect("utf-8"),
    ]);
    assert_refused(&o, "is a directory");

    // A device is written to, never replaced.
    let o = run(&["check", input_text, "--output", "/dev/null"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(is_char_device(Path::new("/dev/null")));
    let o = run(&["check", input_text, "--output", "/dev/full"]);
    assert_refused(&o, "--output /dev/full: No space left on device");

    // A FIFO is written to (its reader gets the report), never replaced.
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().expect("utf-8")).expect("path");
    // SAFETY: mkfifo reads the NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path)
            .expect("open fifo")
            .read_to_string(&mut text)
            .expect("read fifo");
        text
    });
    let o = run(&[
        "check",
        input_text,
        "--output",
        fifo.to_str().expect("utf-8"),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(reader.join().expect("reader").contains("\"cvperft-check\""));
    assert!(
        std::fs::metadata(&fifo)
            .expect("fifo")
            .file_type()
            .is_fifo()
    );

    // A symbolic link to a report is followed: the report is replaced, the link kept.
    let report_link = dir.join("latest.xml");
    std::os::unix::fs::symlink("report.xml", &report_link).expect("link");
    let o = run(&[
        "check",
        input_text,
        "--output",
        report_link.to_str().expect("utf-8"),
        "--format",
        "junit",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(is_symlink(&report_link));
    assert!(
        std::fs::read_to_string(dir.join("report.xml"))
            .expect("report")
            .contains("<testsuites")
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

// ----- bounded input -----

#[test]
fn endless_and_nested_input_is_refused_at_once() {
    let o = run_within(&["check", "/dev/zero"], Duration::from_secs(20));
    assert_refused(&o, "/dev/zero: more than 8388608 bytes");
    let dir = scratch("nested");
    // 200 kB of nested flow collections: the YAML parser alone took 24 s over this.
    let deep = dir.join("deep.yaml");
    let nest = "[{a: ".repeat(20_000);
    std::fs::write(
        &deep,
        format!(
            "{}  - id: a\n    legal: {nest}\n",
            &SUITE[..SUITE.find("  - id").expect("cases")]
        ),
    )
    .expect("write");
    let o = run_within(
        &["check", deep.to_str().expect("utf-8")],
        Duration::from_secs(20),
    );
    assert_refused(&o, "nested more than 64 levels deep");
    assert!(stderr(&o).contains("deep.yaml:6:"), "{}", stderr(&o));
    let bom = dir.join("bom.yaml");
    std::fs::write(&bom, format!("\u{feff}{SUITE}")).expect("write");
    let o = run(&["check", bom.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["merge", "/dev/zero"]);
    assert_refused(&o, "cannot read /dev/zero: more than");
    let o = run(&[
        "add-case",
        "--suite",
        "suites/chess.yaml",
        "--game",
        "/dev/zero",
        "--depth",
        "1",
        "--dry-run",
    ]);
    assert_refused(&o, "game /dev/zero: more than");
}

#[test]
fn a_refused_suite_with_aliases_is_refused_at_once_however_deep_or_wide() {
    // A refused text is read again to find the alias an error came through. That reading built
    // the path of every node: a key of 2 MB over a million items copied it a million times (the
    // run never ended), and two million nested sequences held paths of terabytes.
    let dir = scratch("aliases-wide");
    let head = &SUITE[..SUITE.find("  - id").expect("cases")];
    let key = "k".repeat(2_000_000);
    let items = "1, ".repeat(1_000_000);
    let nested = "- ".repeat(2_000_000);
    for (name, case, fragment) in [
        (
            "wide.yaml",
            format!("    ? {key}\n    : [*n, {items}1]\n"),
            "wide.yaml:7:7: case `a`: cases[0]: unknown field `kkkk",
        ),
        (
            "deep.yaml",
            format!("    legal:\n      {nested}*n\n"),
            "deep.yaml:8:257: case `a`: recursion limit exceeded",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("{head}  - id: a\n    note: &n a\n{case}")).expect("write");
        let o = run_within(
            &["check", path.to_str().expect("utf-8")],
            Duration::from_secs(20),
        );
        assert_refused(&o, fragment);
    }
}

#[test]
fn a_lying_suite_stops_counting_once_past_its_expectation() {
    let dir = scratch("lying");
    let path = dir.join("lie.yaml");
    std::fs::write(
        &path,
        SUITE.replace(
            "perft: {1: 20}",
            "perft: {15: 1}\n    divide: {depth: 14, moves: {e2e4: 1}}",
        ),
    )
    .expect("write");
    let o = run_within(
        &[
            "check",
            path.to_str().expect("utf-8"),
            "--max-nodes",
            "1000",
            "--format",
            "json",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    for r in results {
        assert_eq!(r["status"], "failed", "{r}");
        // The divide lists one move of many: once the count stops, that is what it says.
        if r["check"] == "divide-d14" {
            assert_eq!(r["mismatch"]["kind"], "divide-moves", "{r}");
            assert!(
                r["message"]
                    .as_str()
                    .expect("message")
                    .contains("the divide lists 1 of the"),
                "{r}"
            );
            continue;
        }
        assert_eq!(r["mismatch"]["stopped"], true, "{r}");
        assert!(
            r["message"]
                .as_str()
                .expect("message")
                .contains("the count passed it"),
            "{r}"
        );
    }
}

// ----- merge -----

fn shard_files(dir: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|k| {
            let o = run(&[
                "perft",
                "3",
                "--split",
                "1",
                "--shard",
                &format!("{k}/2"),
                "--format",
                "json",
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let f = dir.join(format!("s{k}.json"));
            std::fs::write(&f, &o.stdout).expect("write");
            f
        })
        .collect()
}

fn edit(path: &Path, to: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("read")).expect("json");
    change(&mut v);
    std::fs::write(to, serde_json::to_vec(&v).expect("json")).expect("write");
}

#[test]
fn merge_sums_in_128_bits_and_checks_indices_and_paths() {
    let dir = scratch("merge");
    let files = shard_files(&dir);
    let name = |p: &Path| p.to_str().expect("utf-8").to_string();
    // Two counts of 2^63: the sum is above 2^64 (written as a string, as the tool would).
    let big = dir.join("big.json");
    let mut expected: u128 = 0;
    edit(&files[0], &big, |v| {
        let entries = v["entries"].as_array_mut().expect("entries");
        entries[0]["count"] = serde_json::json!(1u64 << 63);
        entries[1]["count"] = serde_json::json!(1u64 << 63);
        let sum: u128 = entries
            .iter()
            .map(|e| u128::from(e["count"].as_u64().expect("count")))
            .sum();
        v["nodes"] = serde_json::json!(sum.to_string());
    });
    for f in [&big, &files[1]] {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(f).expect("read")).expect("json");
        expected += match &v["nodes"] {
            serde_json::Value::String(s) => s.parse::<u128>().expect("digits"),
            n => u128::from(n.as_u64().expect("number")),
        };
    }
    assert!(expected > u128::from(u64::MAX));
    let o = run(&["merge", &name(&big), &name(&files[1])]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), expected.to_string());

    let swapped = dir.join("swapped.json");
    edit(&files[0], &swapped, |v| {
        let entries = v["entries"].as_array_mut().expect("entries");
        let first = entries[0]["path"].clone();
        entries[0]["path"] = entries[1]["path"].clone();
        entries[1]["path"] = first;
    });
    let o = run(&["merge", &name(&swapped), &name(&files[1])]);
    assert_refused(&o, "swapped.json: the entry with index 0 has path");

    let reindexed = dir.join("reindexed.json");
    edit(&files[0], &reindexed, |v| {
        v["entries"][1]["index"] = serde_json::json!(3)
    });
    let o = run(&["merge", &name(&reindexed), &name(&files[1])]);
    assert_refused(
        &o,
        "its entry 2 has index 3, where shard 1 of 2 has index 2",
    );

    let lying = dir.join("lying.json");
    edit(&files[0], &lying, |v| {
        v["entries"][0]["count"] = serde_json::json!(5);
    });
    let o = run(&["merge", &name(&lying), &name(&files[1])]);
    assert_refused(&o, "its counts add up to");

    // One shard of 10,000 given: one short line, not one number per missing shard.
    let lonely = dir.join("lonely.json");
    edit(&files[0], &lonely, |v| {
        v["shards"] = serde_json::json!(10_000)
    });
    let o = run(&["merge", &name(&lonely)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.len() < 300, "{} bytes: {err}", err.len());
}

// ----- output streams -----

#[test]
fn a_full_stderr_is_never_a_panic() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let ok = command(&["perft", "2", "--stats"])
        .stdout(Stdio::null())
        .stderr(full())
        .status()
        .expect("runs");
    assert_eq!(ok.code(), Some(0));
    let refused = command(&["fen", "not a fen"])
        .stdout(Stdio::null())
        .stderr(full())
        .status()
        .expect("runs");
    assert_eq!(refused.code(), Some(2));
}

#[test]
fn help_and_version_on_a_full_stdout_fail() {
    // They exited 0 having written nothing; a reader gone stays no failure.
    for args in [
        &["--help"][..],
        &["--version"],
        &["perft", "--help"],
        &["help", "check"],
    ] {
        let o = command(args)
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .expect("/dev/full"),
            )
            .output()
            .expect("runs");
        assert_refused(&o, "standard output: No space left on device");
        let o = run_reader_gone(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}

/// Runs `cvperft args` with its standard output closed by the reader at once (the first write
/// finds the pipe closed), as `cvperft ... | true` does.
fn run_reader_gone(args: &[&str]) -> Output {
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    drop(child.stdout.take());
    finish(child, Duration::from_secs(60), &format!("{args:?}"))
}

#[test]
fn a_closed_pipe_leaves_the_exit_status_to_the_whole_run() {
    // Any closed pipe gave exit 0, a failed check's run too (`cvperft check | true` under
    // `set -o pipefail` passed with a failure known).
    let dir = scratch("closed-pipe");
    let failing = dir.join("failing.yaml");
    std::fs::write(
        &failing,
        "variant: chess\ndescription: one wrong count\ngame-end: rules\ncases:\n  - id: start\n    \
         perft: {1: 21, 2: 400}\n    source: {kind: hand, derivation: wrong on purpose}\n",
    )
    .expect("suite");
    let failing = failing.to_str().expect("utf-8");
    for format in ["human", "json", "junit", "html"] {
        let passed =
            run_reader_gone(&["check", "suites/chess.yaml", "--format", format, "-j", "1"]);
        assert_eq!(
            passed.status.code(),
            Some(0),
            "{format}: {}",
            stderr(&passed)
        );
        assert!(stderr(&passed).is_empty(), "{format}: {}", stderr(&passed));
        let failed = run_reader_gone(&["check", failing, "--format", format]);
        assert_eq!(
            failed.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&failed)
        );
    }
    let differ = run_reader_gone(&[
        "diff",
        "3",
        "--fen",
        "8/P6k/8/8/8/8/8/K7 w - - 0 1",
        "--protocol",
        "perftree",
        "--engine",
        &format!("{} perftree --inject no-promotion-to-knight", bin()),
    ]);
    assert_eq!(differ.status.code(), Some(1), "{}", stderr(&differ));
    // The product of a run that writes a file is written all the same.
    let report = dir.join("report.json");
    let o = run_reader_gone(&[
        "check",
        failing,
        "--format",
        "json",
        "--output",
        report.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let json = std::fs::read_to_string(&report).expect("the report is written");
    assert!(json.contains("\"failed\": 1"), "{json}");
}

#[test]
fn an_export_whose_reader_left_says_it_is_incomplete() {
    // The export is the whole product: it said "exported 1458 JSON Lines objects" with exit 0
    // when `| head -c 10` had taken the first bytes and the rest was discarded.
    for format in ["jsonl", "epd", "perft"] {
        let o = run_reader_gone(&["export", "--format", format]);
        assert_eq!(o.status.code(), Some(2), "{format}: {}", stderr(&o));
        let said = stderr(&o);
        assert!(
            said.starts_with("cvperft: export: standard output was closed by its reader with ")
                && said.ends_with("bytes written to it; the export is incomplete\n")
                && said.lines().count() == 1,
            "{format}: {said}"
        );
    }
    // Written to a file, it is whole whatever standard output's reader does.
    let dir = scratch("export-reader-gone");
    let file = dir.join("all.epd");
    let o = run_reader_gone(&[
        "export",
        "--format",
        "epd",
        "--output",
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("exported"), "{}", stderr(&o));
    assert!(std::fs::metadata(&file).expect("written").len() > 1000);
}

#[test]
fn long_tokens_are_cut_in_messages() {
    let token = "e".repeat(120_000);
    let o = run(&["perft", "1", "--moves", &token]);
    // The library repeats 40 characters and the length (the binary would cut a long word
    // that reached it to `...(N characters)...`).
    assert_refused(&o, ": longer than 64 characters");
    assert!(
        stderr(&o).contains(&format!("`{}…` (120000 characters)", "e".repeat(40))),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).len() < 500, "{} bytes", stderr(&o).len());
}

// ----- engines -----

/// Writes an executable shell script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_str().expect("utf-8").to_string()
}

/// A UCI engine that prints an `info` line every 0.1 s once asked `go perft`, and never answers.
fn chatter(dir: &Path) -> String {
    script(
        dir,
        "chatter",
        "while IFS= read -r line; do case \"$line\" in\n\
         uci) echo uciok ;; isready) echo readyok ;;\n\
         \"go perft \"*) while :; do echo \"info string thinking\"; sleep 0.1; done ;;\n\
         quit) exit 0 ;; esac; done\n",
    )
}

#[test]
fn a_chattering_engine_is_timed_out_per_question() {
    let dir = scratch("chatter");
    let engine = chatter(&dir);
    let o = run_within(
        &["diff", "2", "--engine", &engine, "--timeout", "1"],
        Duration::from_secs(20),
    );
    // Ten lines a second, each too late to win more time (on a loaded machine the handshake
    // may be what times out instead).
    assert_refused(&o, "no answer within 1 s while waiting for");
}

/// A UCI engine whose every process answers `k` questions (chess's twenty start moves at
/// depth 1, whatever was asked) and then hangs.
fn hangs_after(dir: &Path, k: usize) -> String {
    let moves = "a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 b1a3 b1c3 g1f3 g1h3";
    script(
        dir,
        &format!("hang-after-{k}"),
        &format!(
            "n=0\nwhile IFS= read -r line; do case \"$line\" in\n\
             uci) echo uciok ;; isready) echo readyok ;;\n\
             \"go perft \"*) n=$((n+1)); if [ $n -le {k} ]; then for m in {moves}; do echo \"$m: 1\"; done; \
             echo; echo \"Nodes searched: 20\"; else sleep 300; fi ;;\n\
             quit) exit 0 ;; esac; done\n"
        ),
    )
}

/// `check` of the chess suite against `engine`, each question given one second: the engine
/// is given up on, and at most `max_failed` checks fail before that.
fn check_breaker(engine: &str, max_failed: usize) {
    let o = run_within(
        &[
            "check",
            "suites/chess.yaml",
            "--engine",
            engine,
            "--timeout",
            "1",
            "--format",
            "json",
        ],
        Duration::from_secs(40),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("was not asked again"), "{err}");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let results = report["results"].as_array().expect("results");
    let not_asked = results
        .iter()
        .filter(|r| {
            r["status"] == "skipped"
                && r["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("not asked"))
        })
        .count();
    let failed = results.iter().filter(|r| r["status"] == "failed").count();
    // Three time-outs, and the wrong answers of the restarted engine in between.
    assert!(
        failed <= max_failed,
        "{failed} checks waited for the engine"
    );
    assert!(
        not_asked > results.len() / 2,
        "{not_asked} of {}",
        results.len()
    );
}

#[test]
fn an_engine_that_keeps_hanging_is_given_up_on() {
    let dir = scratch("breaker");
    // Answers the probe, then hangs on every later question; restarted, it answers once more,
    // then hangs again.
    check_breaker(&hangs_after(&dir, 1), 6);
}

#[test]
fn an_engine_that_hangs_after_a_few_answers_each_time_is_given_up_on() {
    let dir = scratch("breaker-3");
    // Every process answers three questions and hangs on the fourth: the answers of a
    // restarted process do not end the run of time-outs until it answers more than the one
    // before it did. Asked on, it would cost a second for every fourth of the suite's checks.
    check_breaker(&hangs_after(&dir, 3), 24);
}

/// The ids of the processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(id) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{id}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(id);
        }
    }
    out
}

/// Whether process `pid` is still alive (a zombie waiting for its reaper is not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            !after.trim_start().starts_with('Z')
        })
        .unwrap_or(false)
}

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what} never happened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) sends a signal to our own child, which is not reaped yet.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

#[test]
fn signals_stop_the_engine_and_exit_128_plus_the_signal() {
    let dir = scratch("signals");
    let engine = chatter(&dir);
    for (sig, exit) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let child = command(&["diff", "2", "--engine", &engine, "--timeout", "60"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        let mut engines = Vec::new();
        wait_for("the engine's start", || {
            engines = children_of(child.id());
            !engines.is_empty()
        });
        // Let it chatter, so that a child `sleep` of its group runs too.
        std::thread::sleep(Duration::from_millis(300));
        let group: Vec<u32> = engines.iter().flat_map(|&e| children_of(e)).collect();
        signal(&child, sig);
        let o = finish(child, Duration::from_secs(20), "interrupted diff");
        assert_eq!(o.status.code(), Some(exit), "{}", stderr(&o));
        assert!(
            stderr(&o).ends_with(": 1 engine stopped\n")
                && stderr(&o).contains("interrupted by SIG"),
            "{}",
            stderr(&o)
        );
        for pid in engines.iter().chain(&group) {
            wait_for(&format!("the end of engine process {pid}"), || !alive(*pid));
        }
    }
}

#[test]
fn an_interrupted_report_leaves_no_temporary_file() {
    let dir = scratch("interrupted");
    let report = dir.join("report.xml");
    let child = command(&[
        "check",
        "suites",
        "--slow",
        "-j",
        "1",
        "--format",
        "junit",
        "--output",
        report.to_str().expect("utf-8"),
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .expect("starts");
    wait_for("the temporary report", || !leftovers(&dir).is_empty());
    let temp = leftovers(&dir);
    assert!(
        temp[0].starts_with(".report.xml.") && !temp[0].ends_with(".yaml"),
        "{temp:?}"
    );
    signal(&child, libc::SIGINT);
    let o = finish(child, Duration::from_secs(20), "interrupted check");
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "cvperft: interrupted by SIGINT: 1 temporary file removed\n"
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    assert!(!report.exists());
}

// ----- the attack of issue 24's thirteenth session -----

/// A FIFO at `path` (no reader or writer yet).
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().expect("utf-8")).expect("path");
    // SAFETY: mkfifo reads the NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// `dir/plan.jsonl`, chess at `depth` split at ply 1.
fn planned(dir: &Path, depth: &str) -> PathBuf {
    let plan = dir.join("plan.jsonl");
    let o = run(&[
        "plan",
        depth,
        "--split",
        "1",
        "--output",
        plan.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    plan
}

#[test]
fn work_output_never_truncates_a_file_that_is_not_its_results() {
    let dir = scratch("work-output");
    let plan = planned(&dir, "3");
    let plan_text = plan.to_str().expect("utf-8");
    // One line without a newline: somebody's notes, not a results header cut short.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "precious notes without a final newline").expect("notes");
    let o = run(&[
        "work",
        plan_text,
        "--shard",
        "1/1",
        "-q",
        "--output",
        notes.to_str().expect("utf-8"),
    ]);
    assert_refused(&o, "not a results file");
    assert_eq!(
        std::fs::read_to_string(&notes).expect("notes"),
        "precious notes without a final newline"
    );
    // The beginning of this run's own header (a run killed while writing it) is resumed.
    let results = dir.join("results.jsonl");
    let results_text = results.to_str().expect("utf-8");
    let args = [
        "work",
        plan_text,
        "--shard",
        "1/1",
        "-q",
        "--output",
        results_text,
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let whole = std::fs::read_to_string(&results).expect("results");
    let header = whole.lines().next().expect("header").to_string();
    std::fs::write(&results, &header[..header.len() / 2]).expect("cut");
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&results).expect("results"), whole);
    // Devices and FIFOs are refused at once (a FIFO held open here read back for ever).
    let fifo = dir.join("fifo.jsonl");
    mkfifo(&fifo);
    for target in [fifo.to_str().expect("utf-8"), "/dev/null", "/dev/full"] {
        let o = run_within(
            &[
                "work", plan_text, "--shard", "1/1", "-q", "--output", target,
            ],
            Duration::from_secs(20),
        );
        assert_refused(&o, "is not a regular file");
    }
}

#[test]
fn plans_and_results_given_as_fifos_are_read_without_waiting() {
    let dir = scratch("fifo-inputs");
    let plan = planned(&dir, "2");
    let plan_text = plan.to_str().expect("utf-8");
    let fifo = dir.join("ff");
    mkfifo(&fifo);
    let ff = fifo.to_str().expect("utf-8");
    let limit = Duration::from_secs(20);
    assert_refused(&run_within(&["merge", plan_text, ff], limit), "ff");
    assert_refused(&run_within(&["merge", ff], limit), "ff");
    assert_refused(
        &run_within(&["work", ff, "--shard", "1/1"], limit),
        "empty, not a plan",
    );
}

#[test]
fn a_game_record_given_as_a_fifo_waits_for_its_writer() {
    let dir = scratch("record-fifo");
    let fifo = dir.join("game.pgn");
    mkfifo(&fifo);
    let path = fifo.to_str().expect("utf-8").to_string();
    // No writer: the record read as empty was a game of no moves, shown (and added as a case)
    // from the usual start with exit 0.
    assert_refused(&run(&["game", &path]), "is a FIFO that no process wrote to");
    let suite_path = suite(&dir);
    let suite_text = suite_path.to_str().expect("utf-8");
    let o = run(&[
        "add-case", "--suite", suite_text, "--game", &path, "--depth", "1", "--id", "fifo",
    ]);
    assert_refused(&o, "is a FIFO that no process wrote to");
    assert_eq!(ids(&suite_path), ["start"]);
    // A writer, whether it opens the FIFO before cvperft does or after, is read whole.
    let target = fifo.clone();
    let writer = std::thread::spawn(move || std::fs::write(target, "1. e4 e5 *\n"));
    let (out, _) = game_read(&[&path, "--notation", "san"]);
    writer.join().expect("writer").expect("written");
    assert!(out.contains("e7e5"), "{out}");
}

#[test]
fn plan_output_is_written_as_check_output_is() {
    let dir = scratch("plan-output");
    let plan = |target: &Path| {
        run(&[
            "plan",
            "2",
            "--split",
            "1",
            "--output",
            target.to_str().expect("utf-8"),
        ])
    };
    let read_only = dir.join("ro.jsonl");
    std::fs::write(&read_only, "ro\n").expect("file");
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).expect("mode");
    assert_refused(&plan(&read_only), "is read-only");
    assert_eq!(std::fs::read_to_string(&read_only).expect("ro"), "ro\n");
    let linked = dir.join("a.jsonl");
    std::fs::write(&linked, "hl\n").expect("file");
    std::fs::hard_link(&linked, dir.join("b.jsonl")).expect("hard link");
    assert_refused(&plan(&linked), "hard links");
    assert_eq!(std::fs::read_to_string(&linked).expect("a"), "hl\n");
    // A symbolic link is followed and kept; a device is written, never replaced.
    let link = dir.join("latest.jsonl");
    std::os::unix::fs::symlink("plan.jsonl", &link).expect("link");
    let o = plan(&link);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(is_symlink(&link));
    assert!(
        std::fs::read_to_string(dir.join("plan.jsonl"))
            .expect("plan")
            .starts_with("{\"format\":\"cvperft-plan-1\"")
    );
    assert_refused(
        &plan(Path::new("/dev/full")),
        "--output /dev/full: No space left on device",
    );
    assert!(is_char_device(Path::new("/dev/full")));
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

/// A perftree engine (shell script in `dir`) answering as our reference, with its output
/// passed through `filter` (an awk program).
fn filtered_engine(dir: &Path, name: &str, filter: &str) -> String {
    script(
        dir,
        name,
        &format!("'{}' perftree \"$@\" | awk '{filter}'\n", bin()),
    )
}

/// A chess suite in `dir` of one case, `case`'s lines besides its id and source.
fn one_case_suite(dir: &Path, case: &str) -> PathBuf {
    let path = dir.join("s.yaml");
    let text = format!(
        "variant: chess\ndescription: t\ngame-end: rules\ncases:\n  - id: a\n{case}    source: {{kind: public, citation: x}}\n"
    );
    std::fs::write(&path, text).expect("suite");
    path
}

/// `check SUITE --engine ENGINE EXTRA...` fails its check (exit 1) with `fragment` in the
/// report.
fn engine_check_fails(
    name: &str,
    case: &str,
    engine: impl FnOnce(&Path) -> String,
    extra: &[&str],
    fragment: &str,
) {
    let dir = scratch(name);
    let suite = one_case_suite(&dir, case);
    let engine = engine(&dir);
    let mut args = vec!["check", suite.to_str().expect("utf-8"), "--engine", &engine];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains(fragment), "{}", stdout(&o));
}

#[test]
fn counts_beyond_2_64_never_wrap_to_the_reported_total() {
    // 2^64 - 1 + 41 + the other 18 moves' 380 is 2^64 + 400: 400 when wrapped.
    let engine = |dir: &Path| {
        filtered_engine(
            dir,
            "wrap.sh",
            r#"$1=="a2a3"&&$2=="20"{print "a2a3 18446744073709551615";next} $1=="a2a4"&&$2=="20"{print "a2a4 41";next}{print}"#,
        )
    };
    engine_check_fails(
        "wrap",
        "    perft: {2: 400}\n",
        engine,
        &["--protocol", "perftree"],
        "its counts add up to more than 2^64 - 1 but it reported a total of 400",
    );
}

#[test]
fn a_uci_answer_left_over_from_an_earlier_question_is_refused() {
    // Answers its first question twice; after e2e4 it says 19 (wrong), which the duplicate
    // of the first answer (20) would hide were it read as this answer.
    let engine = |dir: &Path| {
        script(
            dir,
            "stale.sh",
            &format!(
                r#"fen=""; first=1
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name stale"; echo uciok;;
    isready) echo readyok;;
    "position fen "*) fen=${{line#position fen }};;
    "go perft "*) d=${{line#go perft }}
       ans=$('{bin}' perftree $d "$fen" | awk 'NF==2{{print $1": "$2; next}} NF==1{{print ""; print "Nodes searched: " $1}}')
       case "$fen" in *" b "*) ans=$(printf '%s\n' "$ans" | sed '1d; s/^Nodes searched: .*/Nodes searched: 19/');; esac
       printf '%s\n' "$ans"; [ $first = 1 ] && {{ printf '%s\n' "$ans"; first=0; }};;
    quit) exit 0;;
  esac
done
"#,
                bin = bin()
            ),
        )
    };
    engine_check_fails(
        "stale",
        "    moves: e2e4\n    perft: {1: 20}\n",
        engine,
        &["--timeout", "10"],
        "output left over from an earlier question",
    );
}

#[test]
fn add_case_keeps_the_values_of_a_kept_block_scalar() {
    let dir = scratch("keep-chomping");
    for ending in ["      line\n\n", "      line\n"] {
        let path = dir.join("suite.yaml");
        let text = format!("{SUITE}    note: |+\n{ending}");
        std::fs::write(&path, &text).expect("suite");
        let o = add_case(&path, "e2e4", "added", &[])
            .output()
            .expect("add-case runs");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let new_text = std::fs::read_to_string(&path).expect("suite");
        assert!(new_text.starts_with(&text), "every byte kept");
        let note = |t: &str| {
            let v: serde_yaml::Value = serde_yaml::from_str(t).expect("yaml");
            v["cases"][0]["note"].as_str().expect("note").to_string()
        };
        assert_eq!(note(&new_text), note(&text), "{ending:?}");
        assert_eq!(ids(&path), ["start", "added"]);
    }
}

/// `text` written to `dir/name`; its path.
fn record_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("record");
    path.to_str().expect("utf-8").to_string()
}

/// `cvperft game ARGS`, which must succeed: its standard output and standard error.
fn game_read(args: &[&str]) -> (String, String) {
    let mut all = vec!["game"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

#[test]
fn a_pgn_files_games_are_read_with_their_own_tags() {
    let dir = scratch("second-game");
    // Game 2 starts from a FEN without castling rights; game 1 from the usual position.
    let path = &record_file(
        &dir,
        "two.pgn",
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"]\n\n1. d4 d5 0-1\n",
    );
    let (out, _) = game_read(&[path]);
    assert!(out.contains("e2e4"), "{out}");
    assert!(out.contains("KQkq"), "game 1's own start: {out}");
    let (out, _) = game_read(&[path, "--game-index", "2"]);
    assert!(out.contains("d2d4"), "{out}");
    assert!(!out.contains("KQkq"), "game 2's [FEN]: {out}");
    let o = run(&["game", path, "--game-index", "3"]);
    assert_refused(&o, "game 3 asked for, but the record holds 2 games");
    // A Game Courier log whose comment holds a result token: PGN's reading splits it in two,
    // but the notation that reads it (Game Courier) sees one game, with its [FEN].
    let log = &record_file(
        &dir,
        "log.txt",
        "// Game Courier log; * marks the engine's moves\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"]\n1. e2-e4\n1... e7-e5\n",
    );
    let (out, err) = game_read(&[log]);
    assert!(err.contains("read as game-courier"), "{err}");
    assert!(!out.contains("KQkq"), "the log's [FEN]: {out}");
    // Game 2's [FEN] (kings and a pawn) would make game 1 illegal: game 1 is read by the
    // notation that reads it, with its own (no) tags.
    let kings = &record_file(
        &dir,
        "kings.pgn",
        "[Event \"g1\"]\n\n1. e4 e5 *\n\n[Event \"g2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n",
    );
    let (out, _) = game_read(&[kings]);
    assert!(out.contains("KQkq"), "game 1's own start: {out}");
    // Coordinate notation reads this log as one game from game 2's [FEN]; Game Courier reads
    // game 1 from the usual start: two different games, refused rather than one guessed.
    let two_logs = &record_file(
        &dir,
        "two-logs.txt",
        "1. e2-e4\n1... e7-e5\n1-0\n[FEN \"4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e1-d2\n1... e8-d7\n",
    );
    assert_refused(&run(&["game", two_logs]), "it gives two different games");
    // The readings are compared whole, whatever --at-ply cuts: a cut past game 1's end is
    // refused as the whole record is, a cut at 0 of a readable log is not.
    let o = run(&["game", two_logs, "--at-ply", "3"]);
    assert_refused(&o, "it gives two different games");
    let (out, _) = game_read(&[log, "--at-ply", "0"]);
    assert!(out.contains("w - - 0 1"), "the log's [FEN]: {out}");
    // A game the notation that reads the record says is not there.
    let o = run(&["game", log, "--game-index", "2"]);
    assert_refused(
        &o,
        "read as game-courier it holds 1 game, read as san game 2 is there",
    );
}

#[test]
fn add_case_accepts_a_suite_opening_with_a_byte_order_mark() {
    let dir = scratch("bom-add-case");
    let path = dir.join("suite.yaml");
    std::fs::write(&path, format!("\u{feff}{SUITE}")).expect("suite");
    let o = add_case(&path, "e2e4", "added", &[])
        .output()
        .expect("add-case runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(ids(&path), ["start", "added"]);
}

#[test]
fn work_refuses_standard_output_as_its_results_file() {
    let dir = scratch("work-stdout");
    let plan = planned(&dir, "2");
    let plan = plan.to_str().expect("utf-8");
    let work = |target| command(&["work", plan, "--shard", "1/1", "-q", "--output", target]);
    let sent = dir.join("stdout.txt");
    let child = work("/dev/stdout")
        .stdout(std::fs::File::create(&sent).expect("stdout file"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let o = finish(child, Duration::from_secs(20), "work to /dev/stdout");
    assert_refused(&o, "is standard output");
    assert_eq!(std::fs::read_to_string(&sent).expect("stdout"), "");
    // Standard error too: messages written there would overwrite the header. Named as the
    // stream, the file is a log, and is told why.
    let errors = dir.join("stderr.txt");
    let status = work("/dev/stderr")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&errors).expect("stderr file"))
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&errors).expect("stderr"),
        "cvperft: --output /dev/stderr: is standard error; give the results file a name of its own\n"
    );
}

#[test]
fn a_results_file_or_plan_that_standard_error_appends_to_keeps_its_bytes() {
    // `work --output f 2>>f` and `plan --output f 2>>f` are refused; the refusal must not
    // become the file's last line (it did: the results could no longer be resumed or merged).
    // It is said on standard output instead (nowhere when that is the file too).
    let dir = scratch("stderr-target");
    let plan = planned(&dir, "2");
    let plan = plan.to_str().expect("utf-8");
    let results = dir.join("results.jsonl");
    let results = results.to_str().expect("utf-8");
    let o = command(&["work", plan, "--shard", "1/1", "-q", "--output", results])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = dir.join("report.json");
    std::fs::write(&report, "{}\n").expect("report");
    let report = report.to_str().expect("utf-8");
    let chess = root().join("suites/chess.yaml");
    let chess = chess.to_str().expect("utf-8");
    let runs: [&[&str]; 3] = [
        &["work", plan, "--shard", "1/1", "-q", "--output", results],
        &["plan", "2", "--split", "1", "--output", plan],
        &[
            "check",
            chess,
            "--max-nodes",
            "100",
            "--format",
            "json",
            "--output",
            report,
        ],
    ];
    for args in runs {
        let target = args[args.len() - 1];
        let before = std::fs::read(target).expect("target");
        for both in [false, true] {
            // Appended to, as `2>>f` (and `>>f 2>&1`) open it.
            let append = || {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(target)
                    .expect("append")
            };
            let mut c = command(args);
            c.stderr(append());
            if both {
                c.stdout(append());
            } else {
                c.stdout(Stdio::piped());
            }
            let o = c.output().expect("runs");
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert_eq!(std::fs::read(target).expect("target"), before, "{args:?}");
            if !both {
                let said = String::from_utf8_lossy(&o.stdout);
                assert!(said.contains("is standard error"), "{args:?}: {said}");
            }
        }
    }
    // The results still resume and merge.
    let o = command(&["work", plan, "--shard", "1/1", "-q", "--output", results])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("0 counted now, 20 before"),
        "{}",
        stdout(&o)
    );
    let o = command(&["merge", plan, results]).output().expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn an_engine_that_exits_leaving_its_output_open_is_named_so() {
    // Answers, then leaves a process of its own session holding its stdout for 3 s.
    let engine = perftree_then("lingering", "setsid sleep 3 &\nexit 0");
    let o = perftree_diff(&engine, "1");
    assert_refused(
        &o,
        "it exited, but a process it started keeps its output open",
    );
}

/// `cvperft diff 1 --engine ENGINE --protocol perftree --timeout SECONDS` (60 s watchdog).
/// A perftree engine (in a scratch directory `name`): our perftree answer, then the shell
/// lines `then`.
fn perftree_then(name: &str, then: &str) -> String {
    let body = format!("'{}' perftree \"$@\"\n{then}\n", bin());
    script(&scratch(name), &format!("{name}.sh"), &body)
}

fn perftree_diff(engine: &str, seconds: &str) -> Output {
    run(&perftree_diff_args(engine, seconds))
}

/// The arguments of [`perftree_diff`].
fn perftree_diff_args<'a>(engine: &'a str, seconds: &'a str) -> [&'a str; 8] {
    [
        "diff",
        "1",
        "--engine",
        engine,
        "--protocol",
        "perftree",
        "--timeout",
        seconds,
    ]
}

// ----- the sixth round of attacks (fourteenth session) -----

/// `cvperft work PLAN --shard SHARD --output OUT -q`.
fn work_shard(plan: &Path, shard: &str, out: &Path) -> Output {
    run(&[
        "work",
        plan.to_str().expect("utf-8"),
        "--shard",
        shard,
        "--output",
        out.to_str().expect("utf-8"),
        "-q",
    ])
}

#[test]
fn work_refuses_more_shards_than_allowed_before_writing() {
    let dir = scratch("work-shards");
    let plan = planned(&dir, "3");
    let out = dir.join("r.jsonl");
    let o = work_shard(&plan, "1/1000000000000", &out);
    assert_refused(&o, "--shard 1/1000000000000: at most 1000000 shards");
    assert!(!out.exists(), "no results file is started");
}

#[test]
fn merge_refuses_a_results_header_with_an_impossible_shard() {
    let dir = scratch("merge-header");
    let plan = planned(&dir, "3");
    let out = dir.join("r.jsonl");
    let o = work_shard(&plan, "1/2", &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("results");
    for (from, to, shown) in [
        ("\"shards\":2", "\"shards\":0", "shard 1 of 0"),
        (
            "\"shards\":2",
            "\"shards\":1000000000000",
            "shard 1 of 1000000000000",
        ),
        ("\"shard\":1", "\"shard\":5", "shard 5 of 2"),
    ] {
        let edited = dir.join("edited.jsonl");
        std::fs::write(&edited, text.replacen(from, to, 1)).expect("edited");
        let o = run_within(
            &[
                "merge",
                plan.to_str().expect("utf-8"),
                edited.to_str().expect("utf-8"),
            ],
            Duration::from_secs(30),
        );
        assert_refused(
            &o,
            &format!("edited.jsonl: line 1: fields `shard`, `shards`: {shown}"),
        );
    }
}

#[test]
fn a_plan_deeper_than_the_limit_is_refused() {
    let dir = scratch("plan-depth");
    let plan = planned(&dir, "3");
    let text = std::fs::read_to_string(&plan).expect("plan");
    let edited = dir.join("deep.jsonl");
    std::fs::write(&edited, text.replacen("\"depth\":3", "\"depth\":24", 1)).expect("edited");
    let o = run_within(
        &[
            "work",
            edited.to_str().expect("utf-8"),
            "--shard",
            "1/1",
            "-q",
        ],
        Duration::from_secs(30),
    );
    assert_refused(
        &o,
        "deep.jsonl: line 1: field `depth`: 24 is above the limit of 15",
    );
}

#[test]
fn an_oversized_shard_is_refused_without_counting_the_whole_split() {
    // perft 8 of chess has 84,998,978,956 leaves: the refusal comes once the count passes the
    // most one shard may hold, long before (the watchdog fails a run that counts them all), on
    // one thread and on two (the paths then counted per root move).
    for threads in ["1", "2"] {
        let o = run_within(
            &[
                "perft",
                "8",
                "--split",
                "8",
                "--shard",
                "1/1",
                "--format",
                "json",
                "--threads",
                threads,
            ],
            Duration::from_secs(60),
        );
        assert_refused(
            &o,
            "--split 8: shard 1/1 would hold more than 1000000 paths;",
        );
    }
    // A shard that fits is listed alike on one thread and on two.
    let report = |threads: &str| {
        let o = run(&[
            "perft",
            "5",
            "--split",
            "4",
            "--shard",
            "2/3",
            "--format",
            "json",
            "--threads",
            threads,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(report("1"), report("2"));
}

#[test]
fn a_full_standard_output_is_named() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let o = command(&["variants"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_refused(&o, "standard output: No space left on device");
}

#[test]
fn pgn_tags_inside_a_variation_or_given_twice_are_refused() {
    let dir = scratch("pgn-tags");
    let cases = [
        (
            "1. e4 (1. d4 [Event \"x\"]) e5 2. Nf3 *\n",
            "line 1, column 14: a tag pair inside the variation opened on line 1, column 7",
        ),
        (
            "1. e4 (1. d4\n[Event \"x\"]) e5 2. Nf3 *\n",
            "line 2, column 1: a tag pair inside the variation opened on line 1, column 7",
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\"]\n\n1. e3 *\n",
            "line 2, column 1: tag `FEN` given twice with different values",
        ),
        (
            "[Variant \"Standard\"]\n[variant \"Pink Panther\"]\n\n1. e4 *\n",
            "tag `variant` given twice with different values (`Standard` on line 1, then `Pink Panther`)",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let path = dir.join(format!("g{i}.pgn"));
        std::fs::write(&path, text).expect("record");
        // Given as PGN, and found by --notation auto: the refusal is what is reported.
        for notation in ["san", "auto"] {
            let o = run(&[
                "game",
                path.to_str().expect("utf-8"),
                "--notation",
                notation,
            ]);
            assert_refused(&o, message);
        }
    }
    // A coordinate record too: one game, every tag of the text.
    let path = dir.join("coordinate.txt");
    std::fs::write(
        &path,
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\"]\ne2e3 e8d8\n",
    )
    .expect("record");
    let o = run(&["game", path.to_str().expect("utf-8")]);
    assert_refused(&o, "tag `FEN` given twice with different values");
    // The same tag twice with one value, a tag cvperft does not read given twice with two, a
    // variation without tags, and two games each with its own FEN, still read.
    let path = dir.join("ok.pgn");
    std::fs::write(
        &path,
        "[Event \"a\"]\n[Event \"b\"]\n[Variant \"chess\"]\n[Variant \"chess\"]\n\n1. e4 (1. d4 d5) e5 2. Nf3 *\n",
    )
    .expect("record");
    let o = run(&["game", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Nf3"), "{}", stdout(&o));
    let path = dir.join("two.pgn");
    std::fs::write(
        &path,
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e3 *\n\n[FEN \"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\"]\n1. d3 *\n",
    )
    .expect("record");
    for (index, played) in [("1", "e2e3"), ("2", "d2d3")] {
        let o = run(&["game", path.to_str().expect("utf-8"), "--game-index", index]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains(played), "{}", stdout(&o));
    }
}

#[test]
fn a_flooding_perftree_engine_is_refused_with_bounded_memory() {
    // 60,000-byte lines without end: refused once the output passes 16 MiB (the lines were
    // all kept before, about 6 GiB by the line limit).
    let dir = scratch("perftree-flood");
    let engine = script(
        &dir,
        "flood",
        "line=$(head -c 60000 /dev/zero | tr '\\0' x)\nwhile :; do echo \"$line\" || exit 0; done\n",
    );
    // Within 1 GiB of address space: an exit code (not an abort on a failed allocation).
    let o = run_with_memory_limit(&perftree_diff_args(&engine, "50"), Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("malformed line \"<more than 16 MiB of output>\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn add_case_refusals_name_the_suite() {
    let dir = scratch("add-case-cr");
    let path = dir.join("cr.yaml");
    let text = SUITE.replace('\n', "\r");
    std::fs::write(&path, &text).expect("suite");
    let o = run(&add_case_args(&path, "e2e4", &[]));
    assert_refused(
        &o,
        "cr.yaml: its lines end in CR alone; add-case needs LF or CRLF line breaks",
    );
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), text);
}

#[test]
fn text_from_engines_and_files_cannot_act_on_the_terminal() {
    let dir = scratch("terminal");
    // An engine that rejects every move with a title-setting and screen-clearing sequence.
    let engine = script(
        &dir,
        "hostile",
        "while IFS= read -r line; do case \"$line\" in\n\
         uci) echo uciok ;; isready) echo readyok ;;\n\
         position*) printf 'Illegal move \\033]0;T\\007\\033[2J\\n' ;;\n\
         quit) exit 0 ;; esac; done\n",
    );
    let o = run(&["diff", "1", "--engine", &engine, "--timeout", "20"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}]0;T\\u{7}\\u{1b}[2J"), "{err}");
    // A record's tag value with a bidi override, on stderr.
    let record = dir.join("g.pgn");
    std::fs::write(&record, "[Variant \"che\u{202e}zz\"]\n\n1. e4 e5\n").expect("record");
    let o = run(&["game", record.to_str().expect("utf-8")]);
    let err = stderr(&o);
    assert!(
        !err.contains('\u{202e}') && err.contains("che\\u{202e}zz"),
        "{err}"
    );
    // A suite's reading on check's human stdout.
    let text = "variant: chess\ndescription: t\ngame-end: rules\ncases:\n  - id: a\n    perft: {1: 20}\n    source: {kind: hand, derivation: x}\n    status: disputed\n    reason: r\n    alternatives:\n      - reading: \"R \\e]0;T\\a\"\n        perft: {1: 20}\n";
    let suite = dir.join("reading.yaml");
    std::fs::write(&suite, text).expect("suite");
    let o = run(&["check", suite.to_str().expect("utf-8"), "--color", "never"]);
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(out.contains("R \\u{1b}]0;T\\u{7}"), "{out}");
    // A suite file name, refused on stderr (a check name cannot carry it).
    let suite = dir.join("x\u{1b}[2J.yaml");
    std::fs::write(&suite, text).expect("suite");
    let o = run(&["check", suite.to_str().expect("utf-8"), "--color", "never"]);
    assert_refused(&o, "x\\u{1b}[2J.yaml: the file name holds U+001B");
    assert!(!stderr(&o).contains('\u{1b}'), "{:?}", stderr(&o));
}

#[test]
fn suites_whose_check_names_would_clash_are_refused() {
    // The same variant and file stem in two folders: every check name would read alike
    // (`chess::chess::...`), so a CI system would merge their results.
    let dir = scratch("same-name");
    let (a, b) = (dir.join("a"), dir.join("b"));
    for d in [&a, &b] {
        std::fs::create_dir_all(d).expect("dir");
        std::fs::copy(root().join("suites/chess.yaml"), d.join("chess.yaml")).expect("copy");
    }
    // `check` of two paths, quietly.
    let check = |x: &Path, y: &Path| {
        let (x, y) = (x.to_str().expect("utf-8"), y.to_str().expect("utf-8"));
        run(&["check", x, y, "-q"])
    };
    let o = check(&a, &b);
    let first = a.join("chess.yaml");
    assert_refused(
        &o,
        &format!("`chess::chess` is also the name of `{}`", first.display()),
    );
    assert!(stderr(&o).contains("b/chess.yaml"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    // One file named twice is one suite, and another stem is another name.
    let o = check(&a, &first);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::rename(b.join("chess.yaml"), b.join("chess-copy.yaml")).expect("rename");
    let o = check(&a, &b);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A line break in the first one's folder reads `\n`, as in every message (was `\u{a}`).
    let odd = dir.join("a\nb");
    std::fs::create_dir_all(&odd).expect("dir");
    std::fs::copy(root().join("suites/chess.yaml"), odd.join("chess.yaml")).expect("copy");
    let o = check(&odd, &a);
    let shown = odd
        .join("chess.yaml")
        .display()
        .to_string()
        .replace('\n', "\\n");
    assert_refused(&o, &format!("`chess::chess` is also the name of `{shown}`"));
}

#[test]
fn a_shard_report_saved_with_a_byte_order_mark_merges() {
    // Some Windows editors save a byte-order mark: `merge` used to refuse the report with
    // serde's place repeated after ours.
    let dir = scratch("shard-bom");
    let o = run(&[
        "perft", "2", "--split", "1", "--shard", "1/1", "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = dir.join("s.json");
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(&o.stdout);
    std::fs::write(&report, bytes).expect("report");
    let merged = run(&["merge", report.to_str().expect("utf-8 path")]);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(String::from_utf8_lossy(&merged.stdout).trim(), "400");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"oops\":").expect("bad report");
    let refused = run(&["merge", bad.to_str().expect("utf-8 path")]);
    assert_refused(
        &refused,
        "bad.json: line 1, column 7: not a shard report: unknown field `oops`",
    );
    assert!(
        !stderr(&refused).contains("at line"),
        "{}",
        stderr(&refused)
    );
}

// ----- the attack of session 19a: full disks -----

/// `perft DEPTH` by the binary itself, the total a merge must reproduce.
fn perft_total(depth: &str) -> String {
    let o = run(&["perft", depth]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o).trim().to_string()
}

/// `merge PLAN RESULTS`: exit 0 and the total.
fn merged_total(plan: &Path, results: &Path) -> String {
    let o = run(&[
        "merge",
        plan.to_str().expect("utf-8"),
        results.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o).trim().to_string()
}

/// Every line of a results file complete and JSON: what a rerun and `merge` read.
fn assert_whole_lines(path: &Path) {
    let text = std::fs::read_to_string(path).expect("results");
    assert!(text.ends_with('\n'), "a line cut short was left: {text:?}");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line.trim_start_matches('\u{feff}'))
            .unwrap_or_else(|e| panic!("{line:?}: {e}"));
    }
}

/// A limit a run is started under ([`run_limited`]).
#[derive(Clone, Copy)]
enum Limit {
    /// RLIMIT_FSIZE at this many bytes, SIGXFSZ ignored as by a caller that handles it: a
    /// write past the limit is cut short and then fails, as on a full disk.
    FileSize(u64),
    /// RLIMIT_FSIZE with SIGXFSZ at its default action, as `ulimit -f` in a shell leaves it.
    FileSizeSignalled(u64),
    /// RLIMIT_AS at [`MEMORY_LIMIT`].
    AddressSpace,
}

/// Runs `cvperft args` with its files limited to `bytes` (RLIMIT_FSIZE, SIGXFSZ ignored): a
/// write past the limit is cut short and then fails, as on a full disk, on any machine and
/// without privileges.
fn run_with_file_size_limit(args: &[&str], bytes: u64) -> Output {
    run_limited(args, Limit::FileSize(bytes), Duration::from_secs(60))
}

/// How much address space a run limited by [`run_with_memory_limit`] may take: far above
/// what cvperft needs (tens of MB, its threads' reserved stacks and allocator arenas
/// included), far below what reading a flood without bound took (gigabytes).
const MEMORY_LIMIT: u64 = 1 << 30;

/// Runs `cvperft args` with its address space limited to [`MEMORY_LIMIT`] (RLIMIT_AS): a run
/// that keeps what it reads without bound fails to allocate and aborts (no exit code), so
/// an exit code is the proof that its memory stayed bounded.
fn run_with_memory_limit(args: &[&str], limit: Duration) -> Output {
    run_limited(args, Limit::AddressSpace, limit)
}

/// Runs `cvperft args` under `what`, within `limit`.
fn run_limited(args: &[&str], what: Limit, limit: Duration) -> Output {
    let child = limited(args, what)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cvperft starts");
    finish(child, limit, &format!("{args:?}"))
}

/// The command `cvperft args`, to be started under `what`.
fn limited(args: &[&str], what: Limit) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = command(args);
    // SAFETY: between fork and exec only async-signal-safe calls (setrlimit, signal) are made.
    unsafe {
        c.pre_exec(move || {
            let (value, action) = match what {
                Limit::FileSize(bytes) => (bytes, libc::SIG_IGN),
                Limit::FileSizeSignalled(bytes) => (bytes, libc::SIG_DFL),
                Limit::AddressSpace => (MEMORY_LIMIT, libc::SIG_DFL),
            };
            let rlimit = libc::rlimit {
                rlim_cur: value,
                rlim_max: value,
            };
            let set = match what {
                Limit::FileSize(_) | Limit::FileSizeSignalled(_) => {
                    libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit)
                }
                Limit::AddressSpace => libc::setrlimit(libc::RLIMIT_AS, &rlimit),
            };
            if set != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, action);
            Ok(())
        });
    }
    c
}

#[test]
fn a_file_size_limit_with_its_signal_at_the_default_leaves_the_suite_and_no_temporary_file() {
    let dir = scratch("file-size-signal");
    let path = suite(&dir);
    let args = add_case_args(&path, "e2e4", &["--id", "cut"]);
    // The new suite is written past the limit. SIGXFSZ at its default action killed the
    // process there, leaving the temporary file; ignored, the write fails as on a full disk.
    let limit = u64::try_from(SUITE.len()).expect("small") + 16;
    let o = run_limited(
        &args,
        Limit::FileSizeSignalled(limit),
        Duration::from_secs(60),
    );
    assert_refused(&o, "File too large");
    assert_eq!(std::fs::read_to_string(&path).expect("suite"), SUITE);
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn work_cut_short_by_a_full_disk_leaves_whole_lines_and_resumes() {
    let dir = scratch("work-full-disk");
    let plan = planned(&dir, "4");
    let results = dir.join("results.jsonl");
    let args = [
        "work",
        plan.to_str().expect("utf-8"),
        "--shard",
        "1/1",
        "--threads",
        "2",
        "-q",
        "--output",
        results.to_str().expect("utf-8"),
    ];
    // The header and five bytes of the first result fit: that write is cut short.
    let header = {
        let whole = dir.join("whole.jsonl");
        let o = work_shard(&plan, "1/1", &whole);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&whole).expect("whole");
        text.lines().next().expect("header").len() as u64 + 1
    };
    let o = run_with_file_size_limit(&args, header + 5);
    assert_refused(&o, "cannot write");
    assert!(stderr(&o).contains("results.jsonl"), "{}", stderr(&o));
    // The fragment was cut off at once: a worker appending after it (once space was freed)
    // made the file unreadable to the rerun and to `merge`.
    assert_eq!(
        std::fs::metadata(&results).expect("results").len(),
        header,
        "{:?}",
        std::fs::read_to_string(&results)
    );
    assert_whole_lines(&results);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_whole_lines(&results);
    assert_eq!(merged_total(&plan, &results), perft_total("4"));
}

#[test]
fn work_resumes_a_results_file_saved_with_a_byte_order_mark() {
    // The mark is not in the first line's text: the cut of a line left short was counted from
    // the text, so it fell three bytes into the last complete result, the next result was
    // appended to that one's remains, and `work` said "counted" with exit 0 over a file that
    // neither a rerun nor `merge` would read again.
    let dir = scratch("work-bom");
    let plan = planned(&dir, "3");
    let results = dir.join("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let whole = std::fs::read(&results).expect("results");
    let cut = whole.len() / 2;
    assert_ne!(whole[cut - 1], b'\n', "the cut must fall inside a line");
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(&whole[..cut]);
    std::fs::write(&results, bytes).expect("marked");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_whole_lines(&results);
    assert_eq!(merged_total(&plan, &results), perft_total("3"));
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 counted now"), "{}", stdout(&o));
}

/// A tmpfs of 256 KiB mounted at `dir` (unmounted when dropped), or why it cannot be.
struct SmallDisk {
    dir: PathBuf,
}

impl SmallDisk {
    fn mount(dir: &Path) -> Result<SmallDisk, String> {
        let c = |s: &str| std::ffi::CString::new(s).expect("no NUL");
        let target = c(dir.to_str().expect("utf-8"));
        let (fs, data) = (c("tmpfs"), c("size=256k,mode=0755"));
        // SAFETY: mount(2) reads the NUL-terminated strings we own.
        let rc = unsafe {
            libc::mount(
                fs.as_ptr(),
                target.as_ptr(),
                fs.as_ptr(),
                0,
                data.as_ptr().cast(),
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
        Ok(SmallDisk {
            dir: dir.to_path_buf(),
        })
    }

    /// Fills the disk but for `free` bytes (rounded to whole pages by the file system).
    fn fill(&self, free: u64) {
        use std::io::Write;
        let filler = self.dir.join("filler");
        let mut file = std::fs::File::create(&filler).expect("filler");
        let block = [0u8; 512];
        while file.write_all(&block).is_ok() {}
        let len = file.metadata().expect("filler").len();
        file.set_len(len.saturating_sub(free)).expect("free");
    }

    fn empty(&self) {
        std::fs::remove_file(self.dir.join("filler")).expect("filler removed");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let target = std::ffi::CString::new(self.dir.to_str().expect("utf-8")).expect("no NUL");
        // SAFETY: umount2(2) reads the NUL-terminated path we own.
        unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) };
    }
}

#[test]
fn a_full_disk_loses_nothing_in_any_writer() {
    let dir = scratch("full-disk");
    let disk_dir = dir.join("disk");
    std::fs::create_dir_all(&disk_dir).expect("mount point");
    let disk = match SmallDisk::mount(&disk_dir) {
        Ok(disk) => disk,
        Err(why) => {
            // The file size limit test above covers `work` everywhere; this one needs a real
            // file system that fills (root, or CAP_SYS_ADMIN, in a container that allows it).
            println!("skipped: cannot mount a small tmpfs to fill ({why})");
            return;
        }
    };
    // 5362 units: their results take more than a page, even of 64 KiB.
    let plan = dir.join("plan.jsonl");
    let o = run(&[
        "plan",
        "5",
        "--split",
        "3",
        "--output",
        plan.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d = |name: &str| disk_dir.join(name);
    let t = |p: &Path| p.to_str().expect("utf-8").to_string();
    // Files that a full disk must leave as they were.
    let suite_path = d("suite.yaml");
    std::fs::write(&suite_path, SUITE).expect("suite");
    for name in ["report.json", "export.jsonl", "plan.jsonl"] {
        std::fs::write(d(name), "old\n").expect("old file");
    }
    disk.fill(0);
    let o = add_case(&suite_path, "e2e4", "full", &[])
        .output()
        .expect("runs");
    assert_refused(&o, "No space left on device");
    assert_eq!(std::fs::read_to_string(&suite_path).expect("suite"), SUITE);
    let suite_in_repo = t(&root().join("suites/chess.yaml"));
    let report = t(&d("report.json"));
    let export = t(&d("export.jsonl"));
    let plan_out = t(&d("plan.jsonl"));
    for args in [
        vec![
            "check",
            &suite_in_repo,
            "--max-nodes",
            "1000",
            "--format",
            "json",
            "--output",
            &report,
        ],
        vec![
            "export",
            &suite_in_repo,
            "--format",
            "jsonl",
            "--output",
            &export,
        ],
        vec!["plan", "4", "--split", "2", "--output", &plan_out],
    ] {
        let o = run(&args);
        assert_refused(&o, "No space left on device");
    }
    for name in ["report.json", "export.jsonl", "plan.jsonl"] {
        assert_eq!(std::fs::read_to_string(d(name)).expect("old"), "old\n");
    }
    assert!(
        leftovers(&disk_dir).is_empty(),
        "{:?}",
        leftovers(&disk_dir)
    );
    // `work` with one page free: the header and some results fit, a result written across
    // the page's end is cut short by the full disk.
    disk.empty();
    // SAFETY: sysconf has no preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    disk.fill(page);
    let results = d("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_refused(&o, "No space left on device");
    assert_whole_lines(&results);
    let kept = std::fs::read_to_string(&results).expect("results");
    assert!(kept.lines().count() >= 2, "{kept}");
    disk.empty();
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&results)
            .expect("results")
            .starts_with(&kept)
    );
    assert_eq!(merged_total(&plan, &results), perft_total("5"));
    drop(disk);
}

/// `cvperft args` with `input` written to its standard input through a pipe.
fn run_with_piped_input(args: &[&str], input: Vec<u8>) -> Output {
    use std::io::Write;
    run_fed(command(args), args, move |mut stdin| {
        let _ = stdin.write_all(&input);
    })
}

/// Runs `cvperft` as `command` (its arguments `args`) with its standard input fed by `feed`
/// through a pipe, from a thread: a run that refuses early closes the pipe.
fn run_fed(
    mut command: Command,
    args: &[&str],
    feed: impl FnOnce(std::process::ChildStdin) + Send + 'static,
) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cvperft starts");
    let stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || feed(stdin));
    let o = finish(child, Duration::from_secs(60), &format!("{args:?}"));
    writer.join().expect("writer");
    o
}

#[test]
fn a_game_record_on_standard_input_past_the_limit_is_refused_as_too_large() {
    // Read up to the limit and one byte more, it was refused as a record of 1048577 bytes at
    // line 1, column 1, however much came; and, where the cut split a character, as not UTF-8.
    let limit = 1 << 20;
    for input in [vec![b' '; 3 * limit], "é".repeat(limit).into_bytes()] {
        let o = run_with_piped_input(&["game", "-"], input);
        assert_refused(
            &o,
            "standard input: more than 1048576 bytes, the limit for this input",
        );
    }
}

#[test]
fn merge_reads_results_and_reports_given_through_a_pipe() {
    // `merge` looked for a plan in every file by reading its first line: from a pipe that ate
    // the beginning of a results file or shard report, which was then refused as malformed.
    let dir = scratch("merge-pipe");
    let plan = planned(&dir, "3");
    let plan_text = plan.to_str().expect("utf-8");
    let results = dir.join("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_with_piped_input(
        &["merge", plan_text, "/dev/stdin"],
        std::fs::read(&results).expect("results"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), perft_total("3"));
    let report = run(&[
        "perft", "2", "--split", "1", "--shard", "1/1", "--format", "json",
    ]);
    assert_eq!(report.status.code(), Some(0), "{}", stderr(&report));
    let o = run_with_piped_input(&["merge", "/dev/stdin"], report.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "400");
    // A plan is read only from a regular file, and a results file without its plan is named.
    let o = run_with_piped_input(
        &["merge", "/dev/stdin", results.to_str().expect("utf-8")],
        std::fs::read(&plan).expect("plan"),
    );
    assert_refused(&o, "/dev/stdin: is a plan given as a pipe");
    let o = run(&["merge", results.to_str().expect("utf-8")]);
    assert_refused(&o, "is a results file of `work`; give its plan too");
}

#[test]
fn a_report_never_replaces_the_file_standard_output_or_error_goes_to() {
    // `check --output /dev/stdout >> build.log`: the report was renamed over build.log, and
    // the log it held was gone (so for `plan` and `export`, and for /dev/stderr).
    let dir = scratch("report-to-stream");
    let log = dir.join("build.log");
    let chess = root().join("suites/chess.yaml");
    let chess = chess.to_str().expect("utf-8");
    let commands: [&[&str]; 3] = [
        &["check", chess, "--max-nodes", "100", "--format", "json"],
        &["export", chess, "--format", "epd"],
        &["plan", "2", "--split", "1"],
    ];
    for args in commands {
        for stream in ["/dev/stdout", "/dev/stderr"] {
            std::fs::write(&log, "precious log line\n").expect("log");
            let appending = || {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&log)
                    .expect("log")
            };
            let mut all = args.to_vec();
            all.extend(["--output", stream]);
            let mut c = command(&all);
            if stream == "/dev/stdout" {
                c.stdout(appending()).stderr(Stdio::piped());
            } else {
                c.stdout(Stdio::piped()).stderr(appending());
            }
            let o = finish(c.spawn().expect("runs"), Duration::from_secs(60), stream);
            assert_eq!(o.status.code(), Some(2), "{all:?}");
            let text = std::fs::read_to_string(&log).expect("log");
            assert!(text.starts_with("precious log line\n"), "{all:?}: {text}");
            let name = if stream == "/dev/stdout" {
                "standard output"
            } else {
                "standard error"
            };
            let message = if stream == "/dev/stdout" {
                stderr(&o)
            } else {
                text["precious log line\n".len()..].to_string()
            };
            assert!(
                message.starts_with(&format!("cvperft: --output {stream}: is {name}, a file")),
                "{all:?}: {message}"
            );
            assert_eq!(message.lines().count(), 1, "{message}");
        }
    }
    // A pipe is still written directly.
    let o = run(&["plan", "2", "--split", "1", "--output", "/dev/stdout"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("{\"format\":\"cvperft-plan-1\""));
}

// ----- the attack of the nineteenth session (B) -----

/// The process ids of running processes whose command line contains `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

#[test]
fn a_uci_engine_flooding_counts_is_stopped_with_bounded_memory() {
    // `a0: 1`, `a1: 1`, ... without end: every line a new move, so none is a duplicate and
    // none is chatter. The counts were kept without limit, each checked against all before
    // it, and lines waiting in the reader's unbounded queue were read past the deadline: with
    // `--timeout 3` the run was still going after 60 s, at 5.8 GB.
    let engine = root().join("fixtures/engines/uci-faulty");
    let engine = format!("{} flood", engine.display());
    // Within 1 GiB of address space: an exit code (not an abort on a failed allocation).
    let o = run_with_memory_limit(
        &["diff", "1", "--engine", &engine, "--timeout", "3"],
        Duration::from_secs(30),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("malformed line \"<more than 100000 move counts>\"")
            || err.contains("no answer within 3 s"),
        "{err}"
    );
    assert!(err.contains("uci-faulty flood"), "{err}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_with("uci-faulty flood"), Vec::<String>::new());
}

#[test]
fn a_perftree_answer_of_many_moves_is_read_in_linear_time() {
    // 99,990 made-up moves and a2a3, within the line limit: each move was compared with all
    // before it (5 * 10^9 comparisons, 50 s in a debug build), after the engine had exited
    // and so past any deadline. The answer is read, and the made-up moves are extra.
    let engine = root().join("fixtures/engines/perftree-faulty");
    let engine = format!("{} many", engine.display());
    let o = run_within(
        &[
            "diff",
            "1",
            "--engine",
            &engine,
            "--protocol",
            "perftree",
            "--timeout",
            "10",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("19 missing, 99990 extra"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_uci_engine_closing_its_output_is_killed_at_the_deadline() {
    // An engine that closes its stdout and lives on was given two seconds to exit, whatever
    // the question's deadline: `--timeout 0.2` took 2.2 s.
    let engine = root().join("fixtures/engines/uci-faulty");
    let engine = format!("{} closeout", engine.display());
    // The wait is capped by `exit_grace` (unit-tested in src/engine/uci.rs, not timed here).
    let o = run_within(
        &["diff", "1", "--engine", &engine, "--timeout", "0.2"],
        Duration::from_secs(30),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    // On a loaded machine the handshake may be what times out instead.
    assert!(
        err.contains("ended without answering (closed its output and was killed)")
            || err.contains("no answer within 200 ms"),
        "{err}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_with("uci-faulty closeout"), Vec::<String>::new());
}

#[test]
fn a_perftree_engine_closing_its_output_is_killed_within_two_seconds() {
    // Its exit was waited for until the question's deadline (here 20 s), not the two seconds
    // an engine that closes its output and lives on is given.
    let engine = perftree_then("closeout", "exec >&-\nsleep 300");
    let started = Instant::now();
    let o = run_within(&perftree_diff_args(&engine, "20"), Duration::from_secs(40));
    assert_refused(&o, "(closed its output and was killed)");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(processes_with(&engine), Vec::<String>::new());
}

#[test]
fn a_uci_engine_that_stops_reading_its_input_is_timed_out() {
    // Writing to an engine had no deadline: an engine hanging without reading its input while
    // cvperft wrote a line longer than a pipe holds (64 KiB) kept `--timeout 0.5` waiting for
    // ever. Here 2,000 plies of Knights going out and back, each spelt by the engine in 100
    // characters (a whole-move --map): a `position` line of 200 KB.
    let engine = root().join("fixtures/engines/uci-faulty");
    let engine = format!("{} deaf", engine.display());
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves = vec![shuffle.join(" "); 500].join(" ");
    let maps: Vec<String> = shuffle
        .iter()
        .map(|m| format!("{m}={m}{}", "x".repeat(96)))
        .collect();
    let mut args = vec!["diff", "1", "--moves", &moves, "--engine", &engine];
    args.extend(["--timeout", "0.5"]);
    for map in &maps {
        args.extend(["--map", map]);
    }
    let o = run_within(&args, Duration::from_secs(30));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("engine `{engine}`: no answer within 500 ms while waiting for it to read its input; killed its process group (asked depth 1")),
        "{err}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_with("uci-faulty deaf"), Vec::<String>::new());
}

// ----- the attack on the deep pipeline and the commands that write files (session 22) -----

/// `cvperft args` with standard error on /dev/full (standard output is kept).
fn run_with_full_stderr(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let child = command(args)
        .stdout(Stdio::piped())
        .stderr(full)
        .spawn()
        .expect("cvperft starts");
    finish(child, Duration::from_secs(60), &format!("{args:?}"))
}

#[test]
fn deep_commands_with_a_full_stderr_never_panic() {
    // `plan`'s summary, `merge`'s summary and `work --verify`'s differing units went through
    // eprintln!, which panics when standard error cannot be written: exit 101 after the plan
    // or the total had been written.
    let dir = scratch("deep-full-stderr");
    let plan = planned(&dir, "3");
    let plan_text = plan.to_str().expect("utf-8");
    let o = run_with_full_stderr(&["plan", "3", "--split", "1"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("{\"format\":\"cvperft-plan-1\""));
    let results = dir.join("results.jsonl");
    let results_text = results.to_str().expect("utf-8");
    let o = run_with_full_stderr(&[
        "work",
        plan_text,
        "--shard",
        "1/1",
        "-q",
        "--verify",
        "--inject",
        "second-count",
        "--output",
        results_text,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = work_shard(&plan, "1/1", &dir.join("whole.jsonl"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_with_full_stderr(&[
        "merge",
        plan_text,
        dir.join("whole.jsonl").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim(), perft_total("3"));
}

#[test]
fn a_plan_written_to_standard_output_through_its_output_flag_is_the_plan_alone() {
    // `plan --output /dev/stdout | gzip > plan.gz`: the summary line, which goes to standard
    // output with --output, was appended to the plan in the pipe, which `work` then refused
    // ("line 22: more units than the header's 20") after `plan` had exited 0.
    let dir = scratch("plan-to-stdout");
    let o = run(&["plan", "3", "--split", "1", "--output", "/dev/stdout"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("plan "), "{}", stderr(&o));
    let plan = dir.join("plan.jsonl");
    std::fs::write(&plan, &o.stdout).expect("plan");
    assert_eq!(stdout(&o).lines().count(), 21, "{}", stdout(&o));
    let results = dir.join("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(merged_total(&plan, &results), perft_total("3"));
}

#[test]
fn merge_refuses_an_endless_results_stream_at_its_first_unit_past_the_plan() {
    // `merge PLAN <(endless results)`: every line was read and kept before any unit number
    // was compared with the plan's, so memory grew until the allocator aborted the run.
    let dir = scratch("merge-endless");
    let plan = planned(&dir, "3");
    let first = std::fs::read_to_string(&plan).expect("plan");
    let header: serde_json::Value =
        serde_json::from_str(first.lines().next().expect("header")).expect("JSON");
    let id = header["id"].as_str().expect("id").to_string();
    let args = ["merge", plan.to_str().expect("utf-8"), "/dev/stdin"];
    // Results without end, until the reader goes away.
    let o = run_fed(
        limited(&args, Limit::AddressSpace),
        &args,
        move |mut stdin| {
            use std::io::Write;
            let header = format!(
                "{{\"format\":\"cvperft-results-1\",\"plan\":\"{id}\",\"shard\":1,\"shards\":1,\
                 \"seed\":0,\"verify\":false}}\n"
            );
            let mut ok = stdin.write_all(header.as_bytes()).is_ok();
            let mut unit = 0u64;
            while ok {
                let lines: String = (unit..unit + 1000)
                    .map(|u| format!("{{\"unit\":{u},\"count\":\"1\"}}\n"))
                    .collect();
                ok = stdin.write_all(lines.as_bytes()).is_ok();
                unit += 1000;
            }
        },
    );
    assert_refused(
        &o,
        "/dev/stdin: line 22: unit 20 is not in the plan (20 units)",
    );
    // A results file of another plan is refused at its header, whatever follows.
    let other_dir = dir.join("other");
    std::fs::create_dir_all(&other_dir).expect("a directory");
    let other = planned(&other_dir, "2");
    let results = dir.join("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "merge",
        other.to_str().expect("utf-8"),
        results.to_str().expect("utf-8"),
    ]);
    assert_refused(&o, "not of this plan");
}

#[test]
fn work_refuses_a_read_only_results_file() {
    // Run as root (as CI is), `work` appended to a results file made read-only, cut its last
    // line short or wrote a header into an empty one, where `plan --output` and `check
    // --output` refuse such a file.
    let dir = scratch("work-read-only");
    let plan = planned(&dir, "3");
    let results = dir.join("results.jsonl");
    let o = work_shard(&plan, "1/1", &results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let whole = std::fs::read(&results).expect("results");
    let cut = &whole[..whole.len() - 3];
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").expect("empty");
    std::fs::write(&results, cut).expect("cut");
    for (file, held) in [(&results, cut), (&empty, &b""[..])] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o444)).expect("mode");
        let o = work_shard(&plan, "1/1", file);
        assert_refused(&o, "is read-only (mode 0444); `work` does not write to it");
        assert_eq!(std::fs::read(file).expect("kept"), held);
    }
}

/// Runs `cvperft args` to its end: its exit code, standard error and peak memory (resident,
/// in KiB, as wait4 reports it for this child alone).
// The child is reaped by wait4, since `Child::wait` does not give its resource usage.
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (Option<i32>, String, i64) {
    let mut child = command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cvperft starts");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr read");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: wait4 on our own child, not reaped yet, writing into values we own.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, err, usage.ru_maxrss)
}

#[test]
fn plan_stops_at_max_units_without_building_the_whole_level() {
    // Chess has 72,078 unique positions at ply 4 and 822,518 at ply 5. With --max-units
    // 100000, ply 5 was built whole (about 300 MB) before it was compared with the limit: the
    // limit bounded the memory only at the ply before, so a default run of a split one ply too
    // deep took some 30 times the memory the limit stands for.
    let (code, err, peak) = run_measured(&["plan", "6", "--split", "5", "--max-units", "100000"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "cvperft: more than 100000 unique positions at ply 5; use a smaller --split or a larger \
         --max-units\n"
    );
    assert!(peak < 160_000, "{peak} KiB");
}

#[test]
fn a_report_never_replaces_a_results_file_that_work_is_appending_to() {
    // `plan --output results.jsonl` (or check's, or export's) while a `work` appended to that
    // file renamed a new file over it: the work went on writing into a file no longer in the
    // directory, and every result it counted was lost when it ended.
    use std::os::fd::AsRawFd;
    let dir = scratch("report-over-locked-results");
    let results = dir.join("results.jsonl");
    std::fs::write(&results, "{\"format\":\"cvperft-results-1\"}\n").expect("results");
    // Locked as `work` locks its results file.
    let held = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(&results)
        .expect("open");
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(
        unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    let target = results.to_str().expect("utf-8");
    let suite = root().join("suites/chess.yaml");
    let suite = suite.to_str().expect("utf-8");
    for args in [
        &["plan", "2", "--split", "1", "--output", target][..],
        &["check", suite, "--filter", "perft-d1", "--output", target],
        &["export", suite, "--format", "epd", "--output", target],
    ] {
        let o = run(args);
        assert_refused(&o, "is locked by another process");
        assert_eq!(
            std::fs::read_to_string(&results).expect("kept"),
            "{\"format\":\"cvperft-results-1\"}\n"
        );
    }
    drop(held);
    let o = run(&["plan", "2", "--split", "1", "--output", target]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}
