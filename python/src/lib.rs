//! The `cvperft` Python module: positions, perft, divide, SAN and board pictures of every
//! variant, and conformance runs over the suites, from Python.
//!
//! Everything here is translation: Python arguments into the library's requests
//! ([`cvperft::request`], [`cvperft::conformance`]), its answers into Python objects, and its
//! typed errors into `ValueError` subclasses carrying the field and column they name. No rule
//! of any game is written here, so the module answers exactly as the `cvperft` binary does.
//! Long work (perft, divide, check) runs with the interpreter released (`Python::detach`), so
//! other Python threads go on meanwhile; perft and divide also stop on Ctrl-C.

use cvperft::conformance::{self, CheckError, CheckOptions, MAX_JOBS};
use cvperft::diagram::svg::{self, SvgOptions};
use cvperft::diagram::{Board, Overlay};
use cvperft::echo::echo;
use cvperft::notation::{MoveError as MoveTextError, MoveReason, PlyError, PositionTextError};
use cvperft::notation::{move_text, parse_move, to_fen};
use cvperft::perft::{divide_until, perft_until};
use cvperft::position::Position;
use cvperft::report::json::Json;
use cvperft::report::{Renderer, message_line};
use cvperft::request::{
    MAX_DEPTH, MAX_MOVES, MAX_THREADS, MovesError, PositionRequest, RequestError, play_path,
};
use cvperft::san::{SanError, SanErrorKind};
use cvperft::suite::{Selection, Shard};
use cvperft::variant::{GameEnd, Rules};
use pyo3::create_exception;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyMapping, PySequence, PyString};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

create_exception!(
    cvperft,
    CvperftError,
    PyValueError,
    "Base class of the errors cvperft raises for bad input (a ValueError).\n\n\
     `field` names what is wrong (`variant`, `option`, `fen`, `position`, `moves`, `move`, \
     `san`, `depth`, `threads`, `jobs`, `paths`, a selection filter), `column` its 1-based \
     column when known, else None."
);
create_exception!(
    cvperft,
    VariantError,
    CvperftError,
    "An unknown variant, an option that is not `name=value`, an unknown option or value."
);
create_exception!(
    cvperft,
    FenError,
    CvperftError,
    "A FEN that cannot be read (`field`: board, hand, side, castling, en-passant, halfmove, \
     fullmove or fen; `column`: 1-based in the FEN) or that describes an illegal position \
     (`field`: position)."
);
create_exception!(
    cvperft,
    MoveError,
    CvperftError,
    "Move text or SAN that names no legal move.\n\n`column`: the 1-based column of a syntax \
     error (None for a well-formed move that is not legal or is ambiguous, and for a text \
     longer than 64 characters); `ply`: the 1-based ply in a path \
     of moves (None for one move); `legal`: the legal moves, closest first (SAN for SAN); \
     `kind`: syntax, illegal or ambiguous."
);
create_exception!(
    cvperft,
    SuiteError,
    CvperftError,
    "Suites that cannot be loaded (`path`, `line`, `column` of the first problem; every \
     problem in the message), no suite under the paths, or a selection that chooses nothing."
);

/// Attributes of an error beyond its message.
#[derive(Default)]
struct Details {
    field: &'static str,
    column: Option<usize>,
    ply: Option<usize>,
    legal: Option<Vec<String>>,
    kind: Option<&'static str>,
    path: Option<PathBuf>,
    line: Option<usize>,
}

impl Details {
    /// Details naming `field` only.
    fn field(field: &'static str) -> Details {
        Details {
            field,
            ..Details::default()
        }
    }
}

/// An error of class `E` with `message` as the command line writes it on stderr (one line,
/// what acts on a terminal escaped, long words cut: [`message_line`]) and the attributes of
/// `details` (`field` and `column` always, the others when the class has them).
fn error<E: pyo3::PyTypeInfo>(py: Python<'_>, message: String, details: Details) -> PyErr {
    error_as_is::<E>(py, message_line(&message), details)
}

/// [`error`] with `message` as it is (lines made by [`message_line`] already).
fn error_as_is<E: pyo3::PyTypeInfo>(py: Python<'_>, message: String, details: Details) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance does not fail; if it ever did, the
    // exception would still carry its message.
    let _ = value.setattr("field", details.field);
    let _ = value.setattr("column", details.column);
    if E::type_object(py).is(py.get_type::<MoveError>()) {
        let _ = value.setattr("ply", details.ply);
        let _ = value.setattr("legal", details.legal.unwrap_or_default());
        let _ = value.setattr("kind", details.kind);
    }
    if E::type_object(py).is(py.get_type::<SuiteError>()) {
        let _ = value.setattr("path", details.path);
        let _ = value.setattr("line", details.line);
    }
    err
}

/// A plain `ValueError` subclass for an argument out of range.
fn out_of_range(py: Python<'_>, field: &'static str, message: String) -> PyErr {
    error::<CvperftError>(
        py,
        message,
        Details {
            field,
            ..Details::default()
        },
    )
}

