"""perft, divide and check run with the interpreter released: another Python thread makes
progress while they count."""

import os
import subprocess
import sys
import threading
import time

import cvperft
import pytest


def wakeups_during(work):
    """How often a Python thread that sleeps 5 ms at a time woke up while `work` ran in
    another thread. Holding the interpreter through a long count, `work` would leave it at
    most one or two wakeups (as `sum(range(6 * 10**7))`, which holds it for seconds, does:
    2 wakeups in 3.7 s when this test was written)."""
    started, finished = threading.Event(), threading.Event()
    result = {}

    def run():
        started.set()
        result["value"] = work()
        finished.set()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    wakeups = 0
    while not finished.is_set():
        time.sleep(0.005)
        wakeups += 1
    worker.join()
    return wakeups, result["value"]


# Holding the interpreter, each call below would leave at most one or two wakeups; releasing
# it, one per 5 ms of counting. The counts are repeated so that they last long enough on a
# fast machine too (chess perft 6 on two threads took about 0.1 s in 2026-12; one call then
# left 19 wakeups).
REPEATS = 3


def test_perft_releases_the_interpreter():
    # 119,060,324 leaves per call, on one core.
    wakeups, nodes = wakeups_during(
        lambda: [cvperft.Position("chess").perft(6) for _ in range(REPEATS)]
    )
    assert nodes == [119_060_324] * REPEATS
    assert wakeups >= 4 * REPEATS, f"the main thread woke {wakeups} times during perft 6"


def test_divide_releases_the_interpreter():
    wakeups, divides = wakeups_during(
        lambda: [cvperft.Position("chess").divide(6, threads=2) for _ in range(REPEATS)]
    )
    assert all(len(divide) == 20 for divide in divides)
    assert wakeups >= 4 * REPEATS, f"the main thread woke {wakeups} times during divide 6"


def test_check_releases_the_interpreter(repo):
    wakeups, report = wakeups_during(
        lambda: cvperft.check(repo / "suites", max_nodes=200_000, jobs=1)
    )
    assert report["summary"]["failed"] == 0
    assert wakeups >= 10, f"the main thread woke {wakeups} times during check"


# A count that would take days (chess perft 10), or every suite's checks, interrupted by SIGINT
# half a second in, in a child interpreter: before, Ctrl-C was only noticed when the count
# ended.
INTERRUPTED = """
import os, signal, sys, threading, time
import cvperft
signal.signal(signal.SIGINT, signal.default_int_handler)
call = sys.argv[1]
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    if call == "perft":
        cvperft.Position("chess").perft(10, threads=int(sys.argv[2]))
    elif call == "divide":
        cvperft.Position("chess").divide(10, threads=int(sys.argv[2]))
    else:
        # Every suite, slow cases included: minutes of work, stopped between checks.
        cvperft.check(sys.argv[3], slow=True, jobs=int(sys.argv[2]))
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - started)
# The count stopped: its threads no longer count (the process's CPU time stays put).
before = time.process_time()
time.sleep(0.5)
print("cpu", time.process_time() - before)
"""


def test_ctrl_c_interrupts_a_long_count(repo):
    calls = [("perft", 1), ("perft", 2), ("divide", 1), ("divide", 2), ("check", 1)]
    for call, threads in calls:
        done = subprocess.run(
            [sys.executable, "-c", INTERRUPTED, call, str(threads), str(repo / "suites")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.split("\n")
        assert lines[0].startswith("interrupted"), (call, threads, done.stdout, done.stderr)
        assert float(lines[0].split()[1]) < 30, (call, threads, lines)
        assert float(lines[1].split()[1]) < 0.25, (call, threads, lines)


def test_a_position_may_be_played_on_while_another_thread_counts_it():
    # The count borrowed the position for its whole length: `push` from another thread
    # raised "RuntimeError: Already borrowed". The count is of the position as it was.
    pos = cvperft.Position("chess")
    started = threading.Event()
    result = {}

    def count():
        started.set()
        result["began"] = time.monotonic()
        result["perft"] = pos.perft(6)
        result["ended"] = time.monotonic()
        result["divide"] = pos.divide(6)

    worker = threading.Thread(target=count)
    worker.start()
    started.wait()
    time.sleep(0.05)
    pushed = time.monotonic()
    pos.push("e2e4")
    assert pos.fen().split()[1] == "b"
    worker.join()
    after_e2e4 = cvperft.Position("chess", moves="e2e4").perft(6)
    assert result["perft"] in (119_060_324, after_e2e4)
    # Pushed well inside the count (its copy is taken as it begins): the count is of the
    # start position, whatever the push did meanwhile.
    if result["began"] + 0.01 < pushed < result["ended"]:
        assert result["perft"] == 119_060_324
    # The divide began after the push: Black's twenty replies to e2e4.
    assert len(result["divide"]) == 20
    assert all(m[1] in "78" for m in result["divide"]), result["divide"]


# `check` of a FIFO whose writer holds it open and sends nothing, interrupted by SIGINT half a
# second in: the read never ends, so waiting for it after Ctrl-C hung the interpreter (it had
# to be killed). Nothing is counted yet, so the call raises at once; the reading thread, left
# blocked, counts nothing when the read ends.
SILENT_FIFO = """
import os, signal, sys, threading, time
import cvperft
signal.signal(signal.SIGINT, signal.default_int_handler)
fifo = sys.argv[1]
os.mkfifo(fifo)
writer = os.open(fifo, os.O_RDWR)  # a writer that never writes: reads of it wait
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    cvperft.check(fifo)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - started)
os.close(writer)
"""


def test_ctrl_c_interrupts_check_waiting_on_a_silent_fifo(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SILENT_FIFO, str(tmp_path / "silent.yaml")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("interrupted"), (done.stdout, done.stderr)
    assert float(done.stdout.split()[1]) < 5, done.stdout


def test_ctrl_c_interrupts_a_long_count_inside_check(tmp_path):
    # One check counting chess perft 8 (about 85 billion leaves, minutes of work): Ctrl-C was
    # only answered when that count ended, since the checks running then finish first.
    suite = tmp_path / "long.yaml"
    suite.write_text(
        "variant: chess\ndescription: one long count\ngame-end: rules\ncases:\n"
        "  - id: start\n    perft: {8: 84998978956}\n"
        "    source: {kind: public, citation: \"chessprogramming.org, Perft Results\"}\n"
    )
    for jobs in (1, 2):
        done = subprocess.run(
            [sys.executable, "-c", INTERRUPTED, "check", str(jobs), str(suite)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.split("\n")
        assert lines[0].startswith("interrupted"), (jobs, done.stdout, done.stderr)
        assert float(lines[0].split()[1]) < 5, (jobs, lines)
        assert float(lines[1].split()[1]) < 0.25, (jobs, lines)


SHALLOW_THREADS = """
import os, cvperft
def tasks():
    return len(os.listdir("/proc/self/task"))
pos = cvperft.Position("chess")
before = tasks()
assert pos.divide(4, threads=64) == pos.divide(4)
assert pos.perft(4, threads=64) == pos.perft(4)
print(before, tasks())
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc/self/task")
def test_a_count_of_four_plies_runs_on_the_calling_thread():
    """divide(4, threads=64) built a pool of 64 threads (60 were still alive after the call),
    while perft(4, threads=64) counted on the calling thread, as python.md says both do."""
    done = subprocess.run(
        [sys.executable, "-c", SHALLOW_THREADS], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    before, after = map(int, done.stdout.split())
    assert after == before, done.stdout
