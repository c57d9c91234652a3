#!/usr/bin/env bash
# Enrollment benchmark on embedded defaults, with bench/EnrollBench.java.
#   bench/enroll-bench.sh [N] [CONCURRENCY]
# Starts the service (fresh data dir, port 8091, the Temporal dev server on 7298 with its UI on
# 8298, heap ${BENCH_JAVA_OPTS:--Xmx2g}), enrolls N contacts into a 3-step sequence with 2-day
# delays, waits until every enrollment waits on its first delay, then reports the service's heap
# after a full GC and the resident memory of the service and of the dev server. RESTART=1 then
# stops the service and starts it again on the same data, and reports how long the start took and
# that every enrollment still waits, each welcome email sent once.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
C=${2:-32}
PORT=8091
JAVA=${JAVA:-java}
KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
DATA=$(mktemp -d)
JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
[[ -f $JAR ]] || ./mvnw -q -B -DskipTests package
start_service() {
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx2g} -jar "$JAR" \
    --server.port=$PORT --crm.data-dir="$DATA" --crm.embedded.temporal-port=7298 \
    --crm.embedded.temporal-ui-port=8298 \
    --crm.bootstrap.api-key=$KEY --crm.rate-limit.enabled=false --logging.level.root=WARN \
    >> "$DATA/service.log" 2>&1 &
  SERVICE=$!
}
start_service
trap 'rc=$?; cp "$DATA/service.log" /tmp/enroll-bench-service.log 2>/dev/null; kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null || true; rm -rf "$DATA"; exit $rc' EXIT
for _ in $(seq 1 120); do curl -sf localhost:$PORT/actuator/health >/dev/null && break; sleep 1; done

"$JAVA" bench/EnrollBench.java "http://127.0.0.1:$PORT" "$KEY" "$N" "$C" &
BENCH=$!
SECONDS_RUN=0
while kill -0 $BENCH 2>/dev/null; do # heap while enrolling, every 30 s
  sleep 1; SECONDS_RUN=$((SECONDS_RUN + 1))
  (( SECONDS_RUN % 30 == 0 )) && kill -0 $BENCH 2>/dev/null && echo "heap: $(jcmd $SERVICE GC.heap_info | grep -E 'garbage-first heap' | sed 's/^ *//')"
done
wait $BENCH

jcmd $SERVICE GC.run >/dev/null
sleep 2
echo "RESULT heap_after_full_gc: $(jcmd $SERVICE GC.heap_info | grep -E 'garbage-first heap|used' | head -1 | sed 's/^ *//')"
TEMPORAL=$(pgrep -f "start-dev.*$DATA/temporal/temporal.db" | head -1)
echo "RESULT rss_mb service=$(( $(ps -o rss= -p $SERVICE) / 1024 )) temporal_dev_server=$(( $(ps -o rss= -p $TEMPORAL) / 1024 )) temporal_db_mb=$(( $(du -sk "$DATA/temporal" | cut -f1) / 1024 ))"

if [[ ${RESTART:-0} == 1 ]]; then
  kill $SERVICE; wait $SERVICE || true
  started=$(date +%s.%N)
  start_service
  until curl -sf localhost:$PORT/actuator/health >/dev/null; do sleep 0.2; done
  up=$(date +%s.%N)
  echo "RESULT restart: healthy $(python3 -c "print(f'{$up - $started:.1f}')") s after the start of the JVM"
  emails=$(curl -sf -H "Authorization: Bearer $KEY" "localhost:$PORT/api/v1/outbound-emails?limit=1" | python3 -c 'import sys,json;print(json.load(sys.stdin)["total"])')
  waiting=$(curl -sf -H "Authorization: Bearer $KEY" "localhost:$PORT/api/v1/automation-runs?status=running&limit=1" | python3 -c 'import sys,json;print(json.load(sys.stdin)["total"])')
  echo "RESULT after the restart: $emails emails in all (one welcome per contact: $N), $waiting runs still waiting on their delay"
fi
