"""The suites as `cvperft export` writes them, counted through the package: every perft and
divide check of every variant (up to a node budget) from the JSON Lines export, and the chess
EPD export read by python-chess (PyPI `chess`) and counted by both."""

import sys

import cvperft
import pytest
from conftest import REPO, load_jsonl

MAX_NODES = 200_000


def position(item):
    options = dict(item["options"])
    options["game-end"] = item["game_end"]
    return cvperft.Position(item["variant"], fen=item["fen"], moves=item["moves"], options=options)


@pytest.fixture(scope="module")
def exported(cli):
    items = load_jsonl(cli("export", "--format", "jsonl", "--max-nodes", MAX_NODES).stdout)
    # xfail items hold what we believe right and our generator is known to miss.
    return [i for i in items if i["kind"] in ("perft", "divide") and i["status"] != "xfail"]


def test_every_variant_is_exported(exported):
    assert {i["variant"] for i in exported} == {v["id"] for v in cvperft.variants()}


def test_exported_counts_are_met(exported):
    wrong = []
    for item in exported:
        pos = position(item)
        assert pos.fen() == item["fen_after"], item["name"]
        if item["kind"] == "perft":
            got = pos.perft(item["depth"])
            if got != item["expected"]:
                wrong.append(f"{item['name']}: {got} != {item['expected']}")
        else:
            got = pos.divide(item["depth"])
            if got != item["divide"]:
                wrong.append(f"{item['name']}: the divide differs")
    assert not wrong, "\n".join(wrong)


def test_python_chess_reads_the_epd_export_and_counts_the_same(cli):
    chess = pytest.importorskip(
        "chess", reason="skipped: python-chess (PyPI `chess`) is not installed"
    )
    # python-chess's perft as tests/export.rs counts it (tests/python/python_chess_perft.py).
    sys.path.insert(0, str(REPO / "tests" / "python"))
    from python_chess_perft import perft as python_chess_perft

    lines = cli(
        "export", "--format", "epd", "-v", "chess", "--max-nodes", 50_000
    ).stdout.splitlines()
    assert lines
    counted = 0
    for line in lines:
        board = chess.Board()
        ops = board.set_epd(line)
        ours = cvperft.Position("chess", fen=board.fen(), options={"game-end": ops["game-end"]})
        assert ours.fen() == board.fen(), ops["id"]
        for depth in range(1, 4):
            expected = ops.get(f"D{depth}")
            if expected is None or expected > 50_000:
                continue
            assert ours.perft(depth) == int(expected) == python_chess_perft(board, depth), (
                ops["id"],
                depth,
            )
            counted += 1
    assert counted >= 20
