#!/usr/bin/env bash
# The whole stack's warm start, by launcher (this tree's or an older build's) and with or without the services' AppCDS archives
# (issue 34 item 4), alternating in one session on one state directory, so every side meets the same machine and data.
# "without" is the build as it was before the archives: each service's target/quarkus-app/app-cds.jsa is moved
# aside for that start (the launcher then starts the JVM with the JDK's own class-data archive only) and put back
# afterwards, also when the script is interrupted.
# Usage: bench/stack-start.sh STATE_DIR [ROUNDS] [MODES]
#   STATE_DIR: a state directory the stack has already started on once (the first start migrates and deploys
#   contracts; this measures the start an operator sees every day after that). Build first (deploy/local/run
#   builds, or ./mvnw -B package -DskipTests); nothing else may run on the stack's state directory.
#   MODES (default "new-cds new-nocds"): each is LAUNCHER-ARCHIVES, LAUNCHER "new" (this tree's launcher) or "old"
#   (the launcher jar OLD_LAUNCHER names, e.g. another worktree's deploy/local/target/local-stack-*.jar, its lib/
#   beside it), ARCHIVES "cds" or "nocds". Each round runs every mode once, the order rotated round by round.
#   e.g. OLD_LAUNCHER=/work/old/deploy/local/target/local-stack-0.1.0-SNAPSHOT.jar bench/stack-start.sh /work/st 3 "old-nocds old-cds new-cds"
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=$1; ROUNDS=${2:-3}; read -r -a MODES <<< "${3:-new-cds new-nocds}"
NEW_LAUNCHER=deploy/local/target/local-stack-0.1.0-SNAPSHOT.jar
SERVICES=(mandate-service invoice-service settlement-watcher anchor-service discovery-service webhook-dispatcher)
OUT=$(mktemp -d /tmp/stack-start-XXXX)

restore() {
  for s in "${SERVICES[@]}"; do
    if [ -f "$s/target/quarkus-app/app-cds.jsa.aside" ]; then mv "$s/target/quarkus-app/app-cds.jsa.aside" "$s/target/quarkus-app/app-cds.jsa"; fi
  done
}
trap 'restore; SKIP_BUILD=1 deploy/local/run stop --state-dir "$STATE" >/dev/null 2>&1 || true' EXIT

for s in "${SERVICES[@]}"; do
  [ -f "$s/target/quarkus-app/app-cds.jsa" ] || { echo "$s/target/quarkus-app/app-cds.jsa is missing: build first" >&2; exit 1; }
done

one() { # mode round
  local mode=$1 round=$2 log="$OUT/$1-$2.log" t0 t1 ready load line jar
  case "$mode" in
    new-*) jar=$NEW_LAUNCHER ;;
    old-*) jar=${OLD_LAUNCHER:?OLD_LAUNCHER names the old launcher jar} ;;
    *) echo "mode $mode: new-* or old-*" >&2; exit 2 ;;
  esac
  if [ "${mode#*-}" = nocds ]; then
    for s in "${SERVICES[@]}"; do mv "$s/target/quarkus-app/app-cds.jsa" "$s/target/quarkus-app/app-cds.jsa.aside"; done
  fi
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  java -Xmx512m -jar "$jar" run --any-ports --state-dir "$STATE" > "$log" 2>&1 &
  local launcher=$!
  for _ in $(seq 1 600); do
    grep -q '==> stack ready in' "$log" && break
    kill -0 "$launcher" 2>/dev/null || { echo "$mode round $round: the launcher ended before ready; see $log" >&2; exit 1; }
    sleep 0.2
  done
  grep -q '==> stack ready in' "$log" || { echo "$mode round $round: not ready after 120 s; see $log" >&2; exit 1; }
  t1=$(date +%s.%N)
  ready=$(grep -o 'stack ready in [0-9.]*' "$log" | awk '{print $4}')
  line=$(printf '%s\tround %s\tload %s\tready in %s s\tseen %.1f s' "$mode" "$round" "$load" "$ready" "$(echo "$t1 - $t0" | bc)")
  for s in "${SERVICES[@]}"; do
    line+=$(printf '\t%s %s' "${s%%-*}" "$(grep -o 'started in [0-9.]*s' "$STATE/logs/$s.log" | tail -1 | grep -o '[0-9.]*' | head -1)")
  done
  echo "$line" | tee -a "$OUT/lines"
  SKIP_BUILD=1 deploy/local/run stop --state-dir "$STATE" >/dev/null 2>&1
  wait "$launcher" 2>/dev/null || true
  restore
}

for r in $(seq 1 "$ROUNDS"); do
  n=${#MODES[@]}
  for k in $(seq 0 $((n - 1))); do one "${MODES[$(((k + r - 1) % n))]}" "$r"; done
done
for mode in "${MODES[@]}"; do
  med=$(grep -P "^$mode\t" "$OUT/lines" | awk -F'\t' '{print $4}' | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
  echo "median stack ready, $mode: $med s"
done
echo "(launcher logs in $OUT)"
