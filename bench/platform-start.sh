#!/usr/bin/env bash
# Start time and idle RSS of one service built on two Quarkus platform lines, measured in one session on one
# running local stack, alternating (A B, B A, ...), so both builds meet the same machine load.
# Each instance is started with bench/extra-instance.sh (the running instance's environment, its own port),
# awaited until /q/health/ready says UP, its Quarkus "started in" read from its log and its RSS read from
# /proc 5 s after it is ready, then stopped.
# Each build starts with its own AppCDS archive when it has one, as the launcher starts it (APPCDS=off in the
# environment: neither does; bench/extra-instance.sh); bench/start-appcds.sh measures the archive itself.
# Usage: bench/platform-start.sh SERVICE APP_DIR_A APP_DIR_B [ROUNDS] [PORT]
#   e.g. bench/platform-start.sh mandate-service /tmp/mandate-3.37.1 /tmp/mandate-3.33.2 3 8091
# Prints one line per start: label, round, "started in" (s), seconds until ready as seen from here, RSS (MB).
set -euo pipefail
cd "$(dirname "$0")/.."
SERVICE=$1; A=$2; B=$3; ROUNDS=${4:-3}; PORT=${5:-8091}

one() { # label app round
  local label=$1 app=$2 round=$3 t0 pid ready started rss
  t0=$(date +%s.%N)
  pid=$(bench/extra-instance.sh "$SERVICE" "$PORT" "$app" | sed -n 's/.*(pid \([0-9]*\)).*/\1/p')
  ready=""
  for _ in $(seq 1 240); do
    if curl -fsS "http://127.0.0.1:$PORT/q/health/ready" 2>/dev/null | grep -q '"UP"'; then ready=$(date +%s.%N); break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if [ -z "$ready" ]; then echo "$label round $round: not ready; see /tmp/extra-$SERVICE-$PORT.log" >&2; kill "$pid" 2>/dev/null || true; return 1; fi
  sleep 5
  rss=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
  started=$(grep -o 'started in [0-9.]*s' "/tmp/extra-$SERVICE-$PORT.log" | head -1 | grep -o '[0-9.]*' | head -1)
  printf '%s\tround %s\tstarted in %s s\tready after %.1f s\tRSS %s MB\n' "$label" "$round" "$started" "$(echo "$ready - $t0" | bc)" "$rss"
  kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
}

for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then one A "$A" "$r"; one B "$B" "$r"; else one B "$B" "$r"; one A "$A" "$r"; fi
done
