//! The HTML reports as a person sees them, in a real browser: headless Chromium opens a
//! `check --format html` report of a run against an engine with a planted fault, and a
//! `diff --format html` page, and this test checks what is on the screen: one board per
//! failing case, each drawn (its pixels show the two square colours where the board is), its
//! squares and pieces in the DOM as its FEN says, the finding's arrows, no console error, no
//! request leaving the file, and the page's script working (filter, copy buttons).
//!
//! Chromium is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands
//! on file descriptor 3, answers on 4), so no port is opened. Every wait has a deadline and
//! the browser's whole process group is killed at the end, so the test cannot hang or leave a
//! process behind. Without Chromium (Debian's `chromium`, installed by `.ci/run`) the test
//! says it was skipped. Screenshots are left in `target/browser/` for a person to look at.

mod support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use support::{board_size, deepcrash_diff, ep_diff, faulty_check, is_light, read_fen, temp_dir};

/// Longest wait for one answer or event.
const DEADLINE: Duration = Duration::from_secs(60);
/// Browser window width.
const WIDTH: u32 = 1280;

fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// A pipe with both ends closed on exec.
fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two descriptors for pipe2 to fill.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

/// Headless Chromium under DevTools-protocol control.
struct Browser {
    child: Child,
    commands: File,
    messages: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    /// Every event received, in order.
    events: Vec<Value>,
    profile: PathBuf,
}

impl Browser {
    fn launch(chromium: &Path, profile: PathBuf) -> Browser {
        let (browser_reads, we_write) = pipe();
        let (we_read, browser_writes) = pipe();
        let log = File::create(profile.join("chromium-stderr.txt")).expect("log file");
        let mut command = Command::new(chromium);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
            ])
            .arg(format!(
                "--user-data-dir={}",
                profile.join("user-data").display()
            ))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .process_group(0);
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2) are made.
        unsafe {
            command.pre_exec(move || {
                // Lift both ends above 4 first, so that neither overwrites the other.
                let read = libc::fcntl(browser_reads, libc::F_DUPFD, 10);
                let write = libc::fcntl(browser_writes, libc::F_DUPFD, 10);
                if read < 0 || write < 0 || libc::dup2(read, 3) < 0 || libc::dup2(write, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        // SAFETY: each descriptor came from pipe2 above and is owned by exactly one File.
        let (commands, mut answers) = unsafe {
            libc::close(browser_reads);
            libc::close(browser_writes);
            (File::from_raw_fd(we_write), File::from_raw_fd(we_read))
        };
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 65536];
            loop {
                let n = match answers.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                buffer.extend_from_slice(&chunk[..n]);
                while let Some(end) = buffer.iter().position(|&b| b == 0) {
                    let message: Vec<u8> = buffer.drain(..=end).collect();
                    if let Ok(value) = serde_json::from_slice(&message[..end])
                        && sender.send(value).is_err()
                    {
                        return;
                    }
                }
            }
        });
        Browser {
            child,
            commands,
            messages,
            next_id: 0,
            session: None,
            events: Vec::new(),
            profile,
        }
    }

    fn stderr_tail(&self) -> String {
        let text =
            std::fs::read_to_string(self.profile.join("chromium-stderr.txt")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    /// Sends a command (to the attached page, once there is one) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).expect("json");
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: {e}\n{}", self.stderr_tail()));
        let deadline = Instant::now() + DEADLINE;
        loop {
            let value = self.receive(deadline, method);
            if value["id"] == json!(id) {
                if let Some(error) = value.get("error") {
                    panic!("{method}: {error}");
                }
                return value["result"].clone();
            }
            self.events.push(value);
        }
    }

    fn receive(&mut self, deadline: Instant, what: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(value) => value,
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no answer to {what} within {DEADLINE:?}\n{}",
                    self.stderr_tail()
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "chromium closed the pipe during {what}\n{}",
                    self.stderr_tail()
                )
            }
        }
    }

    /// Waits for an event of `method` that has not been seen yet.
    fn wait_for(&mut self, method: &str) {
        let seen = self.events.len();
        if self.events.iter().any(|e| e["method"] == json!(method)) && seen > 0 {
            // Only events after the last navigation count; `open` clears the list.
            return;
        }
        let deadline = Instant::now() + DEADLINE;
        loop {
            let value = self.receive(deadline, method);
            let done = value["method"] == json!(method);
            self.events.push(value);
            if done {
                return;
            }
        }
    }

    /// A new page with everything reported, at the report width.
    fn new_page(&mut self) {
        let target = self.call("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = self.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        self.session = attached["sessionId"].as_str().map(str::to_string);
        for domain in [
            "Page.enable",
            "Runtime.enable",
            "Log.enable",
            "Network.enable",
        ] {
            self.call(domain, json!({}));
        }
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
        );
    }

    /// Opens a file and waits until it has loaded; the events seen are the page's alone.
    fn open(&mut self, path: &Path) {
        self.events.clear();
        let url = format!("file://{}", path.display());
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("Page.loadEventFired");
    }

    /// Evaluates an expression that returns a JSON string, and parses it.
    fn evaluate(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{expression}: {exception}");
        }
        let text = result["result"]["value"].as_str().expect("a JSON string");
        serde_json::from_str(text).expect("JSON")
    }

    /// A PNG of a region of the page (page coordinates).
    fn screenshot(&mut self, x: f64, y: f64, width: f64, height: f64) -> Vec<u8> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": { "x": x, "y": y, "width": width, "height": height, "scale": 1 }
            }),
        );
        decode_base64(shot["data"].as_str().expect("image data"))
    }

    /// Console errors, uncaught exceptions, logged errors and requests that left `file:`.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.events {
            let p = &e["params"];
            match e["method"].as_str() {
                Some("Runtime.consoleAPICalled")
                    if matches!(p["type"].as_str(), Some("error" | "assert")) =>
                {
                    out.push(format!("console {}: {}", p["type"], p["args"]));
                }
                Some("Runtime.exceptionThrown") => {
                    out.push(format!("exception: {}", p["exceptionDetails"]));
                }
                Some("Log.entryAdded") if p["entry"]["level"] == json!("error") => {
                    out.push(format!("log error: {}", p["entry"]["text"]));
                }
                Some("Network.requestWillBeSent") => {
                    let url = p["request"]["url"].as_str().unwrap_or("");
                    if !url.starts_with("file://") {
                        out.push(format!("request: {url}"));
                    }
                }
                Some("Network.loadingFailed") => {
                    out.push(format!("failed load: {p}"));
                }
                _ => {}
            }
        }
        out
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: Chromium's renderer and helper processes too.
        let pid = self.child.id() as i32;
        // SAFETY: signalling our own child's process group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// RGB pixels of a PNG.
