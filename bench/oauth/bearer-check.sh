#!/usr/bin/env bash
# The added latency of an OAuth bearer check beside the API-key check (issue 31), measured in one JVM, one run,
# interleaved call by call: service-commons' BearerCheckBench (BearerVerifier.verify + registry lookups vs
# PartnerRegistry.authenticate + key scopes). Prints p50/p90/p99/mean in microseconds and the load average.
#   bench/oauth/bearer-check.sh [pairs] [warm-up pairs]
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-50000}"
WARMUP="${2:-20000}"
./mvnw -B -o -q -pl service-commons test -Dtest=BearerCheckBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.bearer=true -Dbench.n="$N" -Dbench.warmup="$WARMUP"
# surefire redirects test output to a file
sed -n '/bearer-check bench/,/^added/p' service-commons/target/surefire-reports/dev.agentpay.commons.auth.oauth.BearerCheckBench-output.txt
