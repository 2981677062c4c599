#!/usr/bin/env bash
# The figures of docs/deploy.md: `blokus load` against one and then two `blokus serve`
# processes on one PostgreSQL database (the throw-away test server of
# scripts/postgres-test-server.sh, on 127.0.0.1), each run on a fresh database, and the
# same load against one process on SQLite for comparison. Reports go to
# ${OUT:-target/deploy-bench}/NAME.txt. Run it on a quiet machine: the harness, the
# servers and PostgreSQL share its cores.
#
#   scripts/deploy-bench.sh [GAMES [SECONDS]]     default 200 games, 30 s, flat out
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
seconds=${2:-30}
cargo build --release -q -p blokus-cli
bin=${CARGO_TARGET_DIR:-target}/release/blokus
out=${OUT:-target/deploy-bench}
mkdir -p "$out"
pg=$(bash scripts/postgres-test-server.sh start)
base=${pg%/*}
pids=()
addr=
cleanup() { for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done; wait || true; }
trap cleanup EXIT

# Starts `blokus serve` with the given arguments; sets `addr` to its address.
serve() {
  local log
  log=$(mktemp)
  "$bin" serve --port 0 "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do
    if grep -q 'serving on' "$log"; then
      addr=$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1)
      return
    fi
    sleep 0.1
  done
  echo "blokus serve did not start: $(cat "$log")" >&2
  exit 1
}

fresh_db() {
  psql -q "$pg" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null
  printf '%s/%s' "$base" "$1"
}

run() {
  local name=$1; shift
  echo "== $name: blokus load $*"
  "$bin" load --games "$games" --seconds "$seconds" "$@" | tee "$out/$name.txt"
  cleanup
  pids=()
}

data=$(mktemp -d)
serve --data "$data"
run sqlite1 --server "$addr" --server-pid "${pids[0]}"

db=$(fresh_db blokus_bench1)
serve --database "$db"
run postgres1 --server "$addr" --server-pid "${pids[0]}"

db=$(fresh_db blokus_bench2)
serve --database "$db"
a=$addr
serve --database "$db"
run postgres2 --server "$a" --server "$addr" --server-pid "${pids[0]}"
rm -rf "$data"
