#!/usr/bin/env bash
# The raw PostgreSQL ceiling for a mandate create, beside the bench's create-mandate scenario.
# Builds mandate-service's schema (its Flyway migrations) in a scratch database on the running
# local stack's PostgreSQL (so the outbox relay does not see these rows), then runs pgbench with create-mandate.sql.
# Usage: bench/pgbench/ceiling.sh [STATE_DIR] [CLIENTS] [SECONDS] [RATE]   (needs pgbench and psql on PATH)
# Without RATE: closed loop, the throughput ceiling. With RATE: open loop at RATE transactions/s (pgbench -R;
# latency counted from each transaction's scheduled start), percentiles over the steady part only (the
# first 2 s, where pgbench's clients connect and prepare, are left out), to set beside the bench's --rate runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
STATE=${1:-.local}; CLIENTS=${2:-32}; SECONDS_=${3:-20}; RATE=${4:-}
PORT=$(grep '^POSTGRES_PORT=' "$STATE/stack.env" | cut -d= -f2)
export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres PGPASSWORD=postgres
psql -q -d postgres -c 'drop database if exists pgceiling' -c 'create database pgceiling'
# The client tools here may be older than the server: build the schema from the migrations, not pg_dump.
# In Flyway's order: by version number (V1__ before V1.1__ before V2__), which a shell glob does not give.
migrations=$(for f in service-commons/src/main/resources/db/platform/*.sql mandate-service/src/main/resources/db/migration/*.sql; do
  v=$(basename "$f" | sed -E 's/^V([0-9.]+)__.*/\1/'); echo "$v $f"; done | sort -t. -k1,1n -k2,2n | awk '{print $2}')
for f in $migrations; do
  psql -q -v ON_ERROR_STOP=1 -d pgceiling -f "$f" >/dev/null
done
# p50/p99/p99.9 of the latencies (microseconds) read from stdin, after the label in $1
percentiles() {
  sort -n | awk -v label="$1" '{a[NR]=$1} END {printf "%sp50 = %.2f ms, p99 = %.2f ms, p99.9 = %.2f ms (n=%d)\n", label, a[int(NR*0.5)]/1000, a[int(NR*0.99)]/1000, a[int(NR*0.999)]/1000, NR}'
}
if [ -z "$RATE" ]; then
  pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$SECONDS_" -f bench/pgbench/create-mandate.sql -P 5 \
    --log --sampling-rate=1 --log-prefix=/tmp/pgceiling pgceiling | grep -E 'tps|latency|transactions'
  # p50/p99 from the per-transaction log (microseconds, 3rd column)
  cat /tmp/pgceiling.* | awk '{print $3}' | percentiles "latency "
else
  pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$((SECONDS_ + 2))" -R "$RATE" -f bench/pgbench/create-mandate.sql \
    --log --sampling-rate=1 --log-prefix=/tmp/pgceiling pgceiling | grep -E '^tps'
  # columns 5 and 6: when the transaction ended (epoch s, us); keep those after the first 2 s
  cat /tmp/pgceiling.* | sort -k5,5n -k6,6n | awk 'NR==1{b=$5} ($5-b)+$6/1e6 > 2 {print $3}' \
    | percentiles "open loop $RATE/s: "
fi
rm -f /tmp/pgceiling.*
psql -q -d postgres -c 'drop database pgceiling'
