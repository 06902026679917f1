#!/usr/bin/env bash
# Computes the deep perft tables of docs/records.md: perft 1..D of each row's start position,
# every count twice through the unique-position pipeline (plan, work, merge) with a different
# split ply and a different hash seed, at the lowest priority (nice -n 19), resumably.
#
#   tools/deep-tables.sh [ROW [MAX_DEPTH]]     # ROW as in `rows` below, e.g. cerimon:moved-piece
#   tools/deep-tables.sh --estimate            # print the rows and depths without running
#
# Everything goes under OUT (default deep-tables/): one directory per row, depth and run with
# the plan, the result file, the merged JSON and the times of each invocation; log.tsv gets one
# line per finished run (commands, wall and CPU seconds, machine, commit). Stop it at any time and run the
# same command again: finished runs are skipped, a run in progress resumes its result file.
# Exit 1 if the two runs of a count differ, 2 if a run stopped before its end (resume it by
# running the same command again).
#
# Environment: CVPERFT (default target/release/cvperft), OUT, HASH (MB per table, default
# 1024), THREADS (default 2), SEED_A/SEED_B (default 1 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
cvperft=${CVPERFT:-target/release/cvperft}
out=${OUT:-deep-tables}
hash_mb=${HASH:-1024}
threads=${THREADS:-2}
seed_a=${SEED_A:-1}
seed_b=${SEED_B:-2}

# name|variant|options (space-separated -o values)|deepest depth[|FEN, default the start]
rows=(
  "chess|chess||8"
  "kiwipete|chess||7|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "silver-elephant|silver-elephant||8"
  "silver-elephant:setup|silver-elephant||8|r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1"
  "bachelor-kamil|bachelor-kamil||8"
  "bachelor-kamil:rotational|bachelor-kamil|black-array=rotational|8"
  "cerimon|cerimon||7"
  "cerimon:moved-piece|cerimon|resurrect-by=moved-piece|7"
  "plutonian|plutonian||8"
  "plutonian:diagram|plutonian|black-array=diagram|8"
  "pink-panther|pink-panther||10"
  "pink-panther:continue|pink-panther|medinese=continue|9"
  "pink-panther:movegen|pink-panther|game-end=movegen|9"
)

# Split plies of the two runs of depth D: A = max(1, D - 4), B = A - 1 (or A + 1 when A is 1).
split_a() { local a=$(($1 - 4)); [ "$a" -lt 1 ] && a=1; echo "$a"; }
split_b() {
  local a; a=$(split_a "$1")
  if [ "$a" -gt 1 ]; then echo $((a - 1)); elif [ "$1" -ge 2 ]; then echo 2; else echo 1; fi
}

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
# The commit column names what computed the counts: the checkout's HEAD when the binary is its
# own build, else the binary given in CVPERFT (its file name and the start of its SHA-256), since
# HEAD says nothing about a binary built elsewhere.
if [ -n "${CVPERFT:-}" ]; then
  commit="binary $(basename "$cvperft") sha256:$(sha256sum "$cvperft" | cut -c1-12)"
else
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
fi
mkdir -p "$out"
[ -f "$out/log.tsv" ] || printf 'finished\trow\tdepth\trun\tsplit\tseed\ttotal\twall_seconds\tcpu_seconds\tcommit\tmachine\tcommands\n' >"$out/log.tsv"

# run ROWNAME VARIANT OPTIONS FEN DEPTH RUN SPLIT SEED: one pipeline run; prints its total.
run() {
  local name=$1 variant=$2 options=$3 fen=$4 depth=$5 label=$6 split=$7 seed=$8
  local dir="$out/$name/d$depth/$label"
  mkdir -p "$dir"
  if [ -s "$dir/merge.json" ]; then
    sed -n 's/^  "total": "\{0,1\}\([0-9]*\)"\{0,1\},$/\1/p' "$dir/merge.json"
    return
  fi
  local opts=()
  for o in $options; do opts+=(-o "$o"); done
  [ -n "$fen" ] && opts+=(--fen "$fen")
  local plan_cmd=(nice -n 19 "$cvperft" plan "$depth" -v "$variant" "${opts[@]}" --split "$split" --threads "$threads" --output "$dir/plan.jsonl")
  # Small depths need no large table (allocating 1 GB costs more than counting).
  local mb=$hash_mb
  [ "$depth" -le 5 ] && mb=16
  local work_cmd=(nice -n 19 "$cvperft" work "$dir/plan.jsonl" --shard 1/1 --hash "$mb" --seed "$seed" --threads "$threads" --output "$dir/results.jsonl")
  local merge_cmd=("$cvperft" merge "$dir/plan.jsonl" "$dir/results.jsonl" --divide --format json)
  # Wall, user and system seconds of each invocation (a resumed run has several lines).
  local TIMEFORMAT='%R %U %S'
  # A plan or work that stops early (Ctrl-C, a kill, an error) ends the script: the run is
  # neither merged nor logged, and the same command resumes it.
  if ! { time {
    { [ -s "$dir/plan.jsonl" ] || "${plan_cmd[@]}" >&2; } && "${work_cmd[@]}" >&2
  } 2>&3; } 3>&2 2>>"$dir/times.txt"; then
    echo "$name perft $depth run $label stopped before its end; run the same command to resume it" >&2
    return 1
  fi
  if ! "${merge_cmd[@]}" >"$dir/merge.tmp"; then
    rm -f "$dir/merge.tmp"
    echo "$name perft $depth run $label: merge failed (see above)" >&2
    return 1
  fi
  mv "$dir/merge.tmp" "$dir/merge.json"
  local total seconds cpu
  total=$(sed -n 's/^  "total": "\{0,1\}\([0-9]*\)"\{0,1\},$/\1/p' "$dir/merge.json")
  seconds=$(awk '{s += $1} END {printf "%.1f", s}' "$dir/times.txt")
  cpu=$(awk '{s += $2 + $3} END {printf "%.1f", s}' "$dir/times.txt")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$depth" "$label" \
    "$split" "$seed" "$total" "$seconds" "$cpu" "$commit" "$machine" \
    "$(printf '%q ' "${plan_cmd[@]}"); $(printf '%q ' "${work_cmd[@]}"); $(printf '%q ' "${merge_cmd[@]}")" >>"$out/log.tsv"
  echo "$total"
}

only=${1:-}
max_override=${2:-}
status=0
for row in "${rows[@]}"; do
  IFS='|' read -r name variant options deepest fen <<<"$row"
  [ -n "$only" ] && [ "$only" != "--estimate" ] && [ "$only" != "$name" ] && continue
  [ -n "$max_override" ] && deepest=$max_override
  for depth in $(seq 1 "$deepest"); do
    a=$(split_a "$depth") b=$(split_b "$depth")
    if [ "$only" = "--estimate" ]; then
      echo "$name perft $depth: splits $a and $b, seeds $seed_a and $seed_b"
      continue
    fi
    total_a=$(run "$name" "$variant" "$options" "${fen:-}" "$depth" A "$a" "$seed_a") || exit 2
    total_b=$(run "$name" "$variant" "$options" "${fen:-}" "$depth" B "$b" "$seed_b") || exit 2
    if [ "$total_a" = "$total_b" ]; then
      echo "$name perft $depth = $total_a (splits $a and $b, seeds $seed_a and $seed_b agree)"
    else
      echo "$name perft $depth: DIFFER: $total_a (split $a, seed $seed_a) vs $total_b (split $b, seed $seed_b)"
      status=1
    fi
  done
done
exit "$status"
