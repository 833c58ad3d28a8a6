#!/usr/bin/env bash
# Settlement latency (SettlementLatency) of two settlement-watcher builds, each on a fresh local stack,
# alternating A B B A so both meet the same machine load. Each run puts the build in
# settlement-watcher/target/quarkus-app (the build found there is put back at the end), starts the stack
# (SKIP_BUILD=1, rate limits off, --any-ports, its own state dir), waits for stack.env, runs the bench,
# and stops the stack. Build the bench first (`./mvnw -B -o -pl bench -am package -DskipTests`) and copy
# each watcher build away (its target/quarkus-app directory).
# Usage, under the stack lock: flock /work/locks/stack.lock bench/settlement-ab.sh APP_DIR_A APP_DIR_B [PER_CHAIN] [WARMUP]
set -euo pipefail
cd "$(dirname "$0")/.."
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd); N=${3:-10}; W=${4:-3}
APP=settlement-watcher/target/quarkus-app
keep=$(mktemp -d /tmp/settle-ab-keep.XXXX)
cp -a "$APP" "$keep/"
trap 'rm -rf "$APP"; cp -a "$keep/quarkus-app" "$APP"; rm -rf "$keep"' EXIT

one() { # label app
  local label=$1 app=$2 state
  rm -rf "$APP"; cp -a "$app" "$APP"
  state=$(mktemp -d /tmp/settle-ab.XXXX)
  PLATFORM_RATE_LIMIT_ENABLED=false SKIP_BUILD=1 deploy/local/run --any-ports --state-dir "$state" > "$state.out" 2>&1 &
  for _ in $(seq 1 600); do [ -f "$state/stack.env" ] && break; sleep 1; done
  if [ ! -f "$state/stack.env" ]; then echo "$label: the stack did not start; see $state.out" >&2; deploy/local/run stop --state-dir "$state" || true; return 1; fi
  java -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.settlement.SettlementLatency \
      "$state/stack.env" "$N" "$W" 2>&1 | sed "s/^/$label /"
  deploy/local/run stop --state-dir "$state" > /dev/null 2>&1 || true
  wait || true
  rm -rf "$state" "$state.out"
}

one A "$A"; one B "$B"; one B "$B"; one A "$A"
