#!/usr/bin/env bash
# Times cvperft on the start position of every variant `cvperft variants` lists, at the bench
# depth benches/depths.txt gives it (its third word, or one ply deeper than the criterion depth)
# with the rule options given there, plus chess Kiwipete; prints each variant's leaf rate against
# Silver Elephant's, and for chess the same counts by Debian's stockfish (`go perft`) with the
# ratio of times. With --baseline, every position is also counted by the binary of a named
# commit (built in a temporary worktree) or a given binary, and each ratio is ours against it.
#
# Usage: ci/bench.sh [--quick] [--baseline COMMIT|BINARY] [--rounds N] [--only NAMES]
#   --quick      one ply less everywhere
#   --baseline   a commit (any git revision) or the path of a cvperft binary
#   --rounds N   N rounds (default 1); in each, the engines run one after the other on each
#                position, starting with a different one every round (A B, B A, ...), and the
#                medians over the rounds are printed with their ratios and the spread, then
#                the median and spread of each round's own ratio (the runs of a round are
#                close in time, so a drift of the machine's speed between rounds moves them
#                alike)
#   --only NAMES only these positions, comma-separated (variant names as `cvperft variants`
#                lists them, and kiwipete): e.g. --only pink-panther --rounds 7 for the one
#                being worked on
#
# Counts are compared: a count that differs between engines is printed and the script exits 1,
# so a wrong generator cannot look fast. Exit 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0 rounds=1 baseline="" only=""
usage="usage: ci/bench.sh [--quick] [--baseline COMMIT|BINARY] [--rounds N] [--only NAMES]"
# An option's value, missing or empty: a usage error (exit 2, as every other one).
value() { [ $# -ge 2 ] && [ -n "$2" ] || { echo "ci/bench.sh: $1 needs a value ($usage)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --baseline) value "$@"; baseline=$2; shift ;;
    --rounds) value "$@"; rounds=$2; shift ;;
    --only) value "$@"; only=$2; shift ;;
    *) echo "ci/bench.sh: unknown argument '$1' ($usage)" >&2; exit 2 ;;
  esac
  shift
done
case $rounds in ''|*[!0-9]*|0) echo "ci/bench.sh: --rounds takes a positive whole number, not '$rounds'" >&2; exit 2 ;; esac

cargo build --release --quiet
# Where cargo put it: $CARGO_TARGET_DIR when set (relative to this checkout, as cargo reads it).
CV=${CARGO_TARGET_DIR:-target}/release/cvperft
[ -x "$CV" ] || { echo "ci/bench.sh: the build left no binary at $CV (a target directory set in a cargo config? set CARGO_TARGET_DIR)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

SF=$(command -v stockfish || true)
[ -z "$SF" ] && [ -x /usr/games/stockfish ] && SF=/usr/games/stockfish

now() { date +%s.%N; }

# The positions: name, depth, then cvperft's arguments after the depth.
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
names=() depths=() args=()
while read -r v rest; do
  # shellcheck disable=SC2086 # the options are words
  set -- $rest
  d=$(( $1 + 1 )); shift
  case ${1:-} in ''|-*) ;; *) d=$1; shift ;; esac
  names+=("$v"); depths+=($(( d - quick ))); args+=("-v $v $*")
done < <($CV variants | awk '/^[a-z]/ { print $1 }' | while read -r v; do
  line=$(awk -v v="$v" '$1 == v { $1 = ""; print; found = 1 } END { if (!found) print 3 }' benches/depths.txt)
  echo "$v $line"
done)
names+=(kiwipete); depths+=($(( 5 - quick ))); args+=(""); kiwi=$(( ${#names[@]} - 1 ))

# --only: keep the positions named (an unknown name is a usage error, found before any
# baseline is built).
if [ -n "$only" ]; then
  keep=" "
  IFS=, read -ra wanted <<< "$only"
  for w in "${wanted[@]}"; do
    found=0
    for i in "${!names[@]}"; do
      [ "${names[$i]}" = "$w" ] && { keep="$keep$i "; found=1; }
    done
    [ "$found" = 1 ] || { echo "ci/bench.sh: --only: no position '$w' (positions: ${names[*]})" >&2; exit 2; }
  done
  for i in "${!names[@]}"; do
    case $keep in *" $i "*) ;; *) unset "names[$i]" ;; esac
  done
fi
# The baseline binary: a path as given, or a commit built in a temporary worktree (its own
# target directory, so this checkout's build is untouched).
BASE=""
if [ -n "$baseline" ]; then
  if [ -f "$baseline" ] && [ -x "$baseline" ]; then
    BASE=$baseline
  else
    rev=$(git rev-parse --verify --quiet "$baseline^{commit}") || {
      echo "ci/bench.sh: --baseline '$baseline' is neither an executable file nor a commit" >&2; exit 2; }
    echo "building the baseline $rev in a temporary worktree ..."
    git worktree add --quiet --detach "$tmp/wt" "$rev"
    # Its own target directory even when $CARGO_TARGET_DIR is set (it would overwrite ours).
    (cd "$tmp/wt" && CARGO_TARGET_DIR="$tmp/wt/target" cargo build --release --quiet)
    cp "$tmp/wt/target/release/cvperft" "$tmp/cvperft-baseline"
    git worktree remove --force "$tmp/wt"
    BASE=$tmp/cvperft-baseline
  fi
fi
# One timed count: engine (ours, base, stockfish), position index; sets COUNT and SECS.
run() {
  local e=$1 i=$2 d=${depths[$2]} t0 t1
  t0=$(now)
  case $e in
    ours|base)
      local bin=$CV; [ "$e" = base ] && bin=$BASE
      # stderr kept apart (no progress bar; older binaries have no --quiet), shown on failure.
      if [ "$i" = "$kiwi" ]; then set -- --fen "$KIWIPETE"
      else
        # shellcheck disable=SC2086 # the arguments are words
        set -- ${args[$i]}
      fi
      COUNT=$($bin perft "$d" "$@" 2>"$tmp/err") || {
        echo "ci/bench.sh: $bin perft $d $* failed:" >&2; cat "$tmp/err" >&2; exit 2; } ;;
    stockfish)
      local pos="startpos"; [ "$i" = "$kiwi" ] && pos="fen $KIWIPETE"
      COUNT=$(printf 'uci\nisready\nposition %s\ngo perft %s\nquit\n' "$pos" "$d" | "$SF" | awk '/^Nodes searched/ { print $3 }') ;;
  esac
  t1=$(now)
  SECS=$(echo "$t1 - $t0" | bc -l)
}

