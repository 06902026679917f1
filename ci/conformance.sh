#!/bin/sh
# Run cvperft conformance suites in CI.
#
#   ci/conformance.sh [cvperft check arguments...]
#
# Every argument goes to `cvperft check` unchanged (suite paths, --shard K/N, --format junit,
# --output FILE, --slow, --max-nodes N, ...); with no suite path, `check` reads ./suites/.
# The exit status is cvperft's: 0 every check passed, 1 a check failed or an xfail case passed,
# 2 a suite could not be read or an argument is wrong.
#
# Which binary runs:
#   1. $CVPERFT, when set (a path or a command name);
#   2. otherwise `cvperft` from PATH (e.g. after `cargo install --path .`);
#   3. otherwise the binary built from the repository this script belongs to
#      (`cargo build --release --locked`, honouring $CARGO_TARGET_DIR).
set -eu

if [ -n "${CVPERFT:-}" ]; then
    bin=$CVPERFT
elif command -v cvperft >/dev/null 2>&1; then
    bin=cvperft
else
    repo=$(cd "$(dirname "$0")/.." && pwd)
    if ! command -v cargo >/dev/null 2>&1; then
        echo "conformance.sh: no cvperft on PATH and no cargo to build it (set CVPERFT)" >&2
        exit 2
    fi
    echo "conformance.sh: building cvperft in $repo" >&2
    cargo build --release --locked --quiet --manifest-path "$repo/Cargo.toml" >&2
    bin=${CARGO_TARGET_DIR:-$repo/target}/release/cvperft
fi

echo "conformance.sh: $bin check $*" >&2
exec "$bin" check "$@"
