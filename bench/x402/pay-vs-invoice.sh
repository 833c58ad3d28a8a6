#!/usr/bin/env bash
# Starts the local stack (already built: ./mvnw -B -q package -DskipTests), runs pay-vs-invoice.mjs
# against it, stops it. Run it under the machine-wide stack lock:
#   flock /work/locks/stack.lock bench/x402/pay-vs-invoice.sh [N=60] [WARMUP=10] [STATE_DIR=/tmp/pay-bench-stack]
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-60}
WARMUP=${2:-10}
STATE=${3:-/tmp/pay-bench-stack}
rm -f "$STATE/stack.env"
SKIP_BUILD=1 deploy/local/run --any-ports --state-dir "$STATE" > "$STATE.log" 2>&1 &
STACK=$!
stop() {
  deploy/local/run stop --state-dir "$STATE" > /dev/null 2>&1 || true
  wait "$STACK" 2> /dev/null || true
}
trap stop EXIT
for _ in $(seq 1 600); do
  [ -f "$STATE/stack.env" ] && break
  kill -0 "$STACK" 2> /dev/null || { echo "the stack exited; see $STATE.log" >&2; exit 1; }
  sleep 1
done
[ -f "$STATE/stack.env" ] || { echo "the stack was not ready after 600 s; see $STATE.log" >&2; exit 1; }
echo "stack ready; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
node bench/x402/pay-vs-invoice.mjs "$STATE/stack.env" "$N" "$WARMUP"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
