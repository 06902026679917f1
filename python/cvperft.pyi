"""Perft and rules conformance for chess variants: the reference move generator of cvperft.

Type stubs of the extension module (src/lib.rs); docs/python.md describes the API.
"""

import os
import pathlib
from typing import Any, ClassVar, Iterable, Mapping, Optional, Sequence, Union, final

__all__ = [
    "CvperftError",
    "FenError",
    "MAX_DEPTH",
    "MAX_THREADS",
    "MoveError",
    "Position",
    "SuiteError",
    "VariantError",
    "__version__",
    "check",
    "variants",
]

__version__: str
MAX_DEPTH: int
"""Deepest perft or divide accepted (as the command line)."""
MAX_THREADS: int
"""Most worker threads accepted (as the command line)."""

_Moves = Union[str, Sequence[str]]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class CvperftError(ValueError):
    """Base class of the errors cvperft raises for bad input.

    `field` names what is wrong (`variant`, `option`, `fen`, `position`, `moves`, `move`,
    `san`, `depth`, `threads`, `jobs`, `max_nodes`, `shard`, `paths`, `rule`, `filter`,
    `selection`, or the FEN field), `column` its 1-based column when known (for text that is
    not Unicode, the lone surrogate's).
    """

    field: str
    column: Optional[int]

class VariantError(CvperftError):
    """An unknown variant, an option that is not `name=value`, an unknown option or value."""

class FenError(CvperftError):
    """A FEN that cannot be read (`field`: board, hand, side, castling, en-passant, halfmove,
    fullmove or fen; `column`: 1-based in the FEN) or an illegal position (`field`: position).
    """

class MoveError(CvperftError):
    """Move text or SAN that names no legal move."""

    ply: Optional[int]
    """1-based ply in a path of moves; None for a single move."""
    legal: list[str]
    """The legal moves, closest first (SAN for SAN errors)."""
    kind: Optional[str]
    """`syntax`, `illegal` or `ambiguous`."""

class SuiteError(CvperftError):
    """Suites that cannot be loaded, no suite under the paths, or a selection choosing
    nothing."""

    path: Optional[pathlib.Path]
    """The file of the first problem."""
    line: Optional[int]
    """Its 1-based line, when it has one."""

@final
class Position:
    """A position of one variant under its rule options.

    The start position of `variant` (see `variants()`), or `fen`, with `moves` played from it
    (move text: `e2e4`, `e7e8q`, castling as the King's move, placements `N@b2`, compound
    moves `f1b5,N@a2`; a sequence, or one space-separated string). `options` maps rule option
    names to values, e.g. `{"game-end": "movegen"}` (a list of `"name=value"` texts, as on the
    command line, is taken too).

    Raises VariantError, FenError or MoveError.
    """

    def __new__(
        cls,
        variant: str,
        fen: Optional[str] = None,
        moves: Optional[_Moves] = None,
        options: Optional[Union[Mapping[str, str], Sequence[str]]] = None,
    ) -> "Position": ...
    @property
    def variant(self) -> str:
        """The variant id."""
    @property
    def options(self) -> list[tuple[str, str]]:
        """Every rule option with its value, `game-end` last."""
    def fen(self) -> str:
        """The FEN, normalised as `cvperft fen` prints it."""
    def legal_moves(self) -> list[str]:
        """The legal moves as move text, sorted."""
    def push(self, move: str) -> None:
        """Plays `move` (move text). Raises MoveError if it is not legal here."""
    def play(self, moves: _Moves) -> "Position":
        """A copy with `moves` played. Raises MoveError (with `ply`)."""
    def perft(self, depth: int, threads: int = 1) -> int:
        """Leaf nodes `depth` plies below (0 to MAX_DEPTH), on `threads` threads, with the
        interpreter released; Ctrl-C interrupts it (KeyboardInterrupt). Raises CvperftError
        for a depth or thread count out of range, OverflowError for a count past 64 bits."""
    def divide(self, depth: int, threads: int = 1) -> dict[str, int]:
        """perft(depth - 1) below each legal move, keyed by move text in sorted order;
        Ctrl-C interrupts it (KeyboardInterrupt). OverflowError for a count past 64 bits."""
    def san(self, move: str) -> str:
        """The SAN of `move` (move text). Raises MoveError if it is not legal here."""
    def parse_san(self, text: str) -> str:
        """The move text of the legal move SAN `text` names. Raises MoveError (`field`
        "san", `kind` syntax, illegal or ambiguous)."""
    def board_svg(self) -> str:
        """An SVG picture of the board, as `cvperft fen --format svg` draws it."""
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: Any) -> "Position": ...
    def __eq__(self, value: object, /) -> bool: ...
    # Positions compare by value and change in place (`push`): not hashable, as at run time
    # (`{pos}` is a TypeError), so mypy refuses them as set members and dict keys.
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(
        self,
    ) -> tuple[type["Position"], tuple[str, str, None, list[str]]]:
        """Pickles as the variant, the FEN and the options."""

def variants() -> list[dict[str, Any]]:
    """Every variant: `id`, `name`, `files`, `ranks`, `start_fen`, `options` (each with
    `name`, `values` (default first), `default`, `ruling`, `help`; `game-end` last)."""

def check(
    paths: Union[_Path, Iterable[_Path], None] = None,
    *,
    variant: Optional[str] = None,
    rule: Optional[str] = None,
    filter: Optional[str] = None,
    slow: bool = False,
    deep: bool = False,
    max_nodes: Optional[int] = None,
    shard: Optional[str] = None,
    jobs: Optional[int] = None,
) -> dict[str, Any]:
    """Runs the checks of the suites under `paths` (None: the suites built into cvperft, the
    repository's `suites/` as it was built) against the reference generator and returns the report `cvperft check --format json` writes, as Python objects.

    The filters are `check`'s selection flags; a failed check is in `report["summary"]
    ["failed"]` and `report["results"]`, not raised. Raises SuiteError or CvperftError;
    Ctrl-C interrupts it (KeyboardInterrupt): it starts no further check, and the counts
    running stop within a subtree of four plies."""
