#!/usr/bin/env bash
# The whole test suite, on the embedded SQLite store and on a real PostgreSQL server.
# TEST_DATABASE_URL (an admin URL; each test file creates and drops its own database) selects the
# server; without it we start the local one (installing it when we are root).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if url=$(bash scripts/postgres.sh); then
    export TEST_DATABASE_URL="$url"
  elif [ "${CI:-}" = "true" ]; then
    # In CI the PostgreSQL half is required: a run that quietly tested SQLite alone would look green.
    echo "[test] no PostgreSQL server under CI=true: failing instead of testing SQLite alone" >&2
    exit 1
  else
    echo "[test] no PostgreSQL server: the PostgreSQL half of the suite is skipped" >&2
  fi
fi
echo "[test] stores: sqlite${TEST_DATABASE_URL:+ + postgresql (${TEST_DATABASE_URL%%@*}@…)}"
exec npx vitest run "$@"
