#!/bin/sh
# The stand-in for the official postgres image's entrypoint (issue 48), on
# Debian's PostgreSQL 15: the same environment (POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB, PGDATA) and data directory
# (/var/lib/postgresql/data), so that docker/compose*.yml run unchanged.
# Only what those files use: a first start makes the cluster, the user
# with its password and the database; later starts find them in the volume.
set -eu
PGDATA=${PGDATA:-/var/lib/postgresql/data}
bin=/usr/lib/postgresql/15/bin
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "POSTGRES_PASSWORD is not set" >&2; exit 1; }
  pw=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pw"
  "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    "$bin/createdb" -U "$user" "$db"
    "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "initialised $PGDATA: user $user, database $db"
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
