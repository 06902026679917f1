"""Hostile input: every refusal is a ValueError subclass naming the field (and the column when
there is one) or a TypeError for a wrong type; nothing crashes the interpreter, nothing
hangs."""

import collections.abc
import itertools
import os
import pathlib
import signal
import subprocess
import sys
import types

import cvperft
import pytest


def raised(kind, call):
    with pytest.raises(kind) as info:
        call()
    return info.value


def test_the_classes():
    for kind in (cvperft.VariantError, cvperft.FenError, cvperft.MoveError, cvperft.SuiteError):
        assert issubclass(kind, cvperft.CvperftError)
    assert issubclass(cvperft.CvperftError, ValueError)


def test_unknown_variant_and_options():
    e = raised(cvperft.VariantError, lambda: cvperft.Position("nosuch"))
    assert (
        e.field == "variant" and "unknown variant `nosuch`" in str(e) and "pink-panther" in str(e)
    )
    e = raised(cvperft.VariantError, lambda: cvperft.Position("chess", options={"foo": "bar"}))
    assert e.field == "option" and "no option `foo`" in str(e)
    e = raised(
        cvperft.VariantError, lambda: cvperft.Position("cerimon", options={"resurrect-by": "x"})
    )
    assert e.field == "option"
    e = raised(
        cvperft.VariantError, lambda: cvperft.Position("chess", options={"game-end": "never"})
    )
    assert "game-end" in str(e)
    e = raised(cvperft.VariantError, lambda: cvperft.Position("chess", options=["game-end"]))
    assert e.field == "option" and "not of the form name=value" in str(e)
    assert cvperft.Position("chess", options=["game-end=movegen"]).options == [
        ("game-end", "movegen")
    ]


def test_bad_fen_names_field_and_column():
    e = raised(cvperft.FenError, lambda: cvperft.Position("chess", fen="8/8 w - - 0 1"))
    assert (e.field, e.column) == ("board", 1)
    e = raised(cvperft.FenError, lambda: cvperft.Position("chess", fen="8/8/8/8/8/8/8/8 x - - 0 1"))
    assert e.field == "side" and e.column == 17
    e = raised(cvperft.FenError, lambda: cvperft.Position("chess", fen="8/8/8/8/8/8/8/8 w - - 0 1"))
    assert e.field == "position" and e.column is None, "no King: well formed, not legal"
    e = raised(cvperft.FenError, lambda: cvperft.Position("chess", fen="k" * 100_000))
    # Too long as a whole: no column would point at what is wrong.
    assert (e.field, e.column) == ("fen", None) and "longer than 512 characters" in str(e)
    assert "column" not in str(e)
    raised(cvperft.FenError, lambda: cvperft.Position("chess", fen=""))
    raised(cvperft.FenError, lambda: cvperft.Position("chess", fen="\x00\u2028\U0001f600"))


def test_bad_moves_name_ply_and_column():
    e = raised(cvperft.MoveError, lambda: cvperft.Position("chess", moves=["e2e4", "e2e4"]))
    assert (e.field, e.ply, e.column, e.kind) == ("moves", 2, None, "illegal")
    assert "e7e5" in e.legal
    e = raised(cvperft.MoveError, lambda: cvperft.Position("chess", moves="e2e4 zz"))
    assert (e.field, e.ply, e.column, e.kind) == ("moves", 2, 1, "syntax")
    e = raised(cvperft.MoveError, lambda: cvperft.Position("chess", moves=["e2e4 e7e5"]))
    assert e.ply == 1, "one element is one move"
    e = raised(cvperft.MoveError, lambda: cvperft.Position("chess", moves=["a2a3", "a7a6"] * 5001))
    assert "at most 10000" in str(e)
    pos = cvperft.Position("chess")
    e = raised(cvperft.MoveError, lambda: pos.push("e2e5"))
    assert (e.field, e.ply, e.kind) == ("move", None, "illegal")
    e = raised(cvperft.MoveError, lambda: pos.push("x" * 10_000))
    # Too long as a whole: a syntax error with no column that would point at what is wrong.
    assert (e.column, e.kind) == (None, "syntax") and "longer than 64 characters" in str(e)
    assert pos == cvperft.Position("chess"), "a refused move changes nothing"
    raised(cvperft.MoveError, lambda: pos.san("e1e2"))


