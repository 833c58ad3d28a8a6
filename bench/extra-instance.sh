#!/usr/bin/env bash
# Starts one more instance of a service of the running local stack, from a given build, on its own port,
# with the running instance's environment (same databases, Kafka, chains, keys): two builds measured
# side by side on one stack, alternating, instead of one after the other on stacks that differ.
# Usage: bench/extra-instance.sh SERVICE PORT [QUARKUS_APP_DIR]   e.g. bench/extra-instance.sh mandate-service 8091 /tmp/mandate-A
#   QUARKUS_APP_DIR defaults to SERVICE/target/quarkus-app (copy it away first to keep a build for later, with
#   `cp -a`: the AppCDS archive only maps if the jars keep their modification times).
# The JVM runs in QUARKUS_APP_DIR, as the launcher runs it in target/quarkus-app, with the running instance's JVM
# options except its class-sharing ones (-Xshare:*, -XX:SharedArchiveFile), which APPCDS decides (issue 34 item 4):
#   APPCDS=auto (default)  QUARKUS_APP_DIR/app-cds.jsa when it exists, as the launcher does
#   APPCDS=on              QUARKUS_APP_DIR/app-cds.jsa with -Xshare:on: the JVM stops at once if it cannot map it
#   APPCDS=off             no AppCDS archive (the JDK's own class-data archive only, as a build without one)
# Not stopped with the stack: stop it with `pkill -f QUARKUS_APP_DIR/quarkus-run.jar`. Log: /tmp/extra-SERVICE-PORT.log
set -euo pipefail
cd "$(dirname "$0")/.."
SERVICE=$1; PORT=$2; APP=${3:-$SERVICE/target/quarkus-app}; APPCDS=${APPCDS:-auto}
pid=$(pgrep -f "$SERVICE/target/quarkus-app/quarkus-run.jar" | head -1) || { echo "$SERVICE is not running" >&2; exit 1; }
args=(); while IFS= read -r -d '' a; do args+=("$a"); done < "/proc/$pid/cmdline"
envs=(); while IFS= read -r -d '' e; do case "$e" in HTTP_PORT=*) ;; *) envs+=("$e") ;; esac; done < "/proc/$pid/environ"
jvm=()   # the JVM and its options, without "-jar <jar>" and without the running build's class sharing
for a in "${args[@]:0:${#args[@]}-2}"; do case "$a" in -Xshare:*|-XX:SharedArchiveFile=*) ;; *) jvm+=("$a") ;; esac; done
APP=$(cd "$APP" && pwd)
case "$APPCDS" in
  auto) if [ -f "$APP/app-cds.jsa" ]; then jvm+=("-XX:SharedArchiveFile=$APP/app-cds.jsa"); fi ;;
  on) [ -f "$APP/app-cds.jsa" ] || { echo "APPCDS=on: $APP/app-cds.jsa does not exist" >&2; exit 1; }
      jvm+=("-Xshare:on" "-XX:SharedArchiveFile=$APP/app-cds.jsa") ;;
  off) ;;
  *) echo "APPCDS must be auto, on or off, not $APPCDS" >&2; exit 1 ;;
esac
cd "$APP"   # the archive names the jar relative to the directory it was written in
env -i "${envs[@]}" HTTP_PORT="$PORT" nohup "${jvm[@]}" -jar "$APP/quarkus-run.jar" > "/tmp/extra-$SERVICE-$PORT.log" 2>&1 &
echo "started $SERVICE from $APP on port $PORT (pid $!) with AppCDS $APPCDS; ready when http://127.0.0.1:$PORT/q/health/ready says UP"
