#!/usr/bin/env bash
# Deep perft with GNU parallel: plan the work units, count N shards (on this machine's cores,
# or on other hosts with parallel's --sshloginfile), merge with the root divide.
#
#   ci/parallel-perft.sh DIR DEPTH SPLIT SHARDS [cvperft position arguments: -v V --fen F -o N=V]
#
# DIR holds plan.jsonl and one results-*.jsonl per shard. Run the same command again after an
# interruption: the plan is kept (a new plan is refused if it differs), finished units are
# skipped, and a unit cut short is counted again. Every shard runs through `cvperft work`, so
# a missing or repeated shard makes the merge fail instead of giving a wrong total.
#
# Environment: CVPERFT (default `cvperft`), JOBS (parallel's -j, default one per core),
# WORK_ARGS (extra `work` flags, e.g. "--hash 256 --verify"), PARALLEL_ARGS (extra parallel
# flags, e.g. "--sshloginfile hosts.txt"; DIR must then be shared by the hosts).
set -euo pipefail

if [ "$#" -lt 4 ]; then
  echo "usage: $0 DIR DEPTH SPLIT SHARDS [position arguments]" >&2
  exit 2
fi
dir=$1 depth=$2 split=$3 shards=$4
shift 4
cvperft=${CVPERFT:-cvperft}
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed" >&2; exit 2; }
mkdir -p "$dir"

"$cvperft" plan "$depth" --split "$split" "$@" --output "$dir/plan.new.jsonl" >&2
if [ -e "$dir/plan.jsonl" ] && ! cmp -s "$dir/plan.new.jsonl" "$dir/plan.jsonl"; then
  echo "$0: $dir/plan.jsonl is another plan; use another DIR" >&2
  rm -f "$dir/plan.new.jsonl"
  exit 2
fi
mv "$dir/plan.new.jsonl" "$dir/plan.jsonl"

# shellcheck disable=SC2086  # WORK_ARGS and PARALLEL_ARGS are word lists on purpose
seq 1 "$shards" | parallel --will-cite --halt now,fail=1 -j "${JOBS:-100%}" ${PARALLEL_ARGS:-} \
  "$cvperft" work "$dir/plan.jsonl" --shard "{}/$shards" --output "$dir/results-{}-of-$shards.jsonl" \
  --quiet ${WORK_ARGS:-} >&2

"$cvperft" merge "$dir/plan.jsonl" "$dir"/results-*-of-"$shards".jsonl --divide
