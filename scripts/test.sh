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

step "cargo test (every crate, release)"
cargo test --workspace --release

step "browser end-to-end tests"
BLOKUS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/blokus" bash e2e/run.sh
