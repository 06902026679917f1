//! Where the aliases of a YAML text are used, for errors serde_yaml places at their anchors.
//!
//! serde_yaml reads an alias (`*name`) by reading again the node its anchor (`&name`) is on, so
//! an error inside that value carries the anchor's line and column, while the path it names
//! (`cases[1].perft`) is the alias's: `perft: *text` with `note: &text "..."` in another case
//! was reported at the note, under the other case's id. serde_yaml keeps no trace of the alias
//! it went through, so this module reads the text again with libyaml (the parser serde_yaml
//! reads with, whose line and column it reports) and lists each alias with its place, its path
//! written as serde_yaml writes paths, and the span of the node it repeats; [`through_alias`]
//! then tells which alias an error came through. It runs only for a text already refused.

use std::collections::BTreeMap;
use std::mem::MaybeUninit;
use unsafe_libyaml as unsafe_sys;

/// A 1-based line and column (in characters), as serde_yaml reports a place.
pub type Place = (usize, usize);

/// One alias as the text writes it, whose path begins an error's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasUse {
    /// The anchor's name (`text` for `*text`).
    pub name: String,
    /// Where the alias is.
    pub at: Place,
    /// How many bytes of the message its path is (the path serde_yaml writes, `cases[1].perft`,
    /// is `&message[..path]`).
    pub path: usize,
    /// Where the node it repeats starts (at its anchor, `&text`).
    pub anchor: Place,
    /// Where that node ends (just after it).
    pub end: Place,
}

/// The alias through which an error found at `at` was reached, among `uses` (the aliases whose
/// path begins the error's message): of those whose node holds `at`, the one with the longest
/// path (the alias used at the error's own place, not an alias holding it), the first written
/// of equals (serde_yaml stops at the first error). `None` for an error found where the text
/// itself is.
pub fn through_alias(uses: &[AliasUse], at: Place) -> Option<&AliasUse> {
    uses.iter()
        .filter(|u| u.anchor <= at && at < u.end)
        .fold(None, |best: Option<&AliasUse>, u| match best {
            Some(b) if b.path >= u.path => Some(b),
            _ => Some(u),
        })
}

/// The alias an error found at `at` came through when no alias's node holds `at`: an alias
/// repeating a node that holds another alias (`*outer`, with `&outer {key: *inner}`), whose
/// error serde_yaml places in the node `&inner` marks. Of the aliases written after `at` (an
/// anchor comes before its aliases) whose path is a whole part of the path `message` begins
/// with (followed by `.`, `[` or `:`: `cases[1]` is not part of `cases[10]`), the one with the
/// longest path, the first written of equals.
pub fn through_nested_alias<'u>(
    uses: &'u [AliasUse],
    message: &str,
    at: Place,
) -> Option<&'u AliasUse> {
    uses.iter()
        .filter(|u| at < u.at)
        .filter(|u| matches!(message.as_bytes().get(u.path), Some(b'.' | b'[' | b':')))
        .fold(None, |best: Option<&AliasUse>, u| match best {
            Some(b) if b.path >= u.path => Some(b),
            _ => Some(u),
        })
}

/// A serde_yaml error found in the value of an alias, to be placed at the alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traced {
    /// The alias's name.
    pub name: String,
    /// Where the alias is: where the error belongs.
    pub at: Place,
    /// Where serde_yaml found the problem, in the node the alias repeats.
    pub found: Place,
    /// Whether that place is in a node another alias in the repeated node repeats.
    pub nested: bool,
}

impl Traced {
    /// What the error adds: where in the anchor's node the problem is.
    pub fn note(&self) -> String {
        let (line, column) = self.found;
        let name = &self.name;
        let node = if self.nested {
            format!("a node that the node anchored `&{name}` repeats through another alias")
        } else {
            format!("the node anchored `&{name}`")
        };
        format!(
            " (through the alias `*{name}`: the problem is at line {line}, column {column}, in \
             {node})"
        )
    }
}

/// The alias `error`, found in `text`, came through (see [`through_alias`]), if any.
pub fn trace(error: &serde_yaml::Error, text: &str) -> Option<Traced> {
    let location = error.location()?;
    let found = (location.line(), location.column());
    if !text.contains('*') {
        return None;
    }
    let message = error.to_string();
    let uses = alias_uses(text, &message);
    let (used, nested) = match through_alias(&uses, found) {
        Some(used) => (used, false),
        None => (through_nested_alias(&uses, &message, found)?, true),
    };
    Some(Traced {
        name: used.name.clone(),
        at: used.at,
        found,
        nested,
    })
}

