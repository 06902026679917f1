"""The package answers as the `cvperft` binary does, on positions of every variant of the
registry under every value of every rule option: FEN, legal moves, perft, divide, SAN and the
board picture. Both go through the same library (cvperft::request, cvperft::perft); these
tests check the binding's translation, not the rules (the suites do that)."""

import copy
import pickle
import random
import zlib

import cvperft
import pytest
from conftest import divide_lines

VARIANTS = cvperft.variants()


def readings():
    """(variant, options) for every variant: the defaults, then each other value of each
    option on its own."""
    for v in VARIANTS:
        yield pytest.param(v["id"], {}, id=f"{v['id']}-default")
        for option in v["options"]:
            for value in option["values"][1:]:
                yield pytest.param(
                    v["id"], {option["name"]: value}, id=f"{v['id']}-{option['name']}={value}"
                )


def walk(variant, options, plies, seed):
    """Moves of a seeded random game of at most `plies` plies."""
    rng = random.Random(seed)
    pos = cvperft.Position(variant, options=options)
    moves = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        pos.push(move)
        moves.append(move)
    return moves


def option_args(options):
    return [arg for name, value in options.items() for arg in ("-o", f"{name}={value}")]


def test_variants_are_the_registry(cli):
    listed = cli("variants").stdout
    ids = [line.split()[0] for line in listed.splitlines() if not line.startswith(" ")]
    assert [v["id"] for v in VARIANTS] == ids
    for v in VARIANTS:
        assert f"{v['id']} ({v['files']}x{v['ranks']}) {v['name']}" in listed
        assert f"  start: {v['start_fen']}" in listed
        assert v["options"][-1]["name"] == "game-end"
        for o in v["options"]:
            assert o["default"] == o["values"][0]
            assert (
                f"  option {o['name']} = {' | '.join(o['values'])} (default {o['default']}; {o['ruling']})"
                in listed
            )


@pytest.mark.parametrize("variant,options", list(readings()))
@pytest.mark.parametrize("plies", [0, 5])
def test_position_matches_the_cli(cli, variant, options, plies):
    moves = walk(variant, options, plies, seed=zlib.crc32(f"{variant}/{plies}".encode()))
    pos = cvperft.Position(variant, moves=moves, options=options)
    args = ["-v", variant, *option_args(options)]
    if moves:
        args += ["--moves", " ".join(moves)]
    assert pos.fen() == cli("fen", *args).stdout.splitlines()[0]
    depth = 3 if plies == 0 else 2
    assert pos.perft(depth) == int(cli("perft", depth, *args).stdout)
    assert pos.perft(depth, threads=2) == pos.perft(depth)
    divide = pos.divide(2)
    assert divide == divide_lines(cli("divide", 2, *args).stdout)
    assert list(divide) == sorted(divide)
    assert pos.legal_moves() == sorted(divide_lines(cli("divide", 1, *args).stdout))
    # SAN: as `divide --san` writes it, and back.
    sans = {}
    for line in cli("divide", 1, "--san", *args).stdout.splitlines():
        if not line.strip():
            break
        move, san, _ = line.split()
        sans[move] = san
    for move in pos.legal_moves():
        assert pos.san(move) == sans[move]
        assert pos.parse_san(sans[move]) == move
    # The same position from its FEN, and the picture `fen --format svg` draws.
    assert cvperft.Position(variant, fen=pos.fen(), options=options) == pos
    assert pos.board_svg() + "\n" == cli("fen", "--format", "svg", *args).stdout


def test_push_and_play_agree_with_a_path():
    moves = walk("pink-panther", {}, 8, seed=7)
    pushed = cvperft.Position("pink-panther")
    for move in moves:
        pushed.push(move)
    assert pushed == cvperft.Position("pink-panther", moves=moves)
    assert pushed == cvperft.Position("pink-panther", moves=" ".join(moves))
    assert pushed == cvperft.Position("pink-panther").play(moves)
    start = cvperft.Position("pink-panther")
    start.copy().push(moves[0])
    assert start == cvperft.Position("pink-panther"), "a copy is independent"


def test_depth_zero_and_a_finished_game():
    pos = cvperft.Position("chess")
    assert pos.perft(0) == 1
    assert pos.divide(0) == {}
    mated = cvperft.Position("chess", moves="f2f3 e7e5 g2g4 d8h4")
    assert mated.legal_moves() == []
    assert mated.perft(3) == 0
    assert mated.divide(3) == {}


def test_copies_and_pickles_are_equal():
    pos = cvperft.Position(
        "bachelor-kamil",
        moves=walk("bachelor-kamil", {"black-array": "rotational"}, 6, seed=3),
        options={"black-array": "rotational", "game-end": "movegen"},
    )
    for other in (pos.copy(), copy.copy(pos), copy.deepcopy(pos), pickle.loads(pickle.dumps(pos))):
        assert other == pos and other is not pos
        assert other.options == pos.options and other.perft(2) == pos.perft(2)


def test_equality_defers_to_other_types_and_repr_shows_the_options():
    """`pos == x` for an x that is not a Position is NotImplemented, so Python asks x
    (`pos == mock.ANY` was False while `mock.ANY == pos` was True); repr names the options
    not at their default, so positions that compare unequal never read alike, and it reads
    back as an equal position."""
    from unittest import mock

    pos = cvperft.Position("chess")
    assert pos == mock.ANY and mock.ANY == pos
    assert [pos] == [mock.ANY] and {"p": pos} == {"p": mock.ANY}
    assert pos.__eq__(1) is NotImplemented
    assert pos != 1 and not (pos == "chess")
    movegen = cvperft.Position("chess", options={"game-end": "movegen"})
    assert movegen != pos and repr(movegen) != repr(pos)
    assert repr(pos) == (
        'Position("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")'
    )
    assert repr(movegen) == (
        'Position("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", '
        'options={"game-end": "movegen"})'
    )
    kamil = cvperft.Position(
        "bachelor-kamil", options={"medinese": "continue", "black-array": "rotational"}
    )
    for p in (pos, movegen, kamil):
        assert eval(repr(p), {"Position": cvperft.Position}) == p
    try:
        hash(pos)
    except TypeError:
        pass
    else:
        raise AssertionError("a Position is not hashable: it compares by value and changes")

