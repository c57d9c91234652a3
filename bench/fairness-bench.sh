#!/usr/bin/env bash
# Fairness between tenants, with bench/FairnessBench.java (docs/benchmarks.md, "Fairness between
# tenants").
#   [BASE_URL=http://127.0.0.1:8080 ADMIN_TOKEN=...] [RUNS=60] [CALLERS=32] [B_INTERVAL_MS=500]
#   [FLOOD_WARMUP_S=5] [SAMPLE_MS=100] [A_QUOTA=<calls per second>] bench/fairness-bench.sh
# Against a running service (BASE_URL and its admin token ADMIN_TOKEN), or, without BASE_URL, a
# service it starts on its embedded defaults (fresh data dir, port 8092, the Temporal dev server
# on 7297 with its UI on 8297; the service's log is kept in target/fairness-bench-service.log).
# The service must let http_request call loopback (crm.http.allow-private-addresses=true): tenant
# A's flow calls a sink the harness serves on 127.0.0.1.
# Through the admin API the harness makes tenant A (webhook → http_request to the sink) and tenant
# B (webhook → create_record), measures B alone, then B while A's CALLERS callers send A's trigger
# as fast as they are answered, and prints a RESULT line per phase and a TARGET line per target.
# JAVA: the java to run the harness with (default: java on PATH). WATCH_PIDS ("name=pid ..."):
# processes whose CPU share of the machine each phase reports, besides the harness's (the
# service and its Temporal dev server when the script started them).
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA=${JAVA:-java}
WATCH_PIDS=${WATCH_PIDS:-}
if [[ -z ${BASE_URL:-} ]]; then
  PORT=8092
  ADMIN_TOKEN=fairness-bench-admin-$RANDOM$RANDOM
  DATA=$(mktemp -d)
  [[ -f api-server/target/app/api-server-0.1.0-SNAPSHOT.jar ]] || ./mvnw -q -B -DskipTests package
  JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx2g} -jar "$JAR" \
    --server.port=$PORT --crm.data-dir="$DATA" --crm.embedded.temporal-port=7297 \
    --crm.embedded.temporal-ui-port=8297 --crm.admin-token="$ADMIN_TOKEN" \
    --crm.http.allow-private-addresses=true --logging.level.root=WARN > "$DATA/service.log" 2>&1 &
  SERVICE=$!
  trap 'rc=$?; kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null || true; mkdir -p target; cp "$DATA/service.log" target/fairness-bench-service.log 2>/dev/null; rm -rf "$DATA"; exit $rc' EXIT
  BASE_URL=http://127.0.0.1:$PORT
  for _ in $(seq 1 180); do
    curl -sf "$BASE_URL/actuator/health" > /dev/null && break
    kill -0 $SERVICE 2> /dev/null || { echo "the service did not start: $DATA/service.log" >&2; tail -20 "$DATA/service.log" >&2; exit 1; }
    sleep 1
  done
  TEMPORAL=$(pgrep -f "start-dev.*$DATA/temporal/temporal.db" | head -1 || true)
  WATCH_PIDS="service=$SERVICE${TEMPORAL:+ temporal=$TEMPORAL}"
fi
: "${ADMIN_TOKEN:?ADMIN_TOKEN, the admin token (crm.admin-token) of the service at BASE_URL, is required}"
export BASE_URL ADMIN_TOKEN WATCH_PIDS
"$JAVA" bench/FairnessBench.java