/// An integer argument within `low..=high`, else CvperftError naming `field` as `message`
/// does (given the number as Python writes it): a number of any size, negative or beyond 64
/// bits, is refused this way rather than as an OverflowError that names no argument. Anything
/// Python takes as an index is an integer here (`operator.index`: an `int`, a `bool`, a NumPy
/// integer); anything else: TypeError.
fn int_within(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    field: &'static str,
    low: u64,
    high: u64,
    message: impl Fn(&str) -> String,
) -> PyResult<u64> {
    let index = py
        .import("operator")
        .and_then(|operator| operator.call_method1("index", (value,)));
    // What `__index__` itself raises (KeyboardInterrupt, MemoryError, a ValueError of its
    // own) is raised as it is: only a value that is no index at all is a TypeError here.
    let index = match index {
        Err(e) if !e.is_instance_of::<PyTypeError>(py) => return Err(e),
        index => index,
    };
    let Some(index) = index.ok().filter(|i| i.is_instance_of::<PyInt>()) else {
        let kind = value.get_type().name()?;
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{field}: expected an int, not {kind}"
        )));
    };
    let int = index.cast::<PyInt>()?;
    match int.extract::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(out_of_range(py, field, message(&int_text(int)?))),
    }
}

/// The most bits of an int [`int_text`] writes out in digits (at most 155 of them).
const INT_TEXT_BITS: u64 = 512;

/// `int` as Python writes it, or, past [`INT_TEXT_BITS`] bits, by its size: "(an int of 14287
/// bits)", "(a negative int of ...)". Digits that many would be cut from the message anyway
/// ([`message_line`] cuts a word past 160 characters), and past 4300 of them Python refuses to
/// write the number (a plain ValueError naming no argument), or, with that limit lifted, takes
/// time quadratic in its length.
fn int_text(int: &Bound<'_, PyInt>) -> PyResult<String> {
    let bits: u64 = int.call_method0("bit_length")?.extract()?;
    if bits <= INT_TEXT_BITS {
        return Ok(int.str()?.to_string_lossy().into_owned());
    }
    let sign = if int.lt(0)? { "a negative" } else { "an" };
    Ok(format!("({sign} int of {bits} bits)"))
}

/// Refuses a depth the command line refuses.
fn check_depth(py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    let max = u64::from(MAX_DEPTH);
    let depth = int_within(py, depth, "depth", 0, max, |n| {
        format!("depth {n}: expected 0 to {MAX_DEPTH}")
    })?;
    // Within 0..=MAX_DEPTH.
    Ok(depth as u32)
}

/// Refuses a number of threads the command line refuses; none given is one.
fn check_threads(py: Python<'_>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(threads) = threads else {
        return Ok(1);
    };
    let max = MAX_THREADS as u64;
    let threads = int_within(py, threads, "threads", 1, max, |n| {
        format!("threads {n}: expected 1 to {MAX_THREADS}")
    })?;
    // Within 1..=MAX_THREADS.
    Ok(threads as usize)
}

fn move_error(py: Python<'_>, e: MoveTextError, field: &'static str, ply: Option<usize>) -> PyErr {
    let message = match ply {
        Some(ply) => format!("{field}: ply {ply}: {e}"),
        None => e.to_string(),
    };
    error::<MoveError>(
        py,
        message,
        Details {
            field,
            // A move text too long as a whole has no column that points at what is wrong.
            column: (e.column > 0 && e.reason != MoveReason::TooLong).then_some(e.column),
            ply,
            kind: Some(if e.column > 0 { "syntax" } else { "illegal" }),
            legal: Some(e.legal),
            ..Details::default()
        },
    )
}

fn moves_error(py: Python<'_>, e: MovesError) -> PyErr {
    match e {
        MovesError::Illegal(PlyError { ply, error }) => move_error(py, error, "moves", Some(ply)),
        other @ MovesError::TooMany(_) => error::<MoveError>(
            py,
            format!("moves: {other}"),
            Details {
                field: "moves",
                ..Details::default()
            },
        ),
    }
}

fn request_error(py: Python<'_>, e: RequestError) -> PyErr {
    match e {
        RequestError::Rules(e) => {
            let field = match e {
                cvperft::request::RulesError::UnknownVariant(_) => "variant",
                _ => "option",
            };
            error::<VariantError>(
                py,
                e.to_string(),
                Details {
                    field,
                    ..Details::default()
                },
            )
        }
        RequestError::Fen(PositionTextError::Fen(e)) => error::<FenError>(
            py,
            e.to_string(),
            Details {
                field: e.field.name(),
                column: e.place().map(|(_, column)| column),
                ..Details::default()
            },
        ),
        RequestError::Fen(e @ PositionTextError::Position(_)) => error::<FenError>(
            py,
            format!("FEN: {e}"),
            Details {
                field: "position",
                ..Details::default()
            },
        ),
        RequestError::Moves(e) => moves_error(py, e),
    }
}

