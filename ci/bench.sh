#!/usr/bin/env bash
# Prints cvperft's time and leaf rate on each variant's start position, and for chess the same
# run by a second engine (Debian's stockfish, `go perft`) with the ratio, all from one run each.
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
  row "$v" "d$d" "$n" "$s" "$(echo "$n / $s" | bc -l)" "cvperft ${*:-}"
  LAST=$s
}

echo "variant            depth          leaves      time          rate  engine"
run_ours chess 6; ours_chess=$LAST
run_ours silver-elephant 5 -o bare-king=one-reply
run_ours bachelor-kamil 6 -o game-end=movegen
run_ours cerimon 5
run_ours plutonian 5
run_ours pink-panther 6

SF=$(command -v stockfish || true); [ -z "$SF" ] && [ -x /usr/games/stockfish ] && SF=/usr/games/stockfish
if [ -n "$SF" ]; then
  d=$(( 6 - quick ))
  t0=$(now)
  n=$(printf 'uci\nisready\nposition startpos\ngo perft %s\nquit\n' "$d" | "$SF" | awk '/^Nodes searched/ {print $3}')
  t1=$(now)
  s=$(echo "$t1 - $t0" | bc -l)
  row chess "d$d" "$n" "$s" "$(echo "$n / $s" | bc -l)" "stockfish ($SF)"
  echo "ratio cvperft/stockfish time on chess d$d: $(echo "$ours_chess / $s" | bc -l | cut -c1-5)"
else
  echo "no second engine: install Debian's stockfish for the chess comparison"
fi
