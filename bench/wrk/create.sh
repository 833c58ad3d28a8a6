#!/usr/bin/env bash
# Closed-loop POST /v1/mandates with wrk (a C load generator, like pgbench on the ceiling's side), so the
# driver takes a few % of a CPU instead of the Java driver's ~40 % on a two-CPU machine.
# Usage: bench/wrk/create.sh [STATE_DIR] [CONNECTIONS] [SECONDS] [TARGET]
#   TARGET: gateway (default, BASE_URL) or direct (MANDATE_SERVICE_URL)
set -euo pipefail
cd "$(dirname "$0")/../.."
STATE=${1:-.local}; CONNS=${2:-32}; SECS=${3:-10}; TARGET=${4:-gateway}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
val() { grep "^$1=" "$STATE/stack.env" | head -1 | cut -d= -f2-; }
case "$TARGET" in
  gateway) URL=$(val BASE_URL) ;;
  direct) URL=$(val MANDATE_SERVICE_URL) ;;
  *) echo "TARGET is gateway or direct" >&2; exit 2 ;;
esac
API_KEY=$(val API_KEY) wrk -t2 -c "$CONNS" -d "${SECS}s" --latency -s bench/wrk/create-mandate.lua "$URL/v1/mandates"