def test_bad_san_names_kind_and_column():
    pos = cvperft.Position("chess")
    e = raised(cvperft.MoveError, lambda: pos.parse_san("Qh5x"))
    assert (e.field, e.kind, e.column) == ("san", "syntax", 4)
    # The length limit counts characters: 42 of them are not "longer than 64 characters".
    e = raised(cvperft.MoveError, lambda: pos.parse_san("é" * 40 + "f3"))
    assert (e.kind, e.column) == ("syntax", 1) and "longer than" not in str(e), str(e)
    e = raised(cvperft.MoveError, lambda: pos.parse_san("Ke2"))
    assert e.kind == "illegal"
    # A well-formed move that is not legal, or is ambiguous, has no column (as for move
    # text): each had column 1, and the message said "column 1".
    e = raised(cvperft.MoveError, lambda: pos.parse_san("O-O"))
    assert (e.field, e.kind, e.column) == ("san", "illegal", None)
    assert str(e).startswith("SAN `O-O`: not a legal move here"), str(e)
    e = raised(
        cvperft.MoveError,
        lambda: cvperft.Position("chess", fen="k7/8/8/8/8/8/8/KN3N2 w - - 0 1").parse_san("Nd2"),
    )
    assert e.kind == "ambiguous" and sorted(e.legal) == ["Nbd2", "Nfd2"] and e.column is None
    assert str(e).startswith("SAN `Nd2`: ambiguous"), str(e)
    # Too long as a whole: no column, and the text quoted by its first 40 characters and its
    # length, as move text is (it was column 1 and the whole text cut as a long word).
    e = raised(cvperft.MoveError, lambda: pos.parse_san("N" * 500))
    assert (e.kind, e.column) == ("syntax", None)
    assert str(e) == "SAN `" + "N" * 40 + "…` (500 characters): longer than 64 characters"
    e = raised(cvperft.MoveError, lambda: pos.push("x" * 500))
    assert str(e) == "move `" + "x" * 40 + "…` (500 characters): longer than 64 characters"


def test_figurine_san_reads_as_letters_and_errors_place_the_figurine():
    pos = cvperft.Position("chess")
    assert pos.parse_san("\u2658f3") == pos.parse_san("Nf3") == "g1f3"
    assert pos.parse_san("\u265ec3") == "b1c3"
    # A column counts the figurine as one character, and the message quotes it as written.
    e = raised(cvperft.MoveError, lambda: pos.parse_san("\u2658kf3"))
    assert (e.kind, e.column) == ("syntax", 2) and "\u2658kf3" in str(e)
    e = raised(cvperft.MoveError, lambda: pos.parse_san("\u2658f6"))
    assert e.kind == "illegal" and "\u2658f6" in str(e)


def test_depth_and_threads_are_bounded_as_on_the_command_line():
    pos = cvperft.Position("chess")
    # Numbers of any size or sign are refused naming the argument (10**30 and -2**70 were an
    # OverflowError, "Python int too large to convert to C long", naming none).
    for depth in (cvperft.MAX_DEPTH + 1, 10**30, -1, -(2**70), 2**64 + 1):
        for count in (pos.perft, pos.divide):
            e = raised(cvperft.CvperftError, lambda: count(depth))
            assert e.field == "depth" and str(e) == f"depth {depth}: expected 0 to 15"
    for threads in (0, cvperft.MAX_THREADS + 1, -3, 2**64, -(2**64)):
        for count in (pos.perft, pos.divide):
            e = raised(cvperft.CvperftError, lambda: count(1, threads=threads))
            assert e.field == "threads" and str(e) == f"threads {threads}: expected 1 to 256"
    for jobs in (0, -1, 2**70):
        e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", jobs=jobs))
        assert e.field == "jobs" and str(e) == f"--jobs {jobs}: expected 1 to 256"
    for max_nodes in (-1, 2**64):
        e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", max_nodes=max_nodes))
        assert e.field == "max_nodes" and f"max_nodes {max_nodes}: expected 0" in str(e)
    # A bool is an int, as Python has it.
    assert pos.perft(True) == 20 and pos.perft(2, threads=True) == 400


