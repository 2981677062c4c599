#!/usr/bin/env bash
# Runs every test of the project, doing its own set-up (idempotent): formatting, lints,
# unit / integration / property tests of every crate (release mode: the AI and solver
# tests play real games), then the browser end-to-end tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --release -- -D warnings

step "PostgreSQL test server (127.0.0.1, for the PostgreSQL backend's tests)"
if pg_url="$(bash scripts/postgres-test-server.sh start)"; then
    export BLOKUS_TEST_POSTGRES="$pg_url"
    echo "PostgreSQL at $pg_url"
elif [ -n "${CI:-}" ] && [ "${CI}" != false ]; then
    echo "PostgreSQL could not start: on CI its tests must run" >&2
    exit 1
else
    echo "PostgreSQL could not start: the PostgreSQL tests say 'skipped'" >&2
fi

step "cargo test (every crate, release)"
cargo test --workspace --release

if [ -n "${BLOKUS_TEST_POSTGRES:-}" ]; then
    step "the server's API tests again, on PostgreSQL"
    BLOKUS_TEST_BACKEND=postgres cargo test --release -p blokus-server --tests
fi

step "browser end-to-end tests"
BLOKUS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/blokus" bash e2e/run.sh
