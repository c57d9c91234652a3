#!/usr/bin/env bash
# Enrollment benchmark (issue 7) on embedded defaults, with bench/EnrollBench.java.
#   bench/enroll-bench.sh [N] [CONCURRENCY]
# Starts the service (fresh data dir, port 8091, Temporal test server on 7298, heap
# ${BENCH_JAVA_OPTS:--Xmx12g}), enrolls N contacts into a 3-step sequence with 2-day delays,
# waits until every enrollment waits on its first delay, then reports the heap after a full GC
# (worker, API and the embedded Temporal test server share this one JVM), the share of the test
# server's own objects in a class histogram, and the process RSS. RESTART=1 then stops the service
# and starts it again on the same data, and reports how long it took to give every waiting
# enrollment its workflow back (RunResumer: the embedded Temporal server forgets them).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
C=${2:-32}
PORT=8091
KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
DATA=$(mktemp -d)
[[ -f api-server/target/api-server-0.1.0-SNAPSHOT.jar ]] || ./mvnw -q -B -DskipTests package
JAR=${BENCH_JAR:-api-server/target/api-server-0.1.0-SNAPSHOT.jar}
start_service() {
  java ${BENCH_JAVA_OPTS:--Xmx12g} -jar "$JAR" \
    --server.port=$PORT --crm.data-dir="$DATA" --crm.embedded.temporal-port=7298 \
    --crm.bootstrap.api-key=$KEY --crm.rate-limit.enabled=false --logging.level.root=WARN \
    --logging.level.com.crmflow.api.run.RunResumer=INFO >> "$DATA/service.log" 2>&1 &
  SERVICE=$!
}
start_service
trap 'rc=$?; cp "$DATA/service.log" /tmp/enroll-bench-service.log 2>/dev/null; kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null || true; rm -rf "$DATA"; exit $rc' EXIT
for _ in $(seq 1 120); do curl -sf localhost:$PORT/actuator/health >/dev/null && break; sleep 1; done

java bench/EnrollBench.java "http://127.0.0.1:$PORT" "$KEY" "$N" "$C" &
BENCH=$!
while kill -0 $BENCH 2>/dev/null; do # heap while enrolling, every 30 s
  sleep 30; kill -0 $BENCH 2>/dev/null && echo "heap: $(jcmd $SERVICE GC.heap_info | grep -E 'garbage-first heap' | sed 's/^ *//')"
done
wait $BENCH

jcmd $SERVICE GC.run >/dev/null
sleep 2
echo "RESULT heap_after_full_gc: $(jcmd $SERVICE GC.heap_info | grep -E 'garbage-first heap|used' | head -1 | sed 's/^ *//')"
jcmd $SERVICE GC.class_histogram > "$DATA/histogram.txt"
python3 - "$DATA/histogram.txt" <<'PY'
import sys
total = server = 0
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 4 and parts[0].rstrip(':').isdigit():
        size = int(parts[2]); total += size
        if 'io.temporal.internal.testservice' in parts[3] or 'io.temporal.api.' in parts[3]:
            server += size
print(f"RESULT histogram_total_mb={total/2**20:.0f} temporal_server_and_protobuf_classes_mb={server/2**20:.0f} (shallow sizes)")
PY
echo "RESULT rss_mb=$(( $(ps -o rss= -p $SERVICE) / 1024 ))"

if [[ ${RESTART:-0} == 1 ]]; then
  kill $SERVICE; wait $SERVICE || true
  started=$(date +%s.%N)
  start_service
  until grep -q "Resumed .* runs" "$DATA/service.log"; do sleep 0.2; done
  resumed=$(date +%s.%N)
  echo "RESULT restart: $(grep -o 'Resumed [0-9]* runs' "$DATA/service.log"), $(python3 -c "print(f'{$resumed - $started:.1f}')") s from the start of the JVM to the last one"
  sleep 5
  emails=$(curl -sf -H "Authorization: Bearer $KEY" "localhost:$PORT/api/v1/outbound-emails?limit=1" | python3 -c 'import sys,json;print(json.load(sys.stdin)["total"])')
  waiting=$(curl -sf -H "Authorization: Bearer $KEY" "localhost:$PORT/api/v1/automation-runs?status=running&limit=1" | python3 -c 'import sys,json;print(json.load(sys.stdin)["total"])')
  echo "RESULT after the restart: $emails emails in all (one welcome per contact: $N), $waiting runs still waiting on their delay"
fi