fn san_error(py: Python<'_>, e: SanError) -> PyErr {
    let kind = match e.kind() {
        SanErrorKind::Syntax => "syntax",
        SanErrorKind::Illegal => "illegal",
        SanErrorKind::Ambiguous => "ambiguous",
    };
    error::<MoveError>(
        py,
        format!("SAN {e}"),
        Details {
            field: "san",
            // None where no column points at what is wrong (a well-formed move that is not
            // legal or is ambiguous, a text too long as a whole), as for move text.
            column: (e.column > 0).then_some(e.column),
            kind: Some(kind),
            legal: Some(e.moves().to_vec()),
            ..Details::default()
        },
    )
}

fn check_error(py: Python<'_>, e: CheckError) -> PyErr {
    match e {
        CheckError::Load(errors) => {
            let first = errors.first();
            // Each problem as the command line writes it on a line of its own.
            let message = errors
                .iter()
                .map(|e| message_line(&e.to_string()))
                .collect::<Vec<_>>()
                .join("; ");
            error_as_is::<SuiteError>(
                py,
                if message.is_empty() {
                    "the suites could not be read".into()
                } else {
                    message
                },
                Details {
                    field: "paths",
                    column: first.and_then(|e| e.column),
                    path: first.map(|e| e.file.clone()),
                    line: first.and_then(|e| e.line),
                    ..Details::default()
                },
            )
        }
        CheckError::Selection(e) => {
            let field = match e {
                cvperft::suite::SelectionError::UnknownVariant(_) => "variant",
                cvperft::suite::SelectionError::UnknownRuling(_) => "rule",
            };
            error::<SuiteError>(
                py,
                e.to_string(),
                Details {
                    field,
                    ..Details::default()
                },
            )
        }
        CheckError::Jobs(_) => out_of_range(py, "jobs", e.to_string()),
        CheckError::NoSuite(_) => error::<SuiteError>(
            py,
            e.to_string(),
            Details {
                field: "paths",
                ..Details::default()
            },
        ),
        other => error::<SuiteError>(
            py,
            other.to_string(),
            Details {
                field: "selection",
                ..Details::default()
            },
        ),
    }
}

/// The first character of a `str` that UTF-8 cannot encode: its 0-based position and its
/// code, a lone surrogate (U+D800 to U+DFFF; `surrogateescape` decodes bytes that are not
/// UTF-8 to U+DC80..U+DCFF). `err` is what encoding `text` raised; None if it was not that.
fn lone_surrogate(py: Python<'_>, err: &PyErr, text: &Bound<'_, PyAny>) -> Option<(usize, u32)> {
    if !err.is_instance_of::<PyUnicodeEncodeError>(py) {
        return None;
    }
    let at = err
        .value(py)
        .getattr("start")
        .ok()?
        .extract::<usize>()
        .ok()?;
    let code = text.get_item(at).ok()?;
    let code = py
        .import("builtins")
        .ok()?
        .call_method1("ord", (code,))
        .ok()?;
    Some((at, code.extract::<u32>().ok()?))
}

/// The message for a lone surrogate `code` at `place` ("fen, column 4").
fn not_unicode(place: &str, code: u32) -> String {
    format!(
        "{place}: U+{code:04X} is a lone surrogate, not Unicode text (bytes that are not UTF-8, \
         decoded with surrogateescape?)"
    )
}

/// A `TypeError` for `value`, given as `label`, which should have been `expected`.
fn wrong_type(label: &str, expected: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let kind = value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    PyTypeError::new_err(format!("{label}: expected {expected}, not {kind}"))
}

/// A `str` argument as Rust text, or the 0-based position and code of its first lone
/// surrogate (see [`lone_surrogate`]). Anything but a `str` is a TypeError naming `label`.
fn py_text(value: &Bound<'_, PyAny>, label: &str) -> PyResult<Result<String, (usize, u32)>> {
    let py = value.py();
    let Ok(text) = value.cast::<PyString>() else {
        return Err(wrong_type(label, "a str", value));
    };
    match text.to_cow() {
        Ok(text) => Ok(Ok(text.into_owned())),
        Err(e) => lone_surrogate(py, &e, value).map(Err).ok_or(e),
    }
}

/// A `str` argument as Rust text (see [`py_text`]): one holding a lone surrogate is refused
/// as an `E` with `details` (its `field`, for a move its `ply`) and the surrogate's 1-based
/// position as `column`, both named in the message after `label`.
fn text_arg<E: pyo3::PyTypeInfo>(
    value: &Bound<'_, PyAny>,
    label: &str,
    details: Details,
) -> PyResult<String> {
    py_text(value, label)?.map_err(|(at, code)| {
        let message = not_unicode(&format!("{label}, column {}", at + 1), code);
        let details = Details {
            column: Some(at + 1),
            ..details
        };
        error::<E>(value.py(), message, details)
    })
}

/// [`text_arg`] for an optional argument.
fn optional_text<E: pyo3::PyTypeInfo>(
    value: Option<&Bound<'_, PyAny>>,
    field: &'static str,
) -> PyResult<Option<String>> {
    value
        .map(|v| text_arg::<E>(v, field, Details::field(field)))
        .transpose()
}

