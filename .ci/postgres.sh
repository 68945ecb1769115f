#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages (if missing), starts a throwaway cluster on
# 127.0.0.1:${PROVISIO_PG_PORT:-54329} and prints the URL the tests use. Idempotent: a cluster
# already running on that port is reused. The test role may create databases and roles: the
# audit tests run a server under a role that owns nothing, as SECURITY.md advises.
set -euo pipefail

port="${PROVISIO_PG_PORT:-54329}"
data="${PROVISIO_PG_DATA:-/tmp/provisio-pg-$port}"

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"

as_postgres() { runuser -u postgres -- "$@"; }

if ! as_postgres "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q; then
    if [ ! -f "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        chown postgres:postgres "$data"
        as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >&2
    fi
    as_postgres "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w start \
        -o "-c listen_addresses=127.0.0.1 -p $port -c max_connections=1000 -c fsync=off -c unix_socket_directories=$data" >&2
fi
as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qtA -c \
    "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'provisio') THEN
       CREATE ROLE provisio LOGIN PASSWORD 'provisio' CREATEDB CREATEROLE; END IF; END \$\$;
     ALTER ROLE provisio CREATEROLE;" >&2
echo "postgres://provisio:provisio@127.0.0.1:$port/postgres"
