"""cvperft.check returns the report `cvperft check --format json` writes, as Python objects,
with check's selection flags as keyword arguments."""

import json

import cvperft
import pytest
from conftest import without_seconds


@pytest.mark.parametrize(
    "paths,filters,flags",
    [
        (
            "suites/chess.yaml",
            {"filter": "kiwipete", "max_nodes": 100_000},
            ["--filter", "kiwipete", "--max-nodes", "100000"],
        ),
        (
            "suites",
            {"variant": "cerimon", "max_nodes": 50_000},
            ["--variant", "cerimon", "--max-nodes", "50000"],
        ),
        (
            "suites",
            {"rule": "GE-1", "max_nodes": 50_000},
            ["--rule", "GE-1", "--max-nodes", "50000"],
        ),
        (
            "suites",
            {"shard": "2/7", "max_nodes": 20_000},
            ["--shard", "2/7", "--max-nodes", "20000"],
        ),
        (
            "suites/pink-panther.yaml",
            {"slow": True, "max_nodes": 300_000},
            ["--slow", "--max-nodes", "300000"],
        ),
    ],
)
def test_the_report_is_the_cli_json(cli, repo, monkeypatch, paths, filters, flags):
    monkeypatch.chdir(repo)  # file names in the report are as given, as on the command line
    report = cvperft.check(paths, jobs=1, **filters)
    expected = json.loads(cli("check", paths, "--format", "json", "--jobs", "1", *flags).stdout)
    assert report["format"] == "cvperft-check"
    assert without_seconds(report) == without_seconds(expected)
    assert isinstance(report["seconds"], float)


def test_paths_as_a_list_and_path_objects(repo):
    one = cvperft.check(repo / "suites" / "chess.yaml", filter="::start::", jobs=1)
    both = cvperft.check(
        [repo / "suites" / "chess.yaml", str(repo / "suites" / "cerimon.yaml")],
        filter="::start::",
        jobs=1,
    )
    assert {r["variant"] for r in one["results"]} == {"chess"}
    assert {r["variant"] for r in both["results"]} == {"chess", "cerimon"}


def test_a_failing_check_is_reported_not_raised(tmp_path):
    suite = tmp_path / "wrong.yaml"
    suite.write_text(
        "variant: chess\n"
        "description: a deliberately wrong count\n"
        "game-end: rules\n"
        "options: {}\n"
        "cases:\n"
        "  - id: start\n"
        "    rules: [GE-1]\n"
        "    perft: {1: 21}\n"
        "    source:\n"
        "      kind: hand\n"
        "      derivation: deliberately wrong, to see a failure reported\n"
    )
    try:
        report = cvperft.check(suite, jobs=1)
    except cvperft.SuiteError as e:  # the suite format may want more; say what
        pytest.fail(f"the test suite does not load: {e}")
    assert report["summary"]["failed"] == 1
    (result,) = report["results"]
    assert result["status"] == "failed" and "21" in result["message"]


def test_without_paths_the_built_in_suites_are_checked(repo, monkeypatch, tmp_path):
    # Away from a clone: the wheel's own copy of suites/, the same report as the files give.
    monkeypatch.chdir(repo)
    from_files = cvperft.check("suites", variant="plutonian", max_nodes=50_000, jobs=1)
    monkeypatch.chdir(tmp_path)
    built_in = cvperft.check(variant="plutonian", max_nodes=50_000, jobs=1)
    assert without_seconds(built_in) == without_seconds(from_files)
    assert len(built_in["results"]) > 50
    none = cvperft.check(None, variant="plutonian", max_nodes=50_000, jobs=1)
    assert without_seconds(none) == without_seconds(built_in)
