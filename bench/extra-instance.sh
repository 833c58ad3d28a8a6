#!/usr/bin/env bash
# Starts one more instance of a service of the running local stack, from a given build, on its own port,
# with the running instance's environment (same databases, Kafka, chains, keys): two builds measured
# side by side on one stack, alternating, instead of one after the other on stacks that differ.
# Usage: bench/extra-instance.sh SERVICE PORT [QUARKUS_APP_DIR]   e.g. bench/extra-instance.sh mandate-service 8091 /tmp/mandate-A
#   QUARKUS_APP_DIR defaults to SERVICE/target/quarkus-app (copy it away first to keep a build for later).
# Not stopped with the stack: stop it with `pkill -f QUARKUS_APP_DIR/quarkus-run.jar`. Log: /tmp/extra-SERVICE-PORT.log
set -euo pipefail
cd "$(dirname "$0")/.."
SERVICE=$1; PORT=$2; APP=${3:-$SERVICE/target/quarkus-app}
pid=$(pgrep -f "$SERVICE/target/quarkus-app/quarkus-run.jar" | head -1) || { echo "$SERVICE is not running" >&2; exit 1; }
args=(); while IFS= read -r -d '' a; do args+=("$a"); done < "/proc/$pid/cmdline"
envs=(); while IFS= read -r -d '' e; do case "$e" in HTTP_PORT=*) ;; *) envs+=("$e") ;; esac; done < "/proc/$pid/environ"
jvm=("${args[@]:0:${#args[@]}-2}")   # the JVM and its options, without "-jar <jar>"
APP=$(cd "$APP" && pwd)
env -i "${envs[@]}" HTTP_PORT="$PORT" nohup "${jvm[@]}" -jar "$APP/quarkus-run.jar" > "/tmp/extra-$SERVICE-$PORT.log" 2>&1 &
echo "started $SERVICE from $APP on port $PORT (pid $!); ready when http://127.0.0.1:$PORT/q/health/ready says UP"
