"""Shared fixtures: the repository root and the `cvperft` binary the package is compared with.

The binary is `$CVPERFT_BIN` if set (then it must exist), else `target/release/cvperft` of
this repository (`cargo build --release`); tests that need it are skipped with a message
when neither is there. `.ci/run` sets CVPERFT_BIN, so on CI they always run.
"""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli():
    given = os.environ.get("CVPERFT_BIN")
    path = pathlib.Path(given) if given else REPO / "target" / "release" / "cvperft"
    if not path.is_file():
        if given:
            pytest.fail(f"CVPERFT_BIN={given} does not exist")
        pytest.skip(
            f"skipped: no cvperft binary at {path} (cargo build --release, or set CVPERFT_BIN)"
        )

    def run(*args, check=True):
        done = subprocess.run(
            [str(path), *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=600
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"cvperft {' '.join(map(str, args))}: exit {done.returncode}: {done.stderr}"
            )
        return done

    return run


def divide_lines(text):
    """`cvperft divide` output as a dict of move to count (the total line dropped)."""
    out = {}
    for line in text.splitlines():
        if not line.strip():
            break
        words = line.split()
        out[words[0]] = int(words[-1])
    return out


def without_seconds(value):
    """A check report with its timings removed (they differ between any two runs)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def load_jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]
