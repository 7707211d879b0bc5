#!/usr/bin/env bash
# Makes sure a local PostgreSQL server answers on 127.0.0.1:5432 with user postgres/postgres,
# installing Debian's package when we are root and it is missing. Prints the admin URL on stdout.
# Idempotent: safe to call when the server already runs.
set -euo pipefail
log() { echo "[postgres] $*" >&2; }

if ! command -v pg_lsclusters >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing Debian's postgresql package"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  else
    log "PostgreSQL is not installed and cannot be installed here (need root and apt-get)"
    exit 3
  fi
fi

cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $1" "$2}')
if [ -z "$cluster" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  pg_createcluster "$version" main >&2
  cluster="$version main"
fi
# shellcheck disable=SC2086
pg_ctlcluster $cluster start >&2 2>/dev/null || true
for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
pg_isready -q -h 127.0.0.1 || { log "server did not come up"; exit 4; }
su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'postgres'\"" >&2
echo "postgres://postgres:postgres@127.0.0.1:5432/postgres"
