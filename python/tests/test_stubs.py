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
