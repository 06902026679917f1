#!/usr/bin/env bash
# Prints cvperft's time and leaf rate on the start position of every variant `cvperft variants`
# lists, one ply deeper than its bench depth in benches/depths.txt and with the rule options
# given there, then each variant's leaf rate against Silver Elephant's, and for chess the same
# run by second engines (Debian's stockfish and fairy-stockfish, `go perft`) with the ratio of
# times, all from one run each.
# Usage: ci/bench.sh [--quick]   (--quick: one depth less everywhere)
# Counts are printed too, so a wrong generator cannot look fast.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
CV=./target/release/cvperft
quick=0; [ "${1:-}" = "--quick" ] && quick=1

now() { date +%s.%N; }
row() { printf '%-18s %-6s %14s %9.3f s %12.0f leaves/s  %s\n' "$@"; }

run_ours() { # variant depth [options...]
  local v=$1 d=$(( $2 - quick )); shift 2
  local t0 t1 n; t0=$(now); n=$($CV perft "$d" -v "$v" "$@"); t1=$(now)
  local s; s=$(echo "$t1 - $t0" | bc -l)
  RATE=$(echo "$n / $s" | bc -l)
  row "$v" "d$d" "$n" "$s" "$RATE" "cvperft ${*:-}"
  LAST=$s
}

# A variant's line of benches/depths.txt without its name: the depth, then options (depth 3
# when the variant has no line).
bench_line() {
  awk -v v="$1" '$1 == v { $1 = ""; print; found = 1 } END { if (!found) print 3 }' benches/depths.txt
}

echo "variant            depth          leaves      time          rate  engine"
declare -A rates
ids=$($CV variants | awk '/^[a-z]/ { print $1 }')
for v in $ids; do
  # shellcheck disable=SC2046 # the options are words
  set -- $(bench_line "$v")
  depth=$1; shift
  run_ours "$v" $(( depth + 1 )) "$@"
  rates[$v]=$RATE
  if [ "$v" = chess ]; then ours_chess=$LAST; fi
done
# Issue 11 asks the fairy variants to count within 2x of Silver Elephant's leaf rate.
for v in $ids; do
  if [ "$v" = silver-elephant ]; then continue; fi
  echo "  silver-elephant's leaf rate / $v's, from this run: $(printf "%.2f" "$(echo "${rates[silver-elephant]} / ${rates[$v]}" | bc -l)")"
done

# A second engine's `go perft` on chess, from one run each, with the ratio of times.
uci_perft() { # engine depth
  printf 'uci\nisready\nposition startpos\ngo perft %s\nquit\n' "$2" | "$1" | awk '/^Nodes searched/ {print $3}'
}
compare_chess() { # name path
  local d=$(( 6 - quick )) t0 t1 n s
  t0=$(now); n=$(uci_perft "$2" "$d"); t1=$(now)
  s=$(echo "$t1 - $t0" | bc -l)
  row chess "d$d" "$n" "$s" "$(echo "$n / $s" | bc -l)" "$1 ($2)"
  echo "  ratio of times, cvperft / $1 on chess d$d: $(printf "%.2f" "$(echo "$ours_chess / $s" | bc -l)")"
}
found=0
for name in stockfish fairy-stockfish; do
  path=$(command -v "$name" || true)
  [ -z "$path" ] && [ -x "/usr/games/$name" ] && path=/usr/games/$name
  if [ -n "$path" ]; then compare_chess "$name" "$path"; found=1; fi
done
[ "$found" = 1 ] || echo "no second engine: install Debian's stockfish or fairy-stockfish for the chess comparison"

# Debian's fairy-stockfish is too old to load these variants, and pyffish has no perft, so the
# Fairy-Stockfish figures for them are the anchors issue 11 records for this kind of machine
# (pyffish 0.0.90's engine, whole `go perft` run), printed for reference, not measured here.
if [ "$quick" = 0 ]; then
  echo "anchors (issue 11, Fairy-Stockfish from pyffish 0.0.90, not measured by this script):"
  echo "  silver-elephant d5 31059699 in 2.56 s; bachelor-kamil d6 438272041 in 40.5 s;"
  echo "  cerimon d5 without resurrection 80354067 in 6.28 s; chess d6 119060324 in 4.8 s"
fi
