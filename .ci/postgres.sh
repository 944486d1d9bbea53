#!/usr/bin/env bash
# Install and start a local PostgreSQL server for the persistence tests; prints the URL to use.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
PGVER=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_ctlcluster "$PGVER" main start >&2 2>/dev/null || pg_ctlcluster "$PGVER" main status >&2
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
cd /tmp
su postgres -c "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname='evidence'\"" | grep -q 1 \
  || su postgres -c "psql -q -v ON_ERROR_STOP=1 -c \"CREATE ROLE evidence LOGIN PASSWORD 'evidence'\"" >&2
su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname='evidence_test'\"" | grep -q 1 \
  || su postgres -c "createdb -O evidence evidence_test" >&2
echo "postgresql+psycopg://evidence:evidence@127.0.0.1:5432/evidence_test"