def test_integers_too_long_to_write_out_are_refused_naming_the_argument():
    """An int of 4300 digits or more was a plain ValueError naming no argument ("Exceeds the
    limit (4300 digits) for integer string conversion"): the message wrote the number out.
    Past 512 bits the message gives its size instead."""
    pos = cvperft.Position("chess")
    huge = 10**4300
    bits = huge.bit_length()
    e = raised(cvperft.CvperftError, lambda: pos.perft(huge))
    assert e.field == "depth" and str(e) == f"depth (an int of {bits} bits): expected 0 to 15"
    e = raised(cvperft.CvperftError, lambda: pos.divide(-huge))
    assert str(e) == f"depth (a negative int of {bits} bits): expected 0 to 15"
    e = raised(cvperft.CvperftError, lambda: pos.perft(1, threads=huge))
    assert e.field == "threads" and str(e) == f"threads (an int of {bits} bits): expected 1 to 256"
    e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", jobs=10**5000))
    assert e.field == "jobs" and "bits): expected 1 to 256" in str(e)
    e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", max_nodes=-(10**5000)))
    assert e.field == "max_nodes" and "(a negative int of 16610 bits)" in str(e)
    e = raised(cvperft.CvperftError, lambda: pos.perft(Index(huge)))
    assert e.field == "depth"
    # Up to 512 bits the number is written out, past them it is not.
    e = raised(cvperft.CvperftError, lambda: pos.perft(2**512 - 1))
    assert str(e) == f"depth {2**512 - 1}: expected 0 to 15"
    e = raised(cvperft.CvperftError, lambda: pos.perft(-(2**512)))
    assert str(e) == "depth (a negative int of 513 bits): expected 0 to 15"


def test_an_option_name_holding_an_equals_sign_is_refused_as_such():
    # Joined as "name=value", it was read as another option: game-end = "rules=movegen".
    options = {"game-end=rules": "movegen"}
    e = raised(cvperft.VariantError, lambda: cvperft.Position("chess", options=options))
    assert e.field == "option" and "option name `game-end=rules` holds `=`" in str(e)


def test_wrong_types_are_type_errors():
    raised(TypeError, lambda: cvperft.Position(3))
    raised(TypeError, lambda: cvperft.Position("chess", fen=3))
    raised(TypeError, lambda: cvperft.Position("chess", moves=3))
    raised(TypeError, lambda: cvperft.Position("chess", moves=[1, 2]))
    raised(TypeError, lambda: cvperft.Position("chess", options="game-end=rules"))
    raised(TypeError, lambda: cvperft.Position("chess", options=[("game-end", "rules")]))
    raised(TypeError, lambda: cvperft.Position("chess", options={"game-end": 1}))
    pos = cvperft.Position("chess")
    raised(TypeError, lambda: pos.perft("3"))
    raised(TypeError, lambda: pos.perft(3.0))
    raised(TypeError, lambda: pos.divide(None))
    raised(TypeError, lambda: pos.perft(1, threads=1.0))
    raised(TypeError, lambda: cvperft.check("suites", jobs="2"))
    raised(TypeError, lambda: pos.push(None))
    raised(TypeError, lambda: cvperft.check(3))
    raised(TypeError, lambda: cvperft.check("suites", max_nodes="x"))
    raised(TypeError, lambda: cvperft.check("suites", "chess"))


