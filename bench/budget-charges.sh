#!/usr/bin/env bash
# Charges per second against one budget (contended) and against many (uncontended), beside mandate creation, on a
# running stack started with the rate limiter off (PLATFORM_RATE_LIMIT_ENABLED=false deploy/local/run ...).
# Usage: bench/budget-charges.sh [STATE_DIR=.local] [CONCURRENCY=16] [SECONDS=20]
# Figures: bench/RESULTS.md, "Budgets and charges (issue 28)"; write the load average beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=${1:-.local}; CONC=${2:-16}; SECS=${3:-20}
val() { grep "^$1=" "$STATE/stack.env" | head -1 | cut -d= -f2-; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
node bench/budget/charges.mjs "$(val BASE_URL)" "$(val API_KEY)" "$(val SIGNING_SECRET)" "$CONC" "$SECS"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
