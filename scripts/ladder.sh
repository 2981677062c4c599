#!/usr/bin/env bash
# The level ladder of docs/ai.md: greedy against level 1, then every level against the
# one below, GAMES games each, in one variant; one summary line per pair is appended to
# OUT (and the games to OUT.blksgf). Usage: scripts/ladder.sh VARIANT GAMES OUT [PARALLEL]
# Needs a release build: cargo build --release -p blokus-cli
set -euo pipefail
variant=${1:?variant}; games=${2:?games}; out=${3:?output file}; parallel=${4:-1}
bin=${BLOKUS_BIN:-target/release/blokus}
pairs=("greedy mcts:level=1")
for n in 2 3 4 5 6 7 8 9; do pairs+=("mcts:level=$n mcts:level=$((n - 1))"); done
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  start=$(date +%s)
  result=$("$bin" match "$a" "$b" --variant "$variant" --games "$games" \
    --parallel "$parallel" --quiet --sgf "$out.$a-vs-$b.blksgf" 2>/dev/null | tail -1)
  echo "$variant | $a vs $b | $result | $(( $(date +%s) - start )) s" >> "$out"
done