/// What a collection open at the current event is.
enum Kind {
    Sequence {
        /// The index of its next item.
        next: usize,
    },
    Mapping {
        /// `None` while the next node is a key; then the key's text, `Some(None)` for a key
        /// serde_yaml does not name (an alias, a collection, text that is not UTF-8).
        key: Option<Option<String>>,
    },
}

/// How a node's path, as serde_yaml writes it, compares with the beginning of the message.
/// Paths are never built: a path is as long as the text's nesting times its keys, and built
/// for every node of a deep or wide text they took time and memory by the square of its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prefix {
    /// The document's root, written `.`.
    Root,
    /// The path is the message's first so many bytes.
    Is(usize),
    /// The path does not begin the message.
    Not,
}

impl Prefix {
    /// The prefix after `parts` are written on from `from` bytes into `message`.
    fn follow(message: &str, from: usize, parts: &[&str]) -> Prefix {
        let mut at = from;
        for part in parts {
            match message.as_bytes().get(at..) {
                Some(rest) if rest.starts_with(part.as_bytes()) => at += part.len(),
                _ => return Prefix::Not,
            }
        }
        Prefix::Is(at)
    }

    /// The path of the value under key `key` of the mapping at this path (`parent.key`, or
    /// `key` at the root).
    fn key(self, message: &str, key: &str) -> Prefix {
        match self {
            Prefix::Root => Prefix::follow(message, 0, &[key]),
            Prefix::Is(n) => Prefix::follow(message, n, &[".", key]),
            Prefix::Not => Prefix::Not,
        }
    }

    /// The path of item `index` of the sequence at this path (`parent[index]`, `.[index]` at
    /// the root).
    fn index(self, message: &str, index: usize) -> Prefix {
        let item = format!("[{index}]");
        match self {
            Prefix::Root => Prefix::follow(message, 0, &[".", &item]),
            Prefix::Is(n) => Prefix::follow(message, n, &[&item]),
            Prefix::Not => Prefix::Not,
        }
    }

    /// The length of the message this path begins, when what follows in the message goes on
    /// from a path (`:` after the whole path, `.` or `[` for a deeper one).
    fn begins(self, message: &str) -> Option<usize> {
        match self {
            Prefix::Is(n) => message
                .as_bytes()
                .get(n)
                .is_some_and(|c| matches!(c, b':' | b'.' | b'['))
                .then_some(n),
            Prefix::Root | Prefix::Not => None,
        }
    }
}

/// An open collection.
struct Frame {
    kind: Kind,
    path: Prefix,
    /// Its anchor's name and where it starts.
    anchor: Option<(String, Place)>,
}

/// The walk over the events: open collections, anchors seen, aliases found.
struct Walk<'m> {
    /// The error's message, which the paths of the aliases listed begin.
    message: &'m str,
    stack: Vec<Frame>,
    /// Each anchor's node, the latest of that name (a later anchor replaces an earlier one).
    anchors: BTreeMap<String, (Place, Place)>,
    uses: Vec<AliasUse>,
}

impl Walk<'_> {
    /// The path of the node now starting, and whether it is a mapping's key (serde_yaml names
    /// a key by its mapping's path). Moves its parent on to the next item or to the value.
    fn place_node(&mut self) -> (Prefix, bool) {
        let message = self.message;
        let Some(frame) = self.stack.last_mut() else {
            return (Prefix::Root, false);
        };
        match &mut frame.kind {
            Kind::Sequence { next } => {
                *next += 1;
                (frame.path.index(message, *next - 1), false)
            }
            Kind::Mapping { key } => match key.take() {
                None => {
                    // Unnamed until a scalar key names it.
                    *key = Some(None);
                    (frame.path, true)
                }
                Some(name) => {
                    let child = name.as_deref().unwrap_or("?");
                    (frame.path.key(message, child), false)
                }
            },
        }
    }

    fn event(&mut self, event: Event, start: Place, end: Place) {
        match event {
            Event::DocumentStart => {
                self.stack.clear();
                self.anchors.clear();
            }
            Event::Scalar { anchor, value } => {
                let (_, key) = self.place_node();
                if key
                    && let Some(Frame {
                        kind: Kind::Mapping { key },
                        ..
                    }) = self.stack.last_mut()
                {
                    *key = Some(value);
                }
                if let Some(name) = anchor {
                    self.anchors.insert(name, (start, end));
                }
            }
            Event::Alias(name) => {
                let (path, _) = self.place_node();
                if let Some(path) = path.begins(self.message)
                    && let Some(&(anchor, end)) = self.anchors.get(&name)
                {
                    self.uses.push(AliasUse {
                        name,
                        at: start,
                        path,
                        anchor,
                        end,
                    });
                }
            }
            Event::Start { mapping, anchor } => {
                let (path, _) = self.place_node();
                let kind = if mapping {
                    Kind::Mapping { key: None }
                } else {
                    Kind::Sequence { next: 0 }
                };
                self.stack.push(Frame {
                    kind,
                    path,
                    anchor: anchor.map(|name| (name, start)),
                });
            }
            Event::End => {
                if let Some(Frame {
                    anchor: Some((name, from)),
                    ..
                }) = self.stack.pop()
                {
                    self.anchors.insert(name, (from, end));
                }
            }
            Event::Other => {}
        }
    }
}

