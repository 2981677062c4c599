#!/usr/bin/env bash
# A throw-away PostgreSQL server on 127.0.0.1 for the tests of the PostgreSQL backend.
#
#   scripts/postgres-test-server.sh start   # installs the Debian package if missing,
#                                           # starts the server (idempotent), prints its URL
#   scripts/postgres-test-server.sh stop
#
# The cluster lives in $BLOKUS_PG_DIR (default /tmp/blokus-pg-test) and listens on
# 127.0.0.1:$BLOKUS_PG_PORT (default 54329) with trust authentication: it is for tests
# only. Progress goes to stderr; stdout gets only the URL.
set -euo pipefail

dir="${BLOKUS_PG_DIR:-/tmp/blokus-pg-test}"
port="${BLOKUS_PG_PORT:-54329}"
url="postgres://postgres@127.0.0.1:$port/postgres"

say() { printf '%s\n' "$*" >&2; }

pg_bin() {
    local b
    for b in /usr/lib/postgresql/*/bin; do
        [ -x "$b/initdb" ] && [ -x "$b/pg_isready" ] && { printf '%s\n' "$b"; return 0; }
    done
    # Installed some other way, on the PATH.
    b="$(command -v pg_ctl 2>/dev/null)" || return 1
    b="$(dirname "$(readlink -f "$b")")"
    [ -x "$b/initdb" ] && [ -x "$b/pg_isready" ] && { printf '%s\n' "$b"; return 0; }
    return 1
}

bin="$(pg_bin || true)"
if [ -z "$bin" ]; then
    say "installing PostgreSQL (Debian package postgresql)"
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 ||
            { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
    else
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    fi
    bin="$(pg_bin)"
fi

# PostgreSQL refuses to run as root: as root, run it as the package's postgres user.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-start}" in
start)
    if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
        printf '%s\n' "$url"
        exit 0
    fi
    if [ ! -f "$dir/PG_VERSION" ]; then
        mkdir -p "$dir"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
        chmod 700 "$dir"
        as_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --no-sync >&2
    fi
    # Tests only: durability is traded for speed (a lost test database is re-created).
    as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 start \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
    printf '%s\n' "$url"
    ;;
stop)
    if [ -f "$dir/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >&2
    fi
    ;;
*)
    say "usage: $0 start|stop"
    exit 2
    ;;
esac