/// Move text given to [`text_arg`] (`move` or `san`): its errors are MoveErrors of kind
/// `syntax`.
fn move_arg(value: &Bound<'_, PyAny>, field: &'static str, ply: Option<usize>) -> PyResult<String> {
    let label = match ply {
        Some(ply) => format!("{field}: ply {ply}"),
        None => field.to_string(),
    };
    let details = Details {
        ply,
        kind: Some("syntax"),
        ..Details::field(field)
    };
    text_arg::<MoveError>(value, &label, details)
}

/// The items of `iterable` with their 1-based numbers; Ctrl-C (any signal handler raising)
/// stops an endless one (`itertools.repeat`), which would otherwise be read until memory ran
/// out.
fn numbered<'py>(
    iterable: &Bound<'py, PyAny>,
) -> PyResult<impl Iterator<Item = PyResult<(usize, Bound<'py, PyAny>)>>> {
    let py = iterable.py();
    Ok(iterable.try_iter()?.enumerate().map(move |(i, item)| {
        py.check_signals()?;
        Ok((i + 1, item?))
    }))
}

/// Moves given as one space-separated string or as a sequence of single moves.
fn moves_text(py: Python<'_>, moves: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    const EXPECTED: &str = "a str or a sequence of str";
    let Some(moves) = moves else {
        return Ok(None);
    };
    if moves.is_instance_of::<PyString>() {
        return match py_text(moves, "moves")? {
            Ok(text) => Ok(Some(text)),
            Err((at, code)) => {
                // Placed as a move of the path: its ply, and its column in that move.
                let before: String = moves.str()?.to_string_lossy().chars().take(at).collect();
                let words = before.split_whitespace().count();
                let (ply, column) = match before.split_whitespace().last() {
                    Some(last) if !before.ends_with(char::is_whitespace) => {
                        (words, last.chars().count() + 1)
                    }
                    _ => (words + 1, 1),
                };
                let message = not_unicode(&format!("moves: ply {ply}, column {column}"), code);
                let details = Details {
                    column: Some(column),
                    ply: Some(ply),
                    kind: Some("syntax"),
                    ..Details::field("moves")
                };
                Err(error::<MoveError>(py, message, details))
            }
        };
    }
    let list = match moves.cast::<PySequence>() {
        Ok(list) if !moves.is_instance_of::<PyBytes>() => list,
        _ => return Err(wrong_type("moves", EXPECTED, moves)),
    };
    // Refused before they are read: ten million took six seconds, and a sequence of a
    // trillion (its length known) aborted the interpreter ("memory allocation of
    // 24000000000000 bytes failed").
    if let Some(count) = list.len().ok().filter(|&n| n > MAX_MOVES) {
        return Err(moves_error(py, MovesError::TooMany(count)));
    }
    let mut texts = Vec::new();
    for item in numbered(list)? {
        let (ply, m) = item?;
        // A sequence that goes on past the length it gives (`__len__` says 5, `__getitem__`
        // answers for ever) is refused once past the limit: it was read until memory ran out,
        // some 200 MB a second.
        if ply > MAX_MOVES {
            return Err(error::<MoveError>(
                py,
                format!("moves: more than {MAX_MOVES} moves, at most {MAX_MOVES} are accepted"),
                Details::field("moves"),
            ));
        }
        let m = move_arg(&m, "moves", Some(ply))?;
        if m.trim().is_empty() || m.split_whitespace().nth(1).is_some() {
            return Err(error::<MoveError>(
                py,
                format!("moves: ply {ply}: {} is not one move", echo(&m)),
                Details {
                    ply: Some(ply),
                    kind: Some("syntax"),
                    ..Details::field("moves")
                },
            ));
        }
        texts.push(m);
    }
    Ok(Some(texts.join(" ")))
}

/// Options given as a mapping of names to values (in the mapping's order), or as a sequence
/// of `name=value` texts as on the command line.
fn options_text(py: Python<'_>, options: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    const EXPECTED: &str = "a mapping of str to str (or a sequence of \"name=value\" str)";
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    let option = |value: &Bound<'_, PyAny>, label: &str| {
        text_arg::<VariantError>(value, label, Details::field("option"))
    };
    let Ok(mapping) = options.cast::<PyMapping>() else {
        let list = match options.cast::<PySequence>() {
            Ok(list) if !options.is_instance_of::<PyString>() => list,
            _ => return Err(wrong_type("options", EXPECTED, options)),
        };
        return numbered(list)?
            .map(|item| {
                let (n, o) = item?;
                option(&o, &format!("options: item {n}"))
            })
            .collect();
    };
    let mut out = Vec::new();
    for item in numbered(mapping.items()?.as_any())? {
        let (n, item) = item?;
        // A mapping of its own making may give anything from `items()`.
        let (name, value) = item
            .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
            .map_err(|_| {
                wrong_type(&format!("options: item {n}"), "a (name, value) pair", &item)
            })?;
        let name = option(&name, "options: a name")?;
        let value = option(&value, &format!("options: the value of `{name}`"))?;
        // Joined as `name=value`, a name holding `=` would be read as another name and
        // value (`{"game-end=rules": "movegen"}` as game-end = `rules=movegen`).
        if name.contains('=') {
            return Err(error::<VariantError>(
                py,
                format!(
                    "option name {} holds `=`: give names and values apart",
                    echo(&name)
                ),
                Details::field("option"),
            ));
        }
        out.push(format!("{name}={value}"));
    }
    Ok(out)
}

