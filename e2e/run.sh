#!/usr/bin/env bash
# End-to-end checks of the web app: type-checks web/ with tsc, then drives `blokus serve`
# in headless Chromium. Sets itself up idempotently (Debian chromium, npm packages, the
# release binary unless BLOKUS_BIN is given). Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(cd .. && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: installing chromium (Debian package)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/typescript ]; then
  echo "e2e: installing npm packages"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi

if [ -z "${BLOKUS_BIN:-}" ]; then
  echo "e2e: building the release binary"
  (cd "$ROOT" && cargo build --release -p blokus-cli)
  BLOKUS_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/blokus"
fi
export BLOKUS_BIN

passed=0
failed=0
echo "e2e: tsc --noEmit over web/"
if npx --no-install tsc --noEmit -p ../web/tsconfig.json; then
  echo "ok   web/ type-checks"
  passed=$((passed + 1))
else
  echo "FAIL web/ type-check"
  failed=$((failed + 1))
fi
echo "e2e: tsc --noEmit over the tests"
if npx --no-install tsc --noEmit -p tsconfig.json; then
  echo "ok   e2e/ type-checks (the pages' test hooks are typed)"
  passed=$((passed + 1))
else
  echo "FAIL e2e/ type-check"
  failed=$((failed + 1))
fi

set +e
node run-tests.mjs | tee /tmp/blokus-e2e.$$.log
status=${PIPESTATUS[0]}
set -e
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/blokus-e2e.$$.log | tail -1 || true)
rm -f /tmp/blokus-e2e.$$.log
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
elif [ "$status" != 0 ]; then
  failed=$((failed + 1))
fi
echo "e2e: screenshots in $ROOT/test-output/screenshots/"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
