#!/usr/bin/env bash
# Prints, as markdown, what a running local stack took to start and what it holds at idle:
# each service's Quarkus start time (from its log) and resident memory (from ps).
# Usage: bench/stack-figures.sh [STATE_DIR]   (default .local; run after `deploy/local/run` printed "ready")
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=${1:-.local}
echo "| service | cold start (Quarkus 'started in') | idle RSS (MB) |"
echo "|---|---|---|"
for svc in mandate-service invoice-service settlement-watcher anchor-service discovery-service webhook-dispatcher; do
  started=$(grep -o "started in [0-9.]*s" "$STATE/logs/$svc.log" | tail -1 | awk '{print $3}')
  pid=$(pgrep -f "$PWD/$svc/target/quarkus-app/quarkus-run.jar" | head -1 || true)
  rss=$([ -n "$pid" ] && ps -o rss= -p "$pid" | awk '{printf "%.0f", $1/1024}' || echo "-")
  echo "| $svc | ${started:-?} | ${rss} |"
done