class Index:
    """An integer-like object as NumPy's integers are: not an int, but an index."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


def test_integer_like_arguments_are_taken_as_python_takes_indices():
    pos = cvperft.Position("chess")
    assert pos.perft(Index(3)) == pos.perft(3) == 8902
    assert pos.perft(Index(2), threads=Index(2)) == 400
    e = raised(cvperft.CvperftError, lambda: pos.perft(Index(10**30)))
    assert e.field == "depth"
    raised(TypeError, lambda: pos.perft(Index("3")))


def test_what_index_raises_is_raised_as_it_is():
    """Only a value that is no index is a TypeError: what `__index__` raises itself
    (KeyboardInterrupt above all) was turned into `TypeError: depth: expected an int`."""

    class Raising:
        def __init__(self, error):
            self.error = error

        def __index__(self):
            raise self.error

    pos = cvperft.Position("chess")
    raised(KeyboardInterrupt, lambda: pos.perft(Raising(KeyboardInterrupt())))
    raised(MemoryError, lambda: pos.perft(3, threads=Raising(MemoryError())))
    e = raised(ValueError, lambda: cvperft.check("suites", jobs=Raising(ValueError("own"))))
    assert str(e) == "own" and not isinstance(e, cvperft.CvperftError)
    raised(TypeError, lambda: pos.perft(Raising(TypeError("not an index"))))


def test_suite_errors(tmp_path):
    missing = tmp_path / "missing.yaml"
    e = raised(cvperft.SuiteError, lambda: cvperft.check(missing))
    assert e.field == "paths" and pathlib.Path(e.path) == missing and e.line is None
    broken = tmp_path / "broken.yaml"
    broken.write_text("variant: chess\ncases:\n  - id: a\n    fen: [unclosed\n")
    e = raised(cvperft.SuiteError, lambda: cvperft.check([broken]))
    assert pathlib.Path(e.path) == broken and e.line is not None and str(broken) in str(e)
    empty = tmp_path / "empty"
    empty.mkdir()
    e = raised(cvperft.SuiteError, lambda: cvperft.check(empty))
    assert "no suite" in str(e)
    e = raised(cvperft.SuiteError, lambda: cvperft.check([]))
    assert e.field == "paths" and "no path given" in str(e), str(e)
    e = raised(cvperft.SuiteError, lambda: cvperft.check("suites", variant="nosuch"))
    assert e.field == "variant"
    e = raised(cvperft.SuiteError, lambda: cvperft.check("suites", rule="NO-1"))
    assert e.field == "rule"
    e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", shard="3/2"))
    assert e.field == "shard"
    e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", jobs=0))
    assert e.field == "jobs"


def test_nothing_selected(repo):
    e = raised(
        cvperft.SuiteError,
        lambda: cvperft.check(repo / "suites" / "chess.yaml", filter="no such check"),
    )
    assert "no check matches" in str(e)


def test_the_interpreter_survives_a_storm_of_bad_input():
    """Thousands of refusals in a child interpreter, which must end normally."""
    script = """
import cvperft, random
rng = random.Random(1)
alphabet = "pnbrqkPNBRQK12345678/ -wb@*+[],x=KQkq\\x00\\u00e9"
for i in range(3000):
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
    for call in (lambda: cvperft.Position(rng.choice(["chess", "cerimon", "pink-panther"]), fen=text),
                 lambda: cvperft.Position("chess").push(text),
                 lambda: cvperft.Position("silver-elephant").parse_san(text)):
        try:
            call()
        except ValueError:
            pass
print("survived")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "survived"


