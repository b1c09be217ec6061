#!/usr/bin/env bash
# `npm test`: lint, typecheck, unit tests, integration tests on the embedded database and again on a real
# PostgreSQL 15 (installed and started here on a loopback port, stopped at the end), then browser tests in
# Debian's Chromium against the built app, on each database in turn.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

step() { printf '\n=== %s\n' "$*"; }
PG_STARTED=""
cleanup() { [ -n "$PG_STARTED" ] && bash scripts/pg.sh stop || true; }
trap cleanup EXIT

# The shared rate-limit store's test runs its own Redis on a loopback port.
if ! command -v redis-server >/dev/null; then
  echo "Installing Redis (Debian package redis-server)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
fi

step "lint"
npx biome check --error-on-warnings .
step "typecheck"
npm run -s typecheck
step "unit tests"
npx vitest run --project unit
step "integration tests on the embedded database (PGlite)"
npx vitest run --project integration
step "integration tests on PostgreSQL"
PG_URL=$(bash scripts/pg.sh start); PG_STARTED=1
TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration
step "browser tests (Chromium) on the embedded database"
bash scripts/e2e.sh
step "browser tests (Chromium) on PostgreSQL"
# An empty database: the server migrates and seeds it on start, as on a first deployment.
psql "$PG_URL" -qc "CREATE DATABASE switchboard_e2e"
E2E_DATABASE_URL="${PG_URL%/*}/switchboard_e2e" bash scripts/e2e.sh
bash scripts/pg.sh stop; PG_STARTED=""
