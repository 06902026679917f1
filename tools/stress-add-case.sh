#!/usr/bin/env bash
# Runs `add-case` on one suite from many processes at once, TRIALS times, and reports how many
# cases were lost and how many runs exited non-zero (both must be 0: issue 19's first finding).
#
# Usage: tools/stress-add-case.sh [TRIALS] [AT_ONCE]    (defaults 10 and 10; AT_ONCE <= 16)
# Environment: CVPERFT (default target/release/cvperft).
set -euo pipefail
cvperft=${CVPERFT:-target/release/cvperft}
trials=${1:-10}
at_once=${2:-10}
moves=(a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4)
[ "$at_once" -ge 1 ] && [ "$at_once" -le ${#moves[@]} ] || { echo "AT_ONCE must be 1..${#moves[@]}" >&2; exit 2; }
lost=0
failed=0
for _ in $(seq 1 "$trials"); do
  dir=$(mktemp -d)
  suite=$dir/suite.yaml
  printf 'variant: chess\ndescription: add-case stress\ngame-end: rules\ncases:\n  - id: start\n    rules: [GE-1]\n    perft: {1: 20}\n    source: {kind: public, citation: "chessprogramming wiki, Perft Results"}\n' >"$suite"
  pids=()
  for i in $(seq 0 $((at_once - 1))); do
    "$cvperft" add-case --suite "$suite" --moves "${moves[$i]}" --depth 1 --id "c$i" >/dev/null 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
  found=$(grep -c '^  - id: c' "$suite" || true)
  lost=$((lost + at_once - found))
  rm -rf "$dir"
done
echo "$((trials * at_once)) add-case runs ($trials trials x $at_once at once): $lost cases lost, $failed runs exited non-zero"
[ "$lost" -eq 0 ] && [ "$failed" -eq 0 ]