# A lone surrogate (U+D800 to U+DFFF) is not Unicode text: UTF-8 cannot encode it. Python makes
# them of bytes that are not UTF-8 (`b"\xff".decode("utf-8", "surrogateescape")` is "\udcff").
# Each text argument refuses one as its own error class, naming the argument and the column.
SURROGATE_CASES = [
    # (call, class, field, column, ply, the message's start)
    (lambda: cvperft.Position("ch\udcffess"), cvperft.VariantError, "variant", 3, None,
     "variant, column 3: U+DCFF"),
    (lambda: cvperft.Position("chess", fen="8/8\ud800"), cvperft.FenError, "fen", 4, None,
     "fen, column 4: U+D800"),
    (lambda: cvperft.Position("chess", moves="e2e4  e7\udcffe5"), cvperft.MoveError, "moves", 3,
     2, "moves: ply 2, column 3: U+DCFF"),
    (lambda: cvperft.Position("chess", moves="e2e4 \udcff"), cvperft.MoveError, "moves", 1, 2,
     "moves: ply 2, column 1: U+DCFF"),
    (lambda: cvperft.Position("chess", moves=("e2e4", "e7e5", "\udfff")), cvperft.MoveError,
     "moves", 1, 3, "moves: ply 3, column 1: U+DFFF"),
    (lambda: cvperft.Position("chess", options={"game-end": "rul\udcffes"}), cvperft.VariantError,
     "option", 4, None, "options: the value of `game-end`, column 4: U+DCFF"),
    (lambda: cvperft.Position("chess", options={"\udcff": "rules"}), cvperft.VariantError,
     "option", 1, None, "options: a name, column 1: U+DCFF"),
    (lambda: cvperft.Position("chess", options=["game-end=\udcff"]), cvperft.VariantError,
     "option", 10, None, "options: item 1, column 10: U+DCFF"),
    (lambda: cvperft.Position("chess").push("e2e4\ud800"), cvperft.MoveError, "move", 5, None,
     "move, column 5: U+D800"),
    (lambda: cvperft.Position("chess").san("\udcffe2e4"), cvperft.MoveError, "move", 1, None,
     "move, column 1: U+DCFF"),
    (lambda: cvperft.Position("chess").parse_san("Nf3\udcff"), cvperft.MoveError, "san", 4, None,
     "san, column 4: U+DCFF"),
    (lambda: cvperft.Position("chess").play(["e2e4\udcff"]), cvperft.MoveError, "moves", 5, 1,
     "moves: ply 1, column 5: U+DCFF"),
    (lambda: cvperft.check("suites", variant="\udcff"), cvperft.SuiteError, "variant", 1, None,
     "variant, column 1: U+DCFF"),
    (lambda: cvperft.check("suites", rule="GE-\udcff"), cvperft.SuiteError, "rule", 4, None,
     "rule, column 4: U+DCFF"),
    (lambda: cvperft.check("suites", filter="::\udcff"), cvperft.SuiteError, "filter", 3, None,
     "filter, column 3: U+DCFF"),
    (lambda: cvperft.check("suites", shard="1/\udcff"), cvperft.CvperftError, "shard", 3, None,
     "shard, column 3: U+DCFF"),
    # A path's U+DC80..U+DCFF stand for bytes (below); U+D800 stands for nothing.
    (lambda: cvperft.check("suites/\ud800"), cvperft.SuiteError, "paths", 8, None,
     "paths, column 8: U+D800"),
    (lambda: cvperft.check(["suites", "x\ud800"]), cvperft.SuiteError, "paths", 2, None,
     "paths: item 2, column 2: U+D800"),
]


@pytest.mark.parametrize("case", range(len(SURROGATE_CASES)))
def test_a_lone_surrogate_is_refused_naming_the_argument_and_column(case):
    call, kind, field, column, ply, start = SURROGATE_CASES[case]
    # Not a UnicodeEncodeError (a ValueError too, but naming no argument).
    e = raised(cvperft.CvperftError, call)
    assert type(e) is kind, (type(e), str(e))
    assert (e.field, e.column) == (field, column), str(e)
    assert str(e).startswith(start) and "lone surrogate, not Unicode text" in str(e), str(e)
    if kind is cvperft.MoveError:
        assert (e.ply, e.kind) == (ply, "syntax")


