#!/usr/bin/env bash
# Runs coverage-guided fuzz targets (cargo-fuzz / libFuzzer) on the stable toolchain.
#
#   scripts/fuzz.sh TARGET SECONDS     one target (blksgf json_record gtp ws_message http_body)
#   scripts/fuzz.sh all SECONDS        each target in turn for SECONDS
#   scripts/fuzz.sh list               the targets
#   FUZZ_KEEP=1 scripts/fuzz.sh ...    afterwards merge what added coverage into fuzz/corpus/
#
# The kept corpus fuzz/corpus/TARGET is only read; new inputs go to fuzz/work/TARGET
# (ignored by git). A crash stops the run and leaves its input in fuzz/artifacts/TARGET/;
# turn it into a regression test in the crate that owns the code (see docs/fuzzing.md).
# One job, one core: the machine is shared. Not part of CI (only the regression tests are).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

TARGETS=(blksgf json_record gtp ws_message http_body)
usage() { echo "usage: scripts/fuzz.sh TARGET|all|list SECONDS" >&2; exit 2; }

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${TARGETS[@]}"; exit 0; fi
[ $# -eq 2 ] || usage
case "$2" in ''|*[!0-9]*) echo "SECONDS must be a whole number, not '$2'" >&2; exit 2;; esac
if [ "$1" = all ]; then
  selected=("${TARGETS[@]}")
else
  [[ " ${TARGETS[*]} " == *" $1 "* ]] || { echo "unknown target '$1' (targets: ${TARGETS[*]})" >&2; exit 2; }
  selected=("$1")
fi

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# cargo-fuzz passes a few -Z flags to rustc; RUSTC_BOOTSTRAP lets the stable compiler
# accept them, so no nightly toolchain is needed. No sanitizer: the code under test has
# no unsafe code, so the fuzzing looks for panics, overflows, hangs and memory blow-ups.
export RUSTC_BOOTSTRAP=1
FLAGS=(--sanitizer none --release)

for t in "${selected[@]}"; do
  mkdir -p "work/$t" "corpus/$t"
  echo "== fuzzing $t for $2 s"
  cargo fuzz run "${FLAGS[@]}" "$t" "work/$t" "corpus/$t" -- \
    -max_total_time="$2" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
  if [ "${FUZZ_KEEP:-0}" = 1 ]; then
    # libFuzzer's merge adds to the first folder only the inputs that add coverage.
    cargo fuzz run "${FLAGS[@]}" "$t" "corpus/$t" "work/$t" -- -merge=1 2>&1 | tail -1
  fi
done
