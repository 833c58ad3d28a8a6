#!/usr/bin/env bash
# Prints the CPU each part of a running local stack used while a command ran, as % of one CPU.
# Usage: bench/cpu-split.sh COMMAND [ARGS...]   e.g. bench/cpu-split.sh java -jar bench/target/bench-*.jar ...
# Groups: every postgres process together, each Quarkus service by its jar, Kafka, anvil, node, the rest of java.
set -euo pipefail
hz=$(getconf CLK_TCK)
snapshot() {
  for p in /proc/[0-9]*; do
    [ -r "$p/stat" ] || continue
    cmd=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null | cut -c1-400) || continue
    [ -n "$cmd" ] || continue
    case "$cmd" in
      *postgres*) g=postgres ;;
      *quarkus-app/quarkus-run.jar*) g=$(sed -E 's#.*/([a-z-]+)/target/quarkus-app/quarkus-run.jar.*#\1#' <<<"$cmd") ;;
      *kafka.Kafka*) g=kafka ;;
      *anvil*) g=anvil ;;
      *bench-*.jar*) g=bench-driver ;;
      *node*) g=node ;;
      *java*) g=other-java ;;
      *) continue ;;
    esac
    # fields 14 and 15 of /proc/PID/stat: utime, stime (after the parenthesised comm)
    t=$(sed -E 's/^[0-9]+ \(.*\) //' "$p/stat" 2>/dev/null | awk '{print $12+$13}') || continue
    echo "${p#/proc/} $g $t"
  done
}
before=$(snapshot); start=$(date +%s.%N)
"$@"
end=$(date +%s.%N); after=$(snapshot)
secs=$(echo "$end - $start" | bc)
echo
echo "| process group | CPU (% of one CPU over ${secs%.*} s) |"
echo "|---|---|"
# per pid delta, summed per group: a process that started during the run counts from zero; one that
# ended before it (the wrapped command itself, e.g. a bench JVM) is not in the second snapshot and not counted
join -a2 -e0 -o 2.2,1.3,2.3 <(sort -k1,1 <<<"$before") <(sort -k1,1 <<<"$after") \
  | awk -v hz="$hz" -v s="$secs" '{d[$1]+=($3-$2)} END {for (g in d) if (d[g]>0) printf "%s %.0f\n", g, 100*d[g]/hz/s}' \
  | sort -k2,2nr | awk '{printf "| %s | %s |\n", $1, $2}'
