#!/usr/bin/env bash
# Remakes the reference screenshots in docs/images/ (the README shows them) with headless
# Chromium (Debian's `chromium`) from the release binary:
#   boards.png        one diagram of each game (`cvperft fen --format svg`)
#   check-report.png  the top of `check --format html` against an engine that never
#                     promotes to a Knight
#   diff-report.png   `diff --format html` finding a Pink Panther engine that never passes the
#                     jewel on
# Usage: tools/screenshots.sh   (from anywhere; builds nothing: run `cargo build --release` first)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${CVPERFT:-$repo/target/release/cvperft}
out=$repo/docs/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$repo"

shot() { # shot PAGE PNG WIDTH HEIGHT
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$work/profile" \
    --screenshot="$2" --window-size="$3,$4" "file://$1" 2>/dev/null
}

{
  echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
  echo '<body style="display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start;margin:10px">'
  for spec in \
    "chess|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
    "silver-elephant|r2bqkb2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2BQKB2R[EENNeenn] w KQkq - 0 1" \
    "bachelor-kamil|4k4/1P5r1/2q6/9/9/6W2/p8/4K3R w K - 0 1" \
    "cerimon|rbbtkbbr/R1ssssnn/8/2n5/1N6/8/1NSSSSNN/1BBTKBBR[n] b - - 0 2" \
    "plutonian|r1ckqnnr/ppp1pppp/8/3p4/3C4/5D2/PPPPPPPP/RNNQK1CR w KQkq - 0 1" \
    "pink-panther|r1ngbbr/pppippp/7/3+n3/2P4/PP1IPPP/RNNGBBR w - - 0 1"; do
    "$bin" fen -v "${spec%%|*}" --format svg "${spec#*|}"
  done
  echo '</body></html>'
} > "$work/boards.html"
shot "$work/boards.html" "$out/boards.png" 1680 1140

# The engines are called `cvperft` on the page, as installed, not by this checkout's path.
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/cvperft"
export PATH="$work/bin:$PATH"
engine="cvperft perftree -v {variant} --inject no-promotion-to-knight"
"$bin" check suites --filter promot --max-nodes 5000 --engine "$engine" --protocol perftree \
  --format html --output "$work/check.html" || true
shot "$work/check.html" "$out/check-report.png" 1100 1250

"$bin" diff 3 -v pink-panther --fen "4g2/6p/7/2N4/7/4G2/+R6 w - - 0 1" --protocol perftree \
  --engine "cvperft perftree -v pink-panther --inject no-jewel-pass" --format html \
  > "$work/diff.html" || true
shot "$work/diff.html" "$out/diff-report.png" 1120 1000
ls -l "$out"
