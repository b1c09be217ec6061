#!/usr/bin/env bash
# Starts or stops a private PostgreSQL 15 server on a loopback port for the test suite and benchmarks.
# Installs Debian's postgresql package when it is missing.
#   scripts/pg.sh start   -> prints the admin URL (postgres://postgres@127.0.0.1:PORT/postgres)
#   scripts/pg.sh stop
set -euo pipefail
PORT="${PG_TEST_PORT:-55432}"
ROOT="${PG_TEST_DIR:-/tmp/switchboard-pg-$PORT}"
DATA="$ROOT/data"; SOCK="$ROOT/sock"; LOG="$ROOT/pg.log"

find_bin() {
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return; }; done
  return 1
}

ensure_installed() {
  if ! BIN=$(find_bin); then
    echo "Installing PostgreSQL (Debian package postgresql)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN=$(find_bin)
  fi
}

as_postgres() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    ensure_installed
    if [ -f "$DATA/postmaster.pid" ] && as_postgres "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
      echo "postgres://postgres@127.0.0.1:$PORT/postgres"; exit 0
    fi
    rm -rf "$ROOT"; mkdir -p "$DATA" "$SOCK"
    [ "$(id -u)" = "0" ] && chown -R postgres:postgres "$ROOT"
    as_postgres "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    # The suite creates and drops many short-lived databases: fsync buys nothing here.
    as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -o "-c listen_addresses=127.0.0.1 -p $PORT -k $SOCK -c max_connections=300 -c fsync=${PG_FSYNC:-off} -c synchronous_commit=${PG_SYNC_COMMIT:-off} -c full_page_writes=off" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    if BIN=$(find_bin) && [ -d "$DATA" ]; then
      as_postgres "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$ROOT"
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