fn pixels(png_bytes: &[u8]) -> Vec<[u8; 3]> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    let step = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    buffer[..info.buffer_size()]
        .chunks(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// Share of pixels within a small distance of `colour`.
fn share_near(pixels: &[[u8; 3]], colour: [u8; 3]) -> f64 {
    let near = pixels
        .iter()
        .filter(|p| {
            p.iter()
                .zip(colour)
                .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 12)
        })
        .count();
    near as f64 / pixels.len().max(1) as f64
}

/// The colours of the board's squares (see `src/diagram/svg.rs`).
const LIGHT: [u8; 3] = [0xec, 0xdc, 0xc0];
const DARK: [u8; 3] = [0xb0, 0x8a, 0x66];

/// What the page's DOM says about every board: role, FEN, place on the page, squares with
/// their pieces, hand pieces, and the marks drawn.
const BOARDS_JS: &str = r#"JSON.stringify(Array.prototype.map.call(document.querySelectorAll('svg.board'), function (svg) {
  var r = svg.getBoundingClientRect();
  var pieces = {};
  Array.prototype.forEach.call(svg.querySelectorAll('g[data-piece][data-square]'), function (g) {
    pieces[g.getAttribute('data-square')] = g.getAttribute('data-piece');
  });
  var hands = { white: '', black: '' };
  Array.prototype.forEach.call(svg.querySelectorAll('g[data-piece]:not([data-square])'), function (g) {
    var hand = g.closest('[data-hand]').getAttribute('data-hand');
    var letter = g.getAttribute('data-piece').slice(-1);
    hands[hand] += letter.repeat(Number(g.getAttribute('data-count')));
  });
  return {
    role: svg.getAttribute('data-role'),
    variant: svg.getAttribute('data-variant'),
    fen: svg.getAttribute('data-fen'),
    side: svg.getAttribute('data-side'),
    x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height,
    squares: Array.prototype.map.call(svg.querySelectorAll('rect[data-square]'), function (s) {
      return [s.getAttribute('data-square'), s.getAttribute('data-shade')];
    }),
    pieces: pieces,
    hands: hands,
    marks: Array.prototype.map.call(svg.querySelectorAll('g.mark'), function (g) {
      return [g.getAttribute('data-mark'), g.getAttribute('data-move')];
    }),
    caseName: svg.closest('article') ? svg.closest('article').getAttribute('data-case') : null
  };
}))"#;

