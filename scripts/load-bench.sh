#!/usr/bin/env bash
# The load and fault figures of docs/load.md, one after the other, each against a fresh
# server that `blokus load` starts on 127.0.0.1. Output: one report per run in
# ${OUT:-target/load-bench}/NAME.txt. Takes about six minutes; run it on a quiet machine
# (the harness and the server share its cores).
#
#   scripts/load-bench.sh            every run
#   scripts/load-bench.sh NAME...    some: flat1000 fast1000 people200 ai200 fault10 resume400
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p blokus-cli
bin=${CARGO_TARGET_DIR:-target}/release/blokus
out=${OUT:-target/load-bench}
mkdir -p "$out"

run() {
  local name=$1; shift
  echo "== $name: blokus load $*"
  "$bin" load "$@" | tee "$out/$name.txt" || true
}

all=(flat1000 fast1000 people200 ai200 fault10 resume400)
for name in "${@:-${all[@]}}"; do
  case $name in
    # 1,000 people-only Duo games at once, flat out, one spectator each.
    flat1000) run flat1000 --games 1000 --seconds 30 ;;
    # The same games at a tenth to a third of a second per move: busy, not saturated.
    fast1000) run fast1000 --games 1000 --seconds 60 --think 100-300 ;;
    # People's latency without and with AI-heavy games beside them (level 5, half the games).
    people200) run people200 --games 200 --seconds 30 --think 200-1000 ;;
    ai200) run ai200 --games 200 --seconds 30 --think 200-1000 --ai-share 0.5 --ai-level 5 ;;
    # Ten SIGKILL-and-restart cycles under load, half the games against the AI.
    fault10) run fault10 --fault --games 200 --cycles 10 --ai-share 0.5 --ai-level 3 --seconds 300 ;;
    # More running AI games than the server scans at start (issue #15 defect 4).
    resume400) run resume400 --fault --games 400 --cycles 1 --kill-after 8 --ai-share 1 --ai-level 6 --think 0 --seconds 120 --ai-timeout 60 ;;
    *) echo "unknown run '$name' (runs: ${all[*]})" >&2; exit 2 ;;
  esac
done