/// Lists the aliases of `text` whose path begins `message` (an error's, which begins with the
/// path of the value it is about), in the order they are written, each with the node it
/// repeats. Aliases after a syntax error, and aliases of unknown anchors, are not listed.
pub fn alias_uses(text: &str, message: &str) -> Vec<AliasUse> {
    let mut walk = Walk {
        message,
        stack: Vec::new(),
        anchors: BTreeMap::new(),
        uses: Vec::new(),
    };
    read_events(text, |event, start, end| walk.event(event, start, end));
    walk.uses
}

/// An anchor name given a second time in one document (`&x` twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorAgain {
    /// The name.
    pub name: String,
    /// Where it was given first.
    pub first: Place,
    /// Where it is given again.
    pub again: Place,
}

impl std::fmt::Display for AnchorAgain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, column) = self.first;
        write!(
            f,
            "anchor `&{}` is given twice (first at line {line}, column {column}): give each \
             anchor its own name (serde_yaml, which reads this file, can take an alias of a \
             name given twice for another anchor's)",
            self.name
        )
    }
}

/// The first anchor of `text` whose name an earlier anchor of its document has. YAML lets a
/// later anchor replace an earlier one, but serde_yaml numbers anchors by how many names it has
/// seen, so after a name is given again the next new anchor gets the number of an earlier one:
/// with `&x`, `&y`, `&x`, `&z`, every later `*x` reads the node of `&z`. A suite could pass
/// with counts it never states. `None` also for a text that stops parsing (the typed reading
/// reports that).
pub fn anchor_given_twice(text: &str) -> Option<AnchorAgain> {
    if !text.contains('&') {
        return None;
    }
    let mut seen: BTreeMap<String, Place> = BTreeMap::new();
    let mut found = None;
    read_events(text, |event, start, _| {
        let anchor = match event {
            Event::DocumentStart => {
                seen.clear();
                None
            }
            Event::Scalar { anchor, .. } | Event::Start { anchor, .. } => anchor,
            Event::Alias(_) | Event::End | Event::Other => None,
        };
        if let Some(name) = anchor
            && found.is_none()
        {
            match seen.get(&name) {
                Some(&first) => {
                    found = Some(AnchorAgain {
                        name,
                        first,
                        again: start,
                    });
                }
                None => {
                    seen.insert(name, start);
                }
            }
        }
    });
    found
}

/// A libyaml event, as much as this module reads of it.
enum Event {
    DocumentStart,
    Scalar {
        anchor: Option<String>,
        /// The text, when it is UTF-8.
        value: Option<String>,
    },
    Alias(String),
    /// A sequence or mapping starts.
    Start {
        mapping: bool,
        anchor: Option<String>,
    },
    /// A sequence or mapping ends.
    End,
    Other,
}

/// A libyaml string (NUL-terminated, may be null) as text.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string that lives while this runs.
unsafe fn c_text(text: *const u8) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: as the caller promises.
    let text = unsafe { std::ffi::CStr::from_ptr(text.cast()) };
    Some(text.to_string_lossy().into_owned())
}

/// A libyaml mark as a 1-based place.
fn place(mark: unsafe_sys::yaml_mark_t) -> Place {
    let to = |n: u64| usize::try_from(n).map_or(usize::MAX, |n| n.saturating_add(1));
    (to(mark.line), to(mark.column))
}