/// A count that ended without an answer (its thread panicked, which the library never does).
fn stopped() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err("the count stopped without an answer")
}

/// How often a count running for Python looks for a signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `count` on a thread of its own while the caller waits with the interpreter released,
/// waking every [`SIGNAL_POLL`] to let Python run its signal handlers. When one raises (Ctrl-C's
/// KeyboardInterrupt), the count is told to stop, waited for (it stops within one subtree of
/// [`cvperft::perft::STOP_UNIT_DEPTH`] plies) and the exception raised: a long perft is
/// interrupted, and leaves nothing counting behind it.
///
/// A count of at most that depth is one such subtree anyway: it runs on the caller's thread,
/// so that the small counts a Python loop makes cost no thread.
fn interruptible<R: Send + 'static>(
    py: Python<'_>,
    depth: u32,
    count: impl FnOnce(&AtomicBool) -> Option<R> + Send + 'static,
) -> PyResult<R> {
    if depth <= cvperft::perft::STOP_UNIT_DEPTH {
        let stop = AtomicBool::new(false);
        return py.detach(move || count(&stop)).ok_or_else(stopped);
    }
    on_own_thread(py, move |control| {
        if control.begin_counting() {
            count(&control.stop)
        } else {
            None
        }
    })
}

/// What a worker of [`on_own_thread`] and its waiting caller share.
#[derive(Default)]
struct Control {
    /// Set when the caller is interrupted: count no more.
    stop: Arc<AtomicBool>,
    /// Set by the worker as it begins to count. Before, it may be waiting on input that never
    /// comes (a FIFO whose writer sends nothing), so an interrupted caller does not wait for it.
    counting: AtomicBool,
}

impl Control {
    /// Marks the work as counting from now on: false when the caller was interrupted already
    /// (and did not wait), so that nothing is counted behind its back. Either the caller sees
    /// `counting` and waits, or the worker sees `stop` (sequentially consistent).
    fn begin_counting(&self) -> bool {
        self.counting.store(true, Ordering::SeqCst);
        !self.stop.load(Ordering::SeqCst)
    }
}

