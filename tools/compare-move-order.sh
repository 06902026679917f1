#!/usr/bin/env bash
# Compares the order in which two builds of the library generate moves: builds
# tools/move_order.rs against each one's release rlib and diffs what they print (every
# variant, every option combination, both game-end modes, fixed-seed random games; see that
# file). The order matters: fuzz/regressions inputs pick moves by their place in the list.
#
# Usage: tools/compare-move-order.sh OLD_TARGET_RELEASE_DIR [NEW_TARGET_RELEASE_DIR]
#   each directory holds libcvperft.rlib and deps/ of a `cargo build --release` (the new one
#   defaults to this checkout's target/release). Exit 0 when the outputs are the same.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=${2:-target/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in old new; do
  dir=${!side}
  rustc --edition 2024 -O -C target-cpu=x86-64-v2 -L "$dir/deps" \
    --extern cvperft="$dir/libcvperft.rlib" tools/move_order.rs -o "$work/move_order_$side"
  "$work/move_order_$side" > "$work/$side.txt"
done
lines=$(wc -l < "$work/new.txt")
if cmp -s "$work/old.txt" "$work/new.txt"; then
  echo "same move order in $lines positions"
else
  diff "$work/old.txt" "$work/new.txt" | head -20
  exit 1
fi