/// What the module reads of one event.
///
/// # Safety
/// `event` was filled by `yaml_parser_parse` and not deleted yet.
unsafe fn read_event(event: &unsafe_sys::yaml_event_t) -> Event {
    // SAFETY: each union field is read for the event type that fills it; its strings live
    // until the event is deleted.
    unsafe {
        match event.type_ {
            unsafe_sys::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
            unsafe_sys::YAML_SCALAR_EVENT => {
                let scalar = event.data.scalar;
                let bytes = if scalar.value.is_null() {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(
                        scalar.value,
                        usize::try_from(scalar.length).unwrap_or(0),
                    )
                };
                Event::Scalar {
                    anchor: c_text(scalar.anchor),
                    value: std::str::from_utf8(bytes).ok().map(str::to_string),
                }
            }
            unsafe_sys::YAML_ALIAS_EVENT => {
                Event::Alias(c_text(event.data.alias.anchor).unwrap_or_default())
            }
            unsafe_sys::YAML_SEQUENCE_START_EVENT => Event::Start {
                mapping: false,
                anchor: c_text(event.data.sequence_start.anchor),
            },
            unsafe_sys::YAML_MAPPING_START_EVENT => Event::Start {
                mapping: true,
                anchor: c_text(event.data.mapping_start.anchor),
            },
            unsafe_sys::YAML_SEQUENCE_END_EVENT | unsafe_sys::YAML_MAPPING_END_EVENT => Event::End,
            _ => Event::Other,
        }
    }
}

