"""The type stubs (cvperft.pyi, shipped with py.typed) describe the module as it is at run time:
mypy's stubtest compares every name, signature and class."""

import pathlib
import subprocess
import sys

import cvperft
import pytest


def test_the_package_ships_its_stubs():
    package = pathlib.Path(cvperft.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "__init__.pyi").is_file()


def test_the_stubs_match_the_module():
    pytest.importorskip("mypy", reason="skipped: mypy (PyPI `mypy`) is not installed")
    allowlist = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cvperft", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_public_name_has_a_docstring():
    for name in cvperft.__all__:
        value = getattr(cvperft, name)
        if callable(value):
            assert value.__doc__, name
    for name in dir(cvperft.Position):
        if not name.startswith("_"):
            assert getattr(cvperft.Position, name).__doc__, f"Position.{name}"



def test_the_stubs_say_a_position_is_not_hashable(tmp_path):
    """A Position is unhashable at run time (it compares by value and `push` changes it),
    `Position.__hash__` is None: the stub said nothing, so mypy took a Position for a
    `Hashable` (a set member, a dict key), which raises TypeError when used."""
    pytest.importorskip("mypy", reason="skipped: mypy (PyPI `mypy`) is not installed")
    assert cvperft.Position.__hash__ is None
    script = tmp_path / "uses.py"
    script.write_text(
        "from collections.abc import Hashable\n"
        "import cvperft\n"
        'pos = cvperft.Position("chess")\n'
        "same: bool = pos == pos.copy()\n"
        "key: Hashable = pos\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", str(script)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    refused = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in refused] == ["5"], done.stdout
    assert "__hash__" in done.stdout, done.stdout
