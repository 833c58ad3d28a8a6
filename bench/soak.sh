#!/usr/bin/env bash
# Soak (issue 34 item 2): MINUTES of steady load on a running local stack, and every minute one sample of what must
# not keep growing: housekeeping table sizes and row counts, each service's heap after GC, create p99 and every
# consumer group's lag. Over the last 20 minutes none of them may grow by more than 10 % (a run shorter than 20
# minutes judges its last half instead). Writes bench/target/soak/{samples.csv,soak.svg,soak.md}; exits 1 when a
# judged series failed, 2 when the run could not be made.
#
# Usage: bench/soak.sh STATE_DIR [MINUTES=30] [RATE=300]
#
# Load: RATE mandate creates/s open loop through the gateway (dev partner, no Idempotency-Key), each delivered as a
# `mandate.proposed` webhook to a receiver inside the driver (a subscription made for the run, deleted after it), and
# one invoice paid with a USDC transfer every 2 s on base (SOAK_INVOICE_EVERY_MS, SOAK_PAY_CHAIN). Before reading each
# service's heap after GC it asks each one for a full GC (jcmd <pid> GC.run, pids from STATE_DIR/pids; SOAK_FULL_GC=0
# turns that off). Driver: dev.agentpay.bench.soak.Soak (bench module; `Soak --report samples.csv` redraws a run).
#
# The stack is started separately, and must run with short housekeeping retentions (the defaults are days: a
# 30-minute run would show only growth), and the rate limit off (a partner key may send 50 requests/s), e.g.:
#
#   PLATFORM_RATE_LIMIT_ENABLED=false \
#   PLATFORM_CONSUMERS_PROCESSED_RETENTION=5m PLATFORM_CONSUMERS_PRUNE_INTERVAL=1m \
#   PLATFORM_OUTBOX_RETENTION=5m PLATFORM_OUTBOX_CLEANUP_INTERVAL=1m \
#   WEBHOOK_HISTORY_RETENTION=5m WEBHOOK_HISTORY_PRUNE_INTERVAL=1m \
#   SKIP_BUILD=1 deploy/local/run --any-ports --state-dir /tmp/soakstate
#
# (drop SKIP_BUILD=1 for a first build; deploy/local/run stop --state-dir /tmp/soakstate stops it). Use a fresh
# stack, so each run starts from the same empty housekeeping tables (the dispatcher's claim stall the first trials
# met after a deleted subscription is fixed: bench/RESULTS.md, "Soak"). What each variable sets: platform.consumers.processed-retention
# / prune-interval (service-commons ProcessedEventPruner, first round 2 min after start), platform.outbox.retention /
# cleanup-interval (OutboxSchedule, first round 1 min after start), webhook.history.retention / prune-interval
# (webhook-dispatcher DeliveryHistoryPruner, first round 2 min after start). mandate-service's idempotency records are
# kept 24 h by design: reported, not judged.
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=${1:?usage: bench/soak.sh STATE_DIR [MINUTES=30] [RATE=300]}
MINUTES=${2:-30}
RATE=${3:-300}
[ -f "$STATE/stack.env" ] || { echo "no $STATE/stack.env: start the stack first (see this script's header)" >&2; exit 2; }
if [ "${SKIP_BUILD:-0}" != "1" ] || [ ! -f bench/target/bench-0.1.0-SNAPSHOT.jar ]; then
  ./mvnw -B -o -q -pl bench package -DskipTests
fi
exec java -Xmx512m -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.soak.Soak \
  "$STATE/stack.env" "$MINUTES" "$RATE" bench/target/soak
