#!/bin/bash
# Callgrind instructions per leaf, less the same binary's perft 1 (the start-up), at the
# positions and depths docs/performance.md quotes (benches/depths.txt's options; Kiwipete; chess
# after e2e4 e7e5). Exact and repeatable, unlike wall-clock time on a shared machine.
# Usage: tools/callgrind-per-leaf.sh BINARY   (needs valgrind; takes about 4 minutes)
set -euo pipefail
BIN=$1
cg() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$@" 2>&1 | grep "refs" | awk '{gsub(",","",$NF); print $NF}'; }
leaves() { "$BIN" "$@" -q 2>/dev/null | tail -1 | grep -o '[0-9,]*' | tail -1 | tr -d ,; }
row() { name=$1; shift; d=$1; shift; s=$(cg perft 1 "$@"); t=$(cg perft $d "$@"); n=$("$BIN" perft $d "$@" 2>/dev/null | tail -1 | tr -d ,); python3 -c "print(f'$name perft $d: leaves $n total {$t/1e6:.2f} M startup {$s/1e6:.2f} M per leaf {($t-$s)/$n:.2f}')"; }
row chess 5
row chess-e4e5 5 --moves "e2e4 e7e5"
row kiwipete 4 --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
row silver-elephant 4 -v silver-elephant -o bare-king=one-reply
row bachelor-kamil 5 -v bachelor-kamil -o game-end=movegen
row cerimon 4 -v cerimon
row plutonian 4 -v plutonian
row pink-panther 5 -v pink-panther