/// Hands `each` the events libyaml reads from `text`, with where each starts and ends, until
/// the end of the stream or the first syntax error.
fn read_events(text: &str, mut each: impl FnMut(Event, Place, Place)) {
    // Boxed, the parser stays at the address libyaml was given from its initialisation to its
    // deletion.
    let mut parser: Box<MaybeUninit<unsafe_sys::yaml_parser_t>> = Box::new(MaybeUninit::uninit());
    let parser = parser.as_mut_ptr();
    // SAFETY: `yaml_parser_initialize` fills the whole parser (or fails, leaving nothing to
    // free); the input is `text`, which outlives the parser, deleted below.
    unsafe {
        if unsafe_sys::yaml_parser_initialize(parser).fail {
            return;
        }
        unsafe_sys::yaml_parser_set_encoding(parser, unsafe_sys::YAML_UTF8_ENCODING);
        unsafe_sys::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as u64);
    }
    loop {
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        let event = event.as_mut_ptr();
        // SAFETY: the parser was initialised and has not failed (the loop ends at its first
        // failure); a parsed event is read, then deleted once.
        let read = unsafe {
            if unsafe_sys::yaml_parser_parse(parser, event).fail {
                None
            } else {
                let stream_end = (*event).type_ == unsafe_sys::YAML_STREAM_END_EVENT;
                let read = read_event(&*event);
                let marks = (place((*event).start_mark), place((*event).end_mark));
                unsafe_sys::yaml_event_delete(event);
                Some((read, marks, stream_end))
            }
        };
        let Some((read, (start, end), stream_end)) = read else {
            break;
        };
        each(read, start, end);
        if stream_end {
            break;
        }
    }
    // SAFETY: initialised above, deleted once.
    unsafe { unsafe_sys::yaml_parser_delete(parser) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The aliases of `text` whose path begins `message`: name, place, path, anchored node.
    fn listed<'m>(text: &str, message: &'m str) -> Vec<(String, Place, &'m str, Place, Place)> {
        alias_uses(text, message)
            .into_iter()
            .map(|u| (u.name, u.at, &message[..u.path], u.anchor, u.end))
            .collect()
    }

    #[test]
    fn aliases_are_listed_with_their_paths_and_the_nodes_they_repeat() {
        let text =
            "a: &x {b: 1,\n  c: 2}\nlist:\n  - *x\n  - k: *x\n? *x\n: v\nd: &s text\ne: *s\n";
        let x = |at, path| ("x".to_string(), at, path, (1, 4), (2, 8));
        assert_eq!(listed(text, "list[0]: wrong"), [x((4, 5), "list[0]")]);
        assert_eq!(listed(text, "list[1].k.b: wrong"), [x((5, 8), "list[1].k")]);
        assert_eq!(
            listed(text, "e: wrong"),
            [("s".to_string(), (9, 4), "e", (8, 4), (8, 11))]
        );
        // The alias used as a key has the root's path, which no message begins.
        assert_eq!(listed(text, "list: wrong"), []);
        assert_eq!(listed(text, "list[1].kk: wrong"), []);
    }

    #[test]
    fn an_error_is_traced_to_the_alias_whose_path_begins_it() {
        let text = "a: &x {b: 1}\nc:\n  d: *x\n";
        let found = |message: &str, at| {
            let uses = alias_uses(text, message);
            through_alias(&uses, at).map(|u| u.at)
        };
        assert_eq!(found("c.d: invalid type", (1, 4)), Some((3, 6)));
        assert_eq!(found("c.d.b: invalid type", (1, 8)), Some((3, 6)));
        // At the anchor's own place, or outside the node: not through the alias.
        assert_eq!(found("a: invalid type", (1, 4)), None);
        assert_eq!(found("c.d: invalid type", (3, 6)), None);
        assert_eq!(found("c.dx: invalid type", (1, 4)), None);
        // A text that stops parsing lists what came before.
        assert_eq!(alias_uses("a: &x 1\nb: *x\nc: [\n", "b: wrong").len(), 1);
    }

    #[test]
    fn an_error_in_a_node_an_alias_repeats_through_another_is_traced_to_the_outer_alias() {
        // `*y` repeats `&y`, which holds `*x`: serde_yaml finds the error in `&x`'s node.
        let text = "a: &x 1\nb: &y [*x]\nc:\n  d: *y\n";
        let found = |message: &str, at| {
            let uses = alias_uses(text, message);
            through_alias(&uses, at)
                .is_none()
                .then(|| through_nested_alias(&uses, message, at).map(|u| u.at))
                .flatten()
        };
        assert_eq!(found("c.d[0]: invalid type", (1, 4)), Some((4, 6)));
        // At the alias or after it (not in a node it repeats), or a path that only begins
        // like the alias's: not through it.
        assert_eq!(found("c.d: invalid type", (4, 6)), None);
        assert_eq!(found("c.dx[0]: invalid type", (1, 4)), None);
    }

    #[test]
    fn of_aliases_at_one_path_the_first_is_chosen() {
        // Keys serde_yaml does not name give their values the path `m.?`.
        let text = "a: &x 1\nm:\n  ? [1]\n  : *x\n  ? [2]\n  : *x\n";
        let uses = alias_uses(text, "m.?: invalid type");
        assert_eq!(uses.len(), 2);
        assert_eq!(through_alias(&uses, (1, 4)).map(|u| u.at), Some((4, 5)));
    }

    #[test]
    fn an_anchor_given_twice_is_found_at_its_second_place() {
        let text = "a: &x 1\nb: &y 2\nc: &x [3]\nd: &z 4\ne: *x\n";
        let again = anchor_given_twice(text).expect("given twice");
        assert_eq!(
            (again.name.as_str(), again.first, again.again),
            ("x", (1, 4), (3, 4))
        );
        assert!(again.to_string().starts_with(
            "anchor `&x` is given twice (first at line 1, column 4): give each anchor its own name"
        ));
        // One name in each document of a stream, or names used only by aliases: accepted.
        assert_eq!(anchor_given_twice("a: &x 1\n---\nb: &x 2\n"), None);
        assert_eq!(anchor_given_twice("a: &x 1\nb: *x\nc: *x\nd: '&x'\n"), None);
    }

    #[test]
    fn deep_or_wide_texts_are_walked_in_linear_time() {
        // Two million sequences nested on one line, and a million aliases under a key of three
        // million characters: every node's path was built, which took minutes and tens of
        // gigabytes.
        let deep = format!("a: &x 1\nb:\n  {}*x\n", "- ".repeat(2_000_000));
        let started = std::time::Instant::now();
        let uses = alias_uses(&deep, "b[0][0]: recursion limit exceeded");
        assert!(uses.is_empty());
        let key = "k".repeat(3_000_000);
        let wide = format!("a: &x 1\n? {key}\n: [{}1]\n", "*x, ".repeat(1_000_000));
        let message = format!("{key}[7]: invalid type");
        let uses = alias_uses(&wide, &message);
        assert_eq!(uses.len(), 1);
        assert_eq!((uses[0].at, uses[0].path), ((3, 4 + 7 * 4), key.len() + 3));
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }
}
