#!/usr/bin/env bash
# The level ladder of docs/ai.md: greedy against level 1, then every level against the
# one below, GAMES games each, in one variant; one summary line per pair is appended to
# OUT (and the games to OUT.*.blksgf).
# Usage: scripts/ladder.sh VARIANT GAMES OUT [PARALLEL] [FIRST_LEVEL]
# (FIRST_LEVEL n starts with level n against level n-1; 1 means greedy against level 1).
# Needs a release build: cargo build --release -p blokus-cli
set -euo pipefail
variant=${1:?variant}; games=${2:?games}; out=${3:?output file}; parallel=${4:-1}
first=${5:-1}
bin=${BLOKUS_BIN:-target/release/blokus}
pairs=()
if [ "$first" -le 1 ]; then pairs+=("greedy mcts:level=1"); fi
for n in 2 3 4 5 6 7 8 9; do
  if [ "$n" -ge "$first" ]; then pairs+=("mcts:level=$n mcts:level=$((n - 1))"); fi
done
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  start=$(date +%s)
  result=$("$bin" match "$a" "$b" --variant "$variant" --games "$games" \
    --parallel "$parallel" --quiet --sgf "$out.$a-vs-$b.blksgf" 2>/dev/null | tail -1)
  echo "$variant | $a vs $b | $result | $(( $(date +%s) - start )) s" >> "$out"
done