def test_paths_that_are_not_utf8_are_taken_as_bytes_str_or_path_objects(repo, tmp_path):
    # A directory whose name is not UTF-8 (legal on Linux), holding a suite.
    name = os.fsencode(tmp_path) + b"/suites-\xff"
    os.mkdir(name)
    with open(name + b"/chess.yaml", "wb") as out:
        out.write((repo / "suites" / "chess.yaml").read_bytes())

    class BytesPath:
        def __fspath__(self):
            return name

    expected = cvperft.check(repo / "suites" / "chess.yaml", filter="::start::", jobs=1)
    assert expected["summary"]["passed"] > 0
    for given in (name, os.fsdecode(name), pathlib.Path(os.fsdecode(name)), BytesPath(), [name]):
        report = cvperft.check(given, filter="::start::", jobs=1)
        assert report["summary"] == expected["summary"], given
    # A missing file of such a name: the error's `path` gives the same bytes back.
    missing = name + b"/missing-\xfe.yaml"
    e = raised(cvperft.SuiteError, lambda: cvperft.check(missing))
    assert e.field == "paths" and os.fsencode(e.path) == missing


def test_wrong_types_name_the_argument():
    pos = cvperft.Position("chess")
    for call, start in [
        (lambda: cvperft.Position(None), "variant: expected a str, not NoneType"),
        (lambda: cvperft.Position("chess", fen=b"8/8"), "fen: expected a str, not bytes"),
        (lambda: cvperft.Position("chess", moves=b"e2e4"), "moves: expected a str or a sequence"),
        (lambda: cvperft.Position("chess", moves=["e2e4", None]), "moves: ply 2: expected a str"),
        (lambda: cvperft.Position("chess", options={"game-end": None}),
         "options: the value of `game-end`: expected a str, not NoneType"),
        (lambda: cvperft.Position("chess", options={1: "rules"}), "options: a name: expected"),
        (lambda: cvperft.Position("chess", options=5), "options: expected a mapping"),
        (lambda: pos.push(None), "move: expected a str, not NoneType"),
        (lambda: pos.san(1), "move: expected a str, not int"),
        (lambda: pos.parse_san(None), "san: expected a str, not NoneType"),
        (lambda: pos.play(None), "moves: expected a str or a sequence of str, not NoneType"),
        (lambda: cvperft.check(5), "paths: expected a path or an iterable of paths"),
        (lambda: cvperft.check(["suites", None]), "paths: item 2: expected a path"),
        (lambda: cvperft.check("suites", variant=3), "variant: expected a str, not int"),
        (lambda: cvperft.check("suites", rule=b"GE-1"), "rule: expected a str, not bytes"),
        (lambda: cvperft.check("suites", filter=["x"]), "filter: expected a str, not list"),
        (lambda: cvperft.check("suites", shard=2), "shard: expected a str, not int"),
        (lambda: cvperft.check("suites", slow=1), "slow: expected a bool, not int"),
        (lambda: cvperft.check("suites", deep="yes"), "deep: expected a bool, not str"),
    ]:
        e = raised(TypeError, call)
        assert str(e).startswith(start), str(e)


def test_messages_are_the_command_line_s_one_line():
    # A long name is quoted by its start and its length (a 10 MB variant name made a 10 MB
    # message), what would act on a terminal is escaped (an ESC sequence coloured the
    # traceback), line breaks are written \n: as `cvperft` writes its messages on stderr.
    e = raised(cvperft.VariantError, lambda: cvperft.Position("x" * 10**6 + "yz"))
    assert e.field == "variant" and len(str(e)) < 400, len(str(e))
    assert str(e).startswith("unknown variant `" + "x" * 40 + "…` (1000002 characters)"), str(e)
    assert "pink-panther" in str(e)
    e = raised(cvperft.VariantError, lambda: cvperft.Position("chess\x1b[31m\nred"))
    assert "chess\\u{1b}[31m\\nred" in str(e) and "\x1b" not in str(e) and "\n" not in str(e)
    e = raised(cvperft.MoveError, lambda: cvperft.Position("chess").parse_san("N" * 10**6))
    assert len(str(e)) < 400 and e.column is None
    e = raised(cvperft.CvperftError, lambda: cvperft.check("suites", shard="1" * 10**5 + "/2"))
    assert e.field == "shard" and len(str(e)) < 400