/// Checks every board the page shows: drawn on screen, and its DOM as its FEN says.
fn check_boards(browser: &mut Browser, boards: &[Value], shots: &Path, name: &str) {
    for (i, board) in boards.iter().enumerate() {
        let fen = board["fen"].as_str().expect("fen");
        let variant = board["variant"].as_str().expect("variant");
        let (files, ranks) = board_size(variant);
        let expected = read_fen(fen, files, ranks);
        // Squares: every one drawn once, with the right shade.
        let squares = board["squares"].as_array().expect("squares");
        assert_eq!(
            squares.len(),
            usize::from(files) * usize::from(ranks),
            "{fen}"
        );
        for s in squares {
            let name = s[0].as_str().expect("name");
            let shade = if is_light(name) { "light" } else { "dark" };
            assert_eq!(s[1].as_str(), Some(shade), "{fen}: {name}");
        }
        let pieces: BTreeMap<String, String> =
            serde_json::from_value(board["pieces"].clone()).expect("pieces");
        assert_eq!(pieces, expected.squares, "{variant} {fen}");
        let sort = |s: &str| -> String {
            let mut v: Vec<char> = s.chars().collect();
            v.sort_unstable();
            v.into_iter().collect()
        };
        let hands = [
            sort(board["hands"]["white"].as_str().unwrap_or("")),
            sort(board["hands"]["black"].as_str().unwrap_or("")),
        ];
        assert_eq!(hands, expected.hands, "{fen}");
        assert_eq!(board["side"].as_str(), Some(expected.side), "{fen}");
        // On screen: the board's region shows both square colours over much of it.
        let (x, y) = (
            board["x"].as_f64().expect("x"),
            board["y"].as_f64().expect("y"),
        );
        let (w, h) = (
            board["width"].as_f64().expect("width"),
            board["height"].as_f64().expect("height"),
        );
        assert!(w > 200.0 && h > 200.0, "{fen}: board is {w}x{h}");
        let png_bytes = browser.screenshot(x, y, w, h);
        std::fs::write(shots.join(format!("{name}-board-{i}.png")), &png_bytes)
            .expect("screenshot saved");
        let px = pixels(&png_bytes);
        let (light, dark) = (share_near(&px, LIGHT), share_near(&px, DARK));
        assert!(
            light > 0.08 && dark > 0.08,
            "{fen}: the board's region is not drawn (light {light:.3}, dark {dark:.3})"
        );
    }
}

/// Width of a narrow window (a phone's) that a report must fit without scrolling sideways.
const NARROW: u32 = 400;

/// What reaches past the window's right edge: the page's overflow in pixels, the boards that
/// stick out, those drawn out of their proportions, and the tables not inside a box that
/// scrolls on its own.
const OVERFLOW_JS: &str = r#"JSON.stringify((function () {
  var width = window.innerWidth;
  var out = { page: document.documentElement.scrollWidth - width, boards: [], squashed: [],
    loose: [] };
  Array.prototype.forEach.call(document.querySelectorAll('svg.board'), function (svg) {
    var r = svg.getBoundingClientRect();
    var box = svg.viewBox.baseVal;
    if (r.right > width + 0.5) { out.boards.push(svg.getAttribute('data-fen')); }
    if (Math.abs(r.width / r.height - box.width / box.height) > 0.01) {
      out.squashed.push([svg.getAttribute('data-fen'), r.width, r.height]);
    }
  });
  Array.prototype.forEach.call(document.querySelectorAll('table'), function (t) {
    var box = t.parentElement;
    if (!(box.classList.contains('scroll') && getComputedStyle(box).overflowX === 'auto')) {
      out.loose.push(t.outerHTML.slice(0, 80));
    } else if (box.getBoundingClientRect().right > width + 0.5) {
      out.loose.push('box: ' + t.outerHTML.slice(0, 80));
    }
  });
  return out;
}()))"#;