/// Runs `work` on a thread of its own, the caller waiting with the interpreter released and
/// waking every [`SIGNAL_POLL`] for Python's signal handlers; when one raises, `work`'s stop
/// flag is set, `work` waited for if it is counting (see [`Control`]), and the exception raised
/// (see [`interruptible`]). A `work` not counting yet is left to end by itself: it may be
/// blocked reading, and it counts nothing once it can go on.
fn on_own_thread<R: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&Control) -> Option<R> + Send + 'static,
) -> PyResult<R> {
    let control = Arc::new(Control::default());
    let (tx, rx) = channel();
    let flag = Arc::clone(&control);
    std::thread::Builder::new()
        .name("cvperft-count".into())
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(work(&flag));
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    // Behind a lock only because a receiver may not be shared with the thread `detach` runs
    // its closure on; nothing else ever takes it.
    let rx = std::sync::Mutex::new(rx);
    let wait = |limit: Option<Duration>| -> Result<Option<R>, RecvTimeoutError> {
        let rx = rx.lock().map_err(|_| RecvTimeoutError::Disconnected)?;
        match limit {
            Some(limit) => rx.recv_timeout(limit),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    loop {
        match py.detach(|| wait(Some(SIGNAL_POLL))) {
            Ok(Some(answer)) => return Ok(answer),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => return Err(stopped()),
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Err(raised) = py.check_signals() {
            control.stop.store(true, Ordering::SeqCst);
            if control.counting.load(Ordering::SeqCst) {
                let _ = py.detach(|| wait(None));
            }
            return Err(raised);
        }
    }
}

/// A position of one variant under its rule options.
///
/// `Position(variant, fen=None, moves=(), options={})`: the start position of `variant`
/// (see `variants()`), or `fen`, with `moves` (move text such as `e2e4`, `N@b2`, `f1b5,N@a2`;
/// a sequence or one space-separated string) played from it; `options` maps rule option names
/// to values (`{"game-end": "movegen"}`; a list of `"name=value"` texts is taken too).
/// Raises VariantError, FenError or MoveError.
#[pyclass(name = "Position", module = "cvperft")]
#[derive(Clone)]
struct PyPosition {
    pos: Position,
    variant: String,
}

impl PyPosition {
    /// The legal move `text` (move text) names.
    fn parse(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<cvperft::position::Move> {
        let text = move_arg(text, "move", None)?;
        parse_move(&self.pos, &text).map_err(|e| move_error(py, e, "move", None))
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (variant, fen=None, moves=None, options=None))]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        fen: Option<&Bound<'_, PyAny>>,
        moves: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let variant = text_arg::<VariantError>(variant, "variant", Details::field("variant"))?;
        let request = PositionRequest {
            variant: variant.clone(),
            options: options_text(py, options)?,
            fen: optional_text::<FenError>(fen, "fen")?,
            moves: moves_text(py, moves)?,
        };
        let pos = request.position().map_err(|e| request_error(py, e))?;
        Ok(PyPosition { pos, variant })
    }

    /// The variant id.
    #[getter]
    fn variant(&self) -> &str {
        &self.variant
    }

    /// Every rule option with its value, `game-end` last.
    #[getter]
    fn options(&self) -> Vec<(&'static str, &'static str)> {
        self.pos.rules().option_pairs()
    }

    /// The position's FEN (normalised, as `cvperft fen` prints it).
    fn fen(&self) -> String {
        to_fen(&self.pos)
    }

    /// The legal moves as move text, sorted (none once the game is decided under the
    /// `game-end` option).
    fn legal_moves(&self) -> Vec<String> {
        let mut moves: Vec<String> = self
            .pos
            .legal_moves()
            .iter()
            .map(|m| move_text(&self.pos, m))
            .collect();
        moves.sort();
        moves
    }

    /// Plays `move` (move text). Raises MoveError if it is not a legal move here.
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.parse(py, r#move)?;
        self.pos = self.pos.play(m);
        Ok(())
    }

    /// A copy with `moves` (a sequence or one space-separated string) played.
    fn play(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let text = moves_text(py, Some(moves))?.unwrap_or_default();
        let pos = play_path(&self.pos, &text).map_err(|e| moves_error(py, e))?;
        Ok(PyPosition {
            pos,
            variant: self.variant.clone(),
        })
    }

    /// The number of leaf nodes `depth` plies below (0 to 15, as the command line), counted
    /// on `threads` threads (1 to 256) with the interpreter released; Ctrl-C interrupts it
    /// (KeyboardInterrupt).
    #[pyo3(signature = (depth, threads=None), text_signature = "(self, depth, threads=1)")]
    fn perft(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let depth = check_depth(py, depth)?;
        let threads = check_threads(py, threads)?;
        // A copy: the position is not borrowed while it is counted, so another thread may
        // play on it meanwhile (it was "RuntimeError: Already borrowed").
        let pos = slf.borrow().pos;
        let count = interruptible(py, depth, move |stop| {
            perft_until(&pos, depth, threads, stop)
        })?;
        cvperft::perft::checked(count).map_err(|e| PyOverflowError::new_err(e.to_string()))
    }

    /// Perft(depth - 1) below each legal move: a dict of move text to count, in move-text
    /// order (empty for depth 0), counted with the interpreter released; Ctrl-C interrupts it
    /// (KeyboardInterrupt).
    #[pyo3(signature = (depth, threads=None), text_signature = "(self, depth, threads=1)")]
    fn divide<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = check_depth(py, depth)?;
        let threads = check_threads(py, threads)?;
        // A copy: the position is not borrowed while it is counted, so another thread may
        // play on it meanwhile (it was "RuntimeError: Already borrowed").
        let pos = slf.borrow().pos;
        let entries = interruptible(py, depth, move |stop| {
            divide_until(&pos, depth, threads, stop)
        })?;
        let dict = PyDict::new(py);
        for e in entries {
            let count = cvperft::perft::checked(e.count)
                .map_err(|o| PyOverflowError::new_err(format!("after {}: {o}", e.text)))?;
            dict.set_item(e.text, count)?;
        }
        Ok(dict)
    }

    /// The SAN of `move` (move text) in this position. Raises MoveError if it is not legal.
    fn san(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.parse(py, r#move)?;
        Ok(cvperft::san::san(&self.pos, &m))
    }

    /// The move text of the legal move `text` (SAN) names. Raises MoveError (`field` san,
    /// `kind` syntax, illegal or ambiguous) if it names no single legal move.
    fn parse_san(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = move_arg(text, "san", None)?;
        let m = cvperft::san::parse_san(&self.pos, &text).map_err(|e| san_error(py, e))?;
        Ok(move_text(&self.pos, &m))
    }

    /// An SVG picture of the board, as `cvperft fen --format svg` draws it.
    fn board_svg(&self) -> String {
        let board = Board::of_position(&self.pos);
        svg::render(&board, &Overlay::default(), &SvgOptions::default())
    }

    /// A copy.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// Pickles as the variant, the FEN and the options (for `pickle` and `multiprocessing`).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (String, String, Option<()>, Vec<String>)) {
        let this = slf.borrow();
        let options = this
            .pos
            .rules()
            .option_pairs()
            .into_iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        (
            slf.get_type().into_any(),
            (this.variant.clone(), to_fen(&this.pos), None, options),
        )
    }

    /// Positions compare by variant, options and FEN; anything else is `NotImplemented`, so
    /// that Python asks the other side (`pos == unittest.mock.ANY` was False while
    /// `mock.ANY == pos` was True).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let Ok(o) = other.extract::<PyRef<'_, PyPosition>>() else {
            return Ok(py.NotImplemented());
        };
        let equal = o.variant == self.variant
            && o.pos.rules().option_pairs() == self.pos.rules().option_pairs()
            && to_fen(&o.pos) == to_fen(&self.pos);
        Ok(pyo3::types::PyBool::new(py, equal)
            .to_owned()
            .into_any()
            .unbind())
    }

    /// `Position("chess", "FEN")`, with `options={...}` naming every option not at its
    /// default: two positions that compare unequal never read alike (the options were left
    /// out, so a `game-end=movegen` position showed as the default one).
    fn __repr__(&self) -> String {
        let defaults = Rules::new(self.pos.variant()).option_pairs();
        let changed: Vec<String> = self
            .pos
            .rules()
            .option_pairs()
            .into_iter()
            .filter(|pair| !defaults.contains(pair))
            .map(|(name, value)| format!("{name:?}: {value:?}"))
            .collect();
        let options = if changed.is_empty() {
            String::new()
        } else {
            format!(", options={{{}}}", changed.join(", "))
        };
        format!(
            "Position({:?}, {:?}{options})",
            self.variant,
            to_fen(&self.pos)
        )
    }
}

