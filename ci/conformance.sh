#!/bin/sh
# Run cvperft conformance suites in CI.
#
#   ci/conformance.sh [cvperft check arguments...]
#
# Every argument goes to `cvperft check` unchanged (suite paths, --shard K/N, --format junit,
# --output FILE, --slow, --max-nodes N, ...); with no suite path, `check` reads ./suites/.
# The exit status is cvperft's: 0 every check passed, 1 a check failed or an xfail case passed,
# 2 a suite could not be read or an argument is wrong; 2 as well, with a line on stderr, when
# this script finds no cvperft to run.
#
# Which binary runs:
#   1. $CVPERFT, when set (a path or a command name);
#   2. otherwise `cvperft` from PATH (e.g. after `cargo install --path .`);
#   3. otherwise the binary built from the cvperft repository this script belongs to
#      (`cargo build --release --locked`, honouring $CARGO_TARGET_DIR); a copy of the script
#      in another repository must be given 1 or 2.
set -eu

# Whether $1 is a program to run: an executable file when it holds a `/`, else a command.
runnable() {
    case $1 in
    */*) [ -f "$1" ] && [ -x "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

if [ -n "${CVPERFT:-}" ]; then
    bin=$CVPERFT
    if ! runnable "$bin"; then
        echo "conformance.sh: CVPERFT=$bin is not a program to run (give the path of the cvperft binary, or a command on PATH)" >&2
        exit 2
    fi
elif runnable cvperft; then
    bin=cvperft
else
    repo=$(cd "$(dirname "$0")/.." && pwd)
    if ! grep -qx 'name = "cvperft"' "$repo/Cargo.toml" 2>/dev/null; then
        echo "conformance.sh: no cvperft on PATH, and $repo is not a cvperft repository to build it in (set CVPERFT to the binary, or put cvperft on PATH)" >&2
        exit 2
    fi
    if ! runnable cargo; then
        echo "conformance.sh: no cvperft on PATH and no cargo to build it (set CVPERFT)" >&2
        exit 2
    fi
    echo "conformance.sh: building cvperft in $repo" >&2
    if ! cargo build --release --locked --quiet --manifest-path "$repo/Cargo.toml" >&2; then
        echo "conformance.sh: could not build cvperft in $repo (set CVPERFT to a built binary)" >&2
        exit 2
    fi
    bin=${CARGO_TARGET_DIR:-$repo/target}/release/cvperft
    if ! runnable "$bin"; then
        echo "conformance.sh: the build left no binary at $bin (a target directory set elsewhere? set CVPERFT)" >&2
        exit 2
    fi
fi

echo "conformance.sh: $bin check $*" >&2
exec "$bin" check "$@"
