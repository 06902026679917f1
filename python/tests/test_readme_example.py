"""The pytest example of README.md ("Python"), run as it is written there, with a stand-in for
the user's `my_movegen`: orthodox chess through python-chess. It passes as written, and
fails naming the move when the stand-in generator is broken."""

import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"

STAND_IN = """
import chess


class Board:
    def __init__(self, board):
        self.board = board

    def legal_moves(self):
        return [m.uci() for m in self.board.legal_moves if BROKEN not in m.uci()]

    def play(self, move):
        after = self.board.copy(stack=False)
        after.push_uci(move)
        return Board(after)


def from_fen(fen):
    return Board(chess.Board(fen))
"""


def example():
    text = README.read_text()
    section = text[text.index("### Python") :]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    (test,) = [b for b in blocks if "def test_" in b]
    return test


def run(tmp_path, broken):
    pytest.importorskip("chess", reason="skipped: python-chess (PyPI `chess`) is not installed")
    (tmp_path / "test_my_movegen.py").write_text(example())
    (tmp_path / "my_movegen.py").write_text(f"BROKEN = {broken!r}\n" + STAND_IN)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_my_movegen.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_example_passes_for_a_right_generator(tmp_path):
    done = run(tmp_path, broken="no move has this text")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_the_example_names_the_first_wrong_move(tmp_path):
    # A generator that misses Black's capture h3xg2 in Kiwipete: the root moves are right,
    # the counts below them are not, and the failure names a root move to descend into.
    done = run(tmp_path, broken="h3g2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed" in done.stdout
    assert re.search(
        r"AssertionError: after [a-h][1-8][a-h][1-8]: compare divide 1", done.stdout
    ), done.stdout