def test_every_problem_of_the_suites_stays_in_the_message(tmp_path):
    paths = []
    for i in range(30):
        path = tmp_path / f"broken-{i:02}.yaml"
        path.write_text("variant: chess\ncases:\n  - id: a\n    fen: [unclosed\n")
        paths.append(path)
    e = raised(cvperft.SuiteError, lambda: cvperft.check(paths))
    # Each problem is cut as a line of its own, not the whole message as one line.
    assert len(str(e)) > 2000 and all(p.name in str(e) for p in paths), str(e)


class Endless(collections.abc.Sequence):
    """A sequence of a trillion moves, each made when asked for."""

    def __len__(self):
        return 10**12

    def __getitem__(self, i):
        if i >= len(self):
            raise IndexError(i)
        return "e2e4"


def test_too_many_moves_are_refused_before_they_are_read():
    # Ten million moves took six seconds to read before the refusal; a trillion aborted the
    # interpreter ("memory allocation of 24000000000000 bytes failed").
    for moves in (Endless(), ["a2a3"] * (10**7)):
        e = raised(cvperft.MoveError, lambda: cvperft.Position("chess", moves=moves))
        assert e.field == "moves" and f"{len(moves)} moves, at most 10000" in str(e)
    # As many as are accepted are played.
    start = cvperft.Position("chess", options={"game-end": "movegen"})
    board = start.play(["g1f3", "g8f6", "f3g1", "f6g8"] * 2500).fen().split()[0]
    assert board == start.fen().split()[0]


class Understated(collections.abc.Sequence):
    """A sequence that says it has 5 moves and gives them for ever."""

    def __len__(self):
        return 5

    def __getitem__(self, i):
        return "g1f3"


def test_moves_past_the_limit_are_refused_whatever_the_length_says():
    # Read until memory ran out (200 MB a second): the length was within the limit.
    for call in (
        lambda: cvperft.Position("chess", moves=Understated()),
        lambda: cvperft.Position("chess").play(Understated()),
    ):
        e = raised(cvperft.MoveError, call)
        assert e.field == "moves" and e.ply is None, str(e)
        assert "more than 10000 moves, at most 10000" in str(e), str(e)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cvperft.check(itertools.repeat("suites")),
        lambda: cvperft.Position("chess", options=Endless()),
    ],
)
def test_an_endless_iterable_stops_on_a_signal(call):
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        raised(KeyboardInterrupt, call)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Options(collections.abc.Mapping):
    """A mapping of its own making, whose `items()` may be made wrong."""

    def __init__(self, items=None):
        self.given = items

    def __getitem__(self, name):
        return "movegen"

    def __len__(self):
        return 1

    def __iter__(self):
        return iter(["game-end"])

    def items(self):
        return self.given if self.given is not None else super().items()


def test_options_take_any_mapping():
    for options in (types.MappingProxyType({"game-end": "movegen"}), Options()):
        assert cvperft.Position("chess", options=options).options == [("game-end", "movegen")]
    # `items()` giving no pairs: a TypeError naming the item, not pyo3's ValueError "expected
    # tuple of length 2, but got tuple of length 1" naming nothing.
    for items, kind in (([("game-end",)], "tuple"), ([1], "int"), ([("a", "b", "c")], "tuple")):
        e = raised(TypeError, lambda: cvperft.Position("chess", options=Options(items)))
        assert str(e) == f"options: item 1: expected a (name, value) pair, not {kind}"