/// Every variant: a list of dicts with `id`, `name`, `files`, `ranks`, `start_fen` and
/// `options` (each a dict with `name`, `values` (default first), `default`, `ruling`, `help`;
/// `game-end` last), as `cvperft variants` lists them.
#[pyfunction(name = "variants")]
fn variant_list(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for v in cvperft::variants::all() {
        let s = &v.spec;
        let d = PyDict::new(py);
        d.set_item("id", s.id)?;
        d.set_item("name", s.name)?;
        d.set_item("files", s.files)?;
        d.set_item("ranks", s.ranks)?;
        d.set_item("start_fen", Rules::new(v).start_fen())?;
        let options = PyList::empty(py);
        for o in &s.options {
            let od = PyDict::new(py);
            od.set_item("name", o.name)?;
            od.set_item("values", o.values.to_vec())?;
            od.set_item("default", o.values[0])?;
            od.set_item("ruling", o.ruling)?;
            od.set_item("help", o.help)?;
            options.append(od)?;
        }
        let game_end = PyDict::new(py);
        game_end.set_item("name", "game-end")?;
        let values = [GameEnd::Rules, GameEnd::Movegen].map(GameEnd::name);
        game_end.set_item("values", values.to_vec())?;
        game_end.set_item("default", values[0])?;
        game_end.set_item("ruling", "GE-1")?;
        game_end.set_item(
            "help",
            "rules: checkmate, stalemate and the variant's own decisive rules end the game; \
             movegen: only positions without legal moves end it",
        )?;
        options.append(game_end)?;
        d.set_item("options", options)?;
        list.append(d)?;
    }
    Ok(list)
}

/// One path, as `open` takes it: a `str`, `bytes` or `os.PathLike`. A file name's bytes are
/// kept, UTF-8 or not: `bytes` as given, a `str` as `os.fsencode` encodes it (U+DC80 to
/// U+DCFF, which `os.fsdecode` makes of bytes that are not UTF-8, stand for those bytes). A
/// `str` holding another lone surrogate names no file: SuiteError naming `label` and its column.
fn path_arg(value: &Bound<'_, PyAny>, label: &str) -> PyResult<PathBuf> {
    let py = value.py();
    // `bytes` decoded as Python decodes file names, so that encoding them again gives them back.
    let path = py
        .import("os")?
        .call_method1("fsdecode", (value,))
        .map_err(|e| {
            if e.is_instance_of::<PyTypeError>(py) {
                wrong_type(label, "a path (str, bytes or os.PathLike)", value)
            } else {
                e
            }
        })?;
    path.extract::<PathBuf>()
        .map_err(|e| match lone_surrogate(py, &e, &path) {
            Some((at, code)) => error::<SuiteError>(
                py,
                not_unicode(&format!("{label}, column {}", at + 1), code),
                Details {
                    column: Some(at + 1),
                    ..Details::field("paths")
                },
            ),
            None => e,
        })
}

/// A `bool` argument (False when not given): anything else is a TypeError naming `label`.
fn flag_arg(value: Option<&Bound<'_, PyAny>>, label: &str) -> PyResult<bool> {
    value.map_or(Ok(false), |v| {
        v.extract::<bool>()
            .map_err(|_| wrong_type(label, "a bool", v))
    })
}

/// Paths given as one path or an iterable of paths (each as [`path_arg`] takes it).
fn paths_arg(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    let one = paths.is_instance_of::<PyString>()
        || paths.is_instance_of::<PyBytes>()
        || paths.get_type().hasattr("__fspath__")?;
    if one {
        return Ok(vec![path_arg(paths, "paths")?]);
    }
    let Ok(items) = numbered(paths) else {
        return Err(wrong_type(
            "paths",
            "a path or an iterable of paths (str, bytes or os.PathLike)",
            paths,
        ));
    };
    items
        .map(|item| {
            let (n, path) = item?;
            path_arg(&path, &format!("paths: item {n}"))
        })
        .collect()
}