/// Shows the open page in a window `NARROW` pixels wide and checks that nothing but a table's
/// own box scrolls sideways and the boards keep their proportions, with a screenshot of its
/// top; then back to the usual width. Boards of 424 to 610 pixels kept their width, so the page
/// scrolled sideways and lost the board's last files and the tables' last columns.
fn check_narrow(browser: &mut Browser, shots: &Path, name: &str) {
    let metrics = |width: u32| json!({ "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false });
    browser.call("Emulation.setDeviceMetricsOverride", metrics(NARROW));
    let overflow = browser.evaluate(OVERFLOW_JS);
    let top = browser.screenshot(0.0, 0.0, f64::from(NARROW), 1600.0);
    std::fs::write(shots.join(format!("{name}-narrow.png")), top).expect("saved");
    browser.call("Emulation.setDeviceMetricsOverride", metrics(WIDTH));
    assert!(
        overflow["page"].as_f64().is_some_and(|p| p <= 0.0),
        "{name}: the page scrolls sideways at {NARROW} px: {overflow}"
    );
    for list in ["boards", "squashed", "loose"] {
        assert_eq!(overflow[list], json!([]), "{name}: {list} at {NARROW} px");
    }
}

fn screenshots_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

#[test]
fn reports_render_in_headless_chromium() {
    let Some(chromium) = find_chromium() else {
        support::tool_missing(
            "chromium",
            "no chromium on PATH for the browser test (install Debian's `chromium`, or set CHROMIUM)",
        );
        return;
    };
    let dir = temp_dir("browser");
    let shots = screenshots_dir();
    let report = dir.join("report.html");
    let (_, failing) = faulty_check(&report);
    assert!(failing.len() >= 5, "{failing:?}");
    let diff = ep_diff(&["--format", "html"]);
    assert_eq!(diff.code, 1, "{}", diff.stderr);
    let diff_page = dir.join("diff.html");
    std::fs::write(&diff_page, &diff.stdout).expect("diff page");

    let mut browser = Browser::launch(&chromium, dir.clone());
    browser.new_page();

    // The check report.
    browser.open(&report);
    let boards = browser.evaluate(BOARDS_JS);
    let boards = boards.as_array().expect("boards").clone();
    let cases: Vec<Value> = boards
        .iter()
        .filter(|b| b["role"] == json!("case"))
        .cloned()
        .collect();
    assert_eq!(cases.len(), failing.len(), "one board per failing case");
    let mut named: Vec<String> = cases
        .iter()
        .map(|b| b["caseName"].as_str().unwrap_or("").to_string())
        .collect();
    named.sort();
    assert_eq!(named, failing);
    assert!(
        cases
            .iter()
            .any(|b| b["marks"].as_array().is_some_and(|m| !m.is_empty())),
        "the missing Knight promotions are drawn"
    );
    check_boards(&mut browser, &cases, &shots, "check");
    // Each finding of the engine's failing checks is drawn on its own board, with its arrows.
    let findings: Vec<Value> = boards
        .iter()
        .filter(|b| b["role"] == json!("finding"))
        .cloned()
        .collect();
    let articles =
        browser.evaluate("JSON.stringify(document.querySelectorAll('article.finding').length)");
    assert!(!findings.is_empty(), "the findings are drawn");
    assert_eq!(json!(findings.len()), articles, "one board per finding");
    assert!(
        findings.iter().all(|b| b["marks"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m[0] == json!("missing")))),
        "every finding shows its missing Knight promotion"
    );
    check_boards(&mut browser, &findings, &shots, "finding");
    let likely = browser.evaluate(
        "JSON.stringify(Array.prototype.map.call(document.querySelectorAll('#likely-rulings li'), function (li) { return li.textContent; }))",
    );
    let likely = likely.as_array().expect("a list").clone();
    assert!(
        !likely.is_empty()
            && likely
                .iter()
                .all(|t| t.as_str().is_some_and(|t| t.contains("docs/rules/"))),
        "the likely rulings are listed with their pages: {likely:?}"
    );
    let ruling_rows = browser
        .evaluate("JSON.stringify(document.querySelectorAll('#ruling-table tbody tr').length)");
    assert!(ruling_rows.as_u64().is_some_and(|n| n > 0), "{ruling_rows}");
    let top = browser.screenshot(0.0, 0.0, f64::from(WIDTH), 1400.0);
    std::fs::write(shots.join("check-report.png"), top).expect("saved");
    // The script ran: the filter bar and copy buttons are shown, and the filter filters.
    let script = browser.evaluate(
        r#"(function () {
  var rows = document.querySelectorAll('#others tbody tr');
  var bar = document.getElementById('filters');
  var input = document.getElementById('filter');
  var before = Array.prototype.filter.call(rows, function (r) { return !r.hidden; }).length;
  input.value = 'cerimon';
  input.dispatchEvent(new Event('input'));
  var after = Array.prototype.filter.call(rows, function (r) { return !r.hidden; }).length;
  var wrong = Array.prototype.filter.call(rows, function (r) {
    return !r.hidden && r.getAttribute('data-name').indexOf('cerimon') < 0; }).length;
  input.value = '';
  input.dispatchEvent(new Event('input'));
  var buttons = Array.prototype.filter.call(document.querySelectorAll('button.copy'),
    function (b) { return !b.hidden; }).length;
  return JSON.stringify({ bar: !bar.hidden, rows: rows.length, before: before, after: after,
    wrong: wrong, buttons: buttons });
}())"#,
    );
    assert_eq!(script["bar"], json!(true), "{script}");
    assert_eq!(script["before"], script["rows"], "{script}");
    let after = script["after"].as_u64().expect("count");
    assert!(
        after > 0 && after < script["rows"].as_u64().expect("rows"),
        "{script}"
    );
    assert_eq!(script["wrong"], json!(0), "{script}");
    assert!(script["buttons"].as_u64().expect("buttons") >= failing.len() as u64);
    check_narrow(&mut browser, &shots, "check-report");
    let problems = browser.problems();
    assert!(problems.is_empty(), "check report: {problems:#?}");

    // The diff page: the finding's board with its arrows and numbered path.
    browser.open(&diff_page);
    let boards = browser.evaluate(BOARDS_JS);
    let boards = boards.as_array().expect("boards").clone();
    let finding: Vec<Value> = boards
        .iter()
        .filter(|b| b["role"] == json!("finding"))
        .cloned()
        .collect();
    assert_eq!(finding.len(), 1, "{boards:?}");
    let marks = finding[0]["marks"].as_array().expect("marks");
    assert!(marks.contains(&json!(["missing", "b5c6"])), "{marks:?}");
    assert!(marks.contains(&json!(["path", "a5a4"])), "{marks:?}");
    assert!(marks.contains(&json!(["path", "c7c5"])), "{marks:?}");
    check_boards(&mut browser, &boards, &shots, "diff");
    let top = browser.screenshot(0.0, 0.0, f64::from(WIDTH), 1000.0);
    std::fs::write(shots.join("diff-report.png"), top).expect("saved");
    check_narrow(&mut browser, &shots, "diff-report");
    let problems = browser.problems();
    assert!(problems.is_empty(), "diff page: {problems:#?}");

    // The diff page of an engine that crashed during the descent: the root board with the move
    // descended into, and the failure shown.
    let stopped = deepcrash_diff(&["--format", "html"]);
    assert_eq!(stopped.code, 2, "{}", stopped.stderr);
    let stopped_page = dir.join("diff-stopped.html");
    std::fs::write(&stopped_page, &stopped.stdout).expect("stopped page");
    browser.open(&stopped_page);
    let boards = browser.evaluate(BOARDS_JS);
    let boards = boards.as_array().expect("boards").clone();
    assert_eq!(boards.len(), 1, "{boards:?}");
    assert_eq!(boards[0]["role"], json!("root"), "{boards:?}");
    let marks = boards[0]["marks"].as_array().expect("marks");
    assert!(marks.contains(&json!(["path", "a5a4"])), "{marks:?}");
    check_boards(&mut browser, &boards, &shots, "diff-stopped");
    let why = browser.evaluate(
        "JSON.stringify(document.querySelector('p.stopped') ? document.querySelector('p.stopped').textContent : '')",
    );
    assert!(
        why.as_str()
            .is_some_and(|t| t.contains("killed by signal 11")),
        "{why}"
    );
    let top = browser.screenshot(0.0, 0.0, f64::from(WIDTH), 1000.0);
    std::fs::write(shots.join("diff-stopped.png"), top).expect("saved");
    let problems = browser.problems();
    assert!(problems.is_empty(), "stopped diff page: {problems:#?}");

    // The policy is enforced: the same page with an image from the network added reports it.
    let html = std::fs::read_to_string(&diff_page).expect("page");
    let tampered = dir.join("tampered.html");
    std::fs::write(
        &tampered,
        html.replace(
            "<body>",
            "<body><img alt=\"\" src=\"https://cvperft.invalid/x.png\">",
        ),
    )
    .expect("tampered page");
    browser.open(&tampered);
    let problems = browser.problems();
    assert!(
        problems.iter().any(|p| p.contains("cvperft.invalid")),
        "a fetch from the network would go unnoticed: {problems:#?}"
    );
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}