engines_of() { # position index: the engines that count it
  local e="ours"
  [ -n "$BASE" ] && e="$e base"
  if [ -n "$SF" ] && { [ "${names[$1]}" = chess ] || [ "$1" = "$kiwi" ]; }; then e="$e stockfish"; fi
  echo "$e"
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A times counts
bad=0
for r in $(seq 1 "$rounds"); do
  echo "round $r of $rounds"
  for i in "${!names[@]}"; do
    read -ra es <<< "$(engines_of "$i")"
    # Rotate the order each round, so that no engine always runs first.
    n=${#es[@]}; order=()
    for j in $(seq 0 $(( n - 1 ))); do order+=("${es[$(( (j + r - 1) % n ))]}"); done
    for e in "${order[@]}"; do
      run "$e" "$i"
      times[$i,$e]="${times[$i,$e]:-} $SECS"
      printf '  %-16s d%-2s %-9s %14s %8.3f s\n' "${names[$i]}" "${depths[$i]}" "$e" "$COUNT" "$SECS"
      if [ -n "${counts[$i]:-}" ] && [ "${counts[$i]}" != "$COUNT" ]; then
        echo "  COUNT MISMATCH: ${names[$i]} d${depths[$i]}: $e counted $COUNT, before ${counts[$i]}"
        bad=1
      fi
      counts[$i]=${counts[$i]:-$COUNT}
    done
  done
done

echo
echo "medians over $rounds round(s) (min-max), one thread, no hash; ratio = other's median / ours"
printf '%-16s %-3s %14s %22s %11s %30s %30s\n' position d leaves "cvperft" "M leaves/s" "baseline (ratio)" "stockfish (ratio)"
declare -A rate
for i in "${!names[@]}"; do
  # shellcheck disable=SC2086
  spread() { echo $1 | tr ' ' '\n' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }'; }
  ours=$(echo ${times[$i,ours]} | tr ' ' '\n' | median)
  rate[$i]=$(echo "${counts[$i]} / $ours / 1000000" | bc -l)
  line=$(printf '%-16s %-3s %14s %8.3f s (%s) %11.1f' "${names[$i]}" "${depths[$i]}" "${counts[$i]}" "$ours" "$(spread "${times[$i,ours]}")" "${rate[$i]}")
  for e in base stockfish; do
    if [ -n "${times[$i,$e]:-}" ]; then
      m=$(echo ${times[$i,$e]} | tr ' ' '\n' | median)
      line="$line $(printf '%8.3f s (%s) %5.2fx' "$m" "$(spread "${times[$i,$e]}")" "$(echo "$m / $ours" | bc -l)")"
    else
      line="$line $(printf '%30s' -)"
    fi
  done
  echo "$line"
done
# With several rounds, each round's own ratio too (the engines of a round ran close together
# in time, so a drift of the machine between rounds moves them alike): median and spread.
if [ "$rounds" -gt 1 ]; then
  header="each round's ratio (other's time / ours in that round): median (min-max) over $rounds rounds"
  for i in "${!names[@]}"; do
    line=$(printf '%-16s %-3s' "${names[$i]}" "${depths[$i]}")
    paired=0
    for e in base stockfish; do
      if [ -n "${times[$i,$e]:-}" ]; then
        # shellcheck disable=SC2086 # the times are words
        ratios=$(paste -d ' ' <(echo ${times[$i,$e]} | tr ' ' '\n') <(echo ${times[$i,ours]} | tr ' ' '\n') \
          | awk '{ printf "%.6f\n", $1 / $2 }')
        m=$(echo "$ratios" | median)
        range=$(echo "$ratios" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')
        label=$e; [ "$e" = base ] && label=baseline
        line="$line $(printf '%10s %5.2fx (%s)' "$label:" "$m" "$range")"
        paired=1
      fi
    done
    if [ "$paired" = 1 ]; then
      [ -n "$header" ] && { echo; echo "$header"; header=""; }
      echo "$line"
    fi
  done
fi
# Issue 11 asks the fairy variants to count within 2x of Silver Elephant's leaf rate.
for i in "${!names[@]}"; do
  [ "${names[$i]}" = silver-elephant ] && se=$i
done
if [ -n "${se:-}" ]; then
  for i in "${!names[@]}"; do
    case ${names[$i]} in chess|kiwipete|silver-elephant) continue ;; esac
    printf "silver-elephant's leaf rate / %s's: %.2f\n" "${names[$i]}" "$(echo "${rate[$se]} / ${rate[$i]}" | bc -l)"
  done
fi
[ -z "$BASE" ] && echo "no --baseline: no ratios against a baseline"
[ -z "$SF" ] && echo "no stockfish found: install Debian's stockfish for the chess comparison"
exit $bad