/// Runs the checks of the suites under `paths` (YAML files or directories of them; one or an
/// iterable, each a str, bytes or os.PathLike, as `open` takes it; None or left out: the suites
/// built into cvperft, the repository's `suites/` as it was built) against the reference
/// generator, and returns the report `cvperft check --format json` writes, as
/// Python objects (`format`, `version`, `generator`, `suites`, `results`, `summary`,
/// `seconds`).
///
/// The filters are `check`'s selection flags: `variant`, `rule` (a ruling id), `filter` (text
/// in the check's name), `slow`, `deep`, `max_nodes`, `shard` ("K/N"); `jobs` worker threads
/// (default: the number of CPUs). A failed check is reported in the result, not raised; raises
/// SuiteError for suites that cannot be loaded or a selection choosing nothing. Runs with the
/// interpreter released; Ctrl-C interrupts it (KeyboardInterrupt): it starts no further
/// check, and the counts running stop within a subtree of four plies.
#[pyfunction(name = "check")]
#[pyo3(signature = (paths=None, *, variant=None, rule=None, filter=None, slow=None, deep=None,
    max_nodes=None, shard=None, jobs=None),
    text_signature = "(paths=None, *, variant=None, rule=None, filter=None, slow=False, deep=False, \
    max_nodes=None, shard=None, jobs=None)")]
#[allow(clippy::too_many_arguments)]
fn run_check<'py>(
    py: Python<'py>,
    paths: Option<&Bound<'py, PyAny>>,
    variant: Option<&Bound<'py, PyAny>>,
    rule: Option<&Bound<'py, PyAny>>,
    filter: Option<&Bound<'py, PyAny>>,
    slow: Option<&Bound<'py, PyAny>>,
    deep: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
    shard: Option<&Bound<'py, PyAny>>,
    jobs: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    // None as left out: the built-in suites.
    let paths = paths.filter(|p| !p.is_none()).map(paths_arg).transpose()?;
    let variant = optional_text::<SuiteError>(variant, "variant")?;
    let rule = optional_text::<SuiteError>(rule, "rule")?;
    let filter = optional_text::<SuiteError>(filter, "filter")?;
    let slow = flag_arg(slow, "slow")?;
    let deep = flag_arg(deep, "deep")?;
    let max_nodes = max_nodes
        .map(|n| {
            int_within(py, n, "max_nodes", 0, u64::MAX, |n| {
                format!("max_nodes {n}: expected 0 to {}", u64::MAX)
            })
        })
        .transpose()?;
    // Out of range as `CheckError::Jobs` says it, whatever the number's size or sign.
    let jobs = jobs
        .map(|n| {
            int_within(py, n, "jobs", 1, MAX_JOBS as u64, |n| {
                format!("--jobs {n}: expected 1 to {MAX_JOBS}")
            })
        })
        .transpose()?
        .map(|n| n as usize);
    let shard = match optional_text::<CvperftError>(shard, "shard")? {
        None => None,
        Some(text) => Some(text.parse::<Shard>().map_err(|e| {
            error::<CvperftError>(
                py,
                e.to_string(),
                Details {
                    field: "shard",
                    ..Details::default()
                },
            )
        })?),
    };
    let selection = Selection {
        filter,
        rule,
        variant,
        slow,
        deep,
        max_nodes,
        shard,
    };
    let options = CheckOptions {
        jobs,
        ..CheckOptions::default()
    };
    // `conformance::check`, with a run that stops starting checks once Ctrl-C is pressed (the
    // checks running then finish first).
    // Reading the suites may wait for ever (a FIFO whose writer sends nothing): Ctrl-C then
    // raises at once, and the checks do not start.
    let rendered = on_own_thread(py, move |control| {
        let run = || -> Result<Option<Vec<u8>>, CheckError> {
            conformance::validate(&selection, &options)?;
            let suites = match &paths {
                Some(paths) => conformance::load_suites(paths)?,
                None => cvperft::suite::builtin::load().map_err(CheckError::Load)?,
            };
            // A check's long count stops too, unit by unit, once Ctrl-C is pressed.
            let run = conformance::CheckRun::prepare(&suites, &selection, &options)?
                .stop_on(Arc::clone(&control.stop));
            if !control.begin_counting() {
                return Ok(None);
            }
            let outcome = run.run(|_| !control.stop.load(Ordering::Relaxed));
            let mut out = Vec::new();
            // Writing to memory does not fail.
            let _ = Json.finish(&mut out, &outcome.report, &outcome.diagnosis);
            Ok(Some(out))
        };
        run().transpose()
    })?;
    let rendered = rendered.map_err(|e| check_error(py, e))?;
    let text = String::from_utf8_lossy(&rendered);
    py.import("json")?.call_method1("loads", (text,))
}

/// Perft and rules conformance for chess variants: the reference move generator of cvperft.
#[pymodule(name = "cvperft")]
fn cvperft_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(variant_list, m)?)?;
    m.add_function(wrap_pyfunction!(run_check, m)?)?;
    m.add("CvperftError", py.get_type::<CvperftError>())?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("SuiteError", py.get_type::<SuiteError>())?;
    m.add("MAX_DEPTH", MAX_DEPTH)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
