#!/usr/bin/env bash
# Start time of one service with and without its AppCDS archive (issue 34 item 4), measured in one session on
# one running local stack, alternating (A B, B A, ...), so both meet the same machine load: bench/platform-start.sh's
# approach. Each instance is started with bench/extra-instance.sh (the running instance's environment and JVM
# options, its own port, run in the app dir), A with APPCDS=on (its app-cds.jsa and -Xshare:on: a JVM that cannot
# map the archive stops at once instead of measuring a start without it), B with APPCDS=off (the JDK's own
# class-data archive only, as a build without app-cds.jsa); awaited until /q/health/ready says UP, its Quarkus
# "started in" read from its log and its RSS read from /proc 5 s after it is ready, then stopped. Builds nothing.
# Usage: bench/start-appcds.sh [-n ROUNDS] [-p PORT] [-b APP_DIR_WITHOUT] SERVICE [APP_DIR]
#   APP_DIR: a target/quarkus-app with app-cds.jsa (default SERVICE/target/quarkus-app; a copy kept with `cp -a`,
#            which keeps the jars' modification times the archive checks), started with and without the archive;
#   -b DIR:  start the runs without the archive from DIR instead (e.g. the same build packaged without it);
#   -n 5, -p 8091 by default.   e.g. bench/start-appcds.sh -n 5 mandate-service /tmp/mandate-cds
# Prints one line per start: label, round, "started in" (s), seconds until ready as seen from here, RSS (MB).
# Needs the local stack running (deploy/local/run); start it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=5; PORT=8091; B_APP=""
while getopts "n:p:b:" o; do
  case "$o" in n) ROUNDS=$OPTARG ;; p) PORT=$OPTARG ;; b) B_APP=$OPTARG ;; *) sed -n '9,13p' "$0" >&2; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '9,13p' "$0" >&2; exit 2; }
SERVICE=$1; A_APP=${2:-$SERVICE/target/quarkus-app}; B_APP=${B_APP:-$A_APP}
[ -f "$A_APP/app-cds.jsa" ] || { echo "$A_APP/app-cds.jsa does not exist: package with quarkus.package.jar.appcds.enabled=true" >&2; exit 1; }
LOG=/tmp/extra-$SERVICE-$PORT.log
alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s:0:1}" != Z ]; }   # a stopped JVM left unreaped is gone

one() { # label appcds app round
  local label=$1 appcds=$2 app=$3 round=$4 t0 pid ready started rss
  t0=$(date +%s.%N)
  pid=$(APPCDS=$appcds bench/extra-instance.sh "$SERVICE" "$PORT" "$app" | sed -n 's/.*(pid \([0-9]*\)).*/\1/p')
  ready=""
  for _ in $(seq 1 240); do
    if curl -fsS "http://127.0.0.1:$PORT/q/health/ready" 2>/dev/null | grep -q '"UP"'; then ready=$(date +%s.%N); break; fi
    alive "$pid" || break
    sleep 0.5
  done
  if [ -z "$ready" ]; then echo "$label round $round: not ready; see $LOG" >&2; kill "$pid" 2>/dev/null || true; return 1; fi
  if grep -q "Unable to use shared archive" "$LOG"; then echo "$label round $round: the archive was not mapped; see $LOG" >&2; fi
  sleep 5
  rss=$(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
  started=$(grep -o 'started in [0-9.]*s' "$LOG" | head -1 | grep -o '[0-9.]*' | head -1)
  printf '%s\tround %s\tstarted in %s s\tready after %.1f s\tRSS %s MB\n' "$label" "$round" "$started" "$(echo "$ready - $t0" | bc)" "$rss"
  kill "$pid"; while alive "$pid"; do sleep 0.2; done
}

echo "# $SERVICE: cds = $A_APP with app-cds.jsa (-Xshare:on), nocds = $B_APP without; $ROUNDS rounds, port $PORT"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then one cds on "$A_APP" "$r"; one nocds off "$B_APP" "$r"
  else one nocds off "$B_APP" "$r"; one cds on "$A_APP" "$r"; fi
done
