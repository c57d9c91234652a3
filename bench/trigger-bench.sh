#!/usr/bin/env bash
# Trigger → completion benchmark on embedded defaults, with bench/TriggerBench.java.
#   [FLOWS="a b"] [WARMUP=3000] [BENCH_JAR=...] bench/trigger-bench.sh [N] [CONCURRENCY]
# Starts the service on its embedded defaults (fresh data dir, port 8090; the Temporal CLI's dev
# server on 7299 with its UI on 8299, PostgreSQL on PGPORT), creates
#   flow A: webhook_trigger → http_request POST to the harness's sink
#   flow B: webhook_trigger → delay 1 s → http_request POST to the sink
# runs the harness against each and prints its RESULT lines, then the CPU each completed run cost
# the service's JVM, the Temporal dev server and PostgreSQL, their shares of the machine, and how
# busy the whole machine was (from /proc, over the measured part). WARMUP triggers (the
# harness sends at most 20 s of them) go first and are not measured: they let the JIT compile
# the hot paths, as in a service that has been up for a while. BENCH_JAVA_OPTS: JVM options
# (default -Xmx2g); JAVA: the java command (default java); SERVICE_ARGS: more --name=value
# settings of the service (tracing-bench.sh sets its tracing with them). The service's log is kept in target/trigger-bench-service.log.
# HEAP_AFTER_S=S: S seconds after the last flow, the service's heap after a full GC (jcmd).
# After each flow it prints where the measured runs spent their time, from the run records
# (bench/run-phases.sql, with psql on the embedded PostgreSQL at PGPORT, default 55439).
# TIMELINE=1: also when they were slow, 2 s of send times at a time (bench/run-timeline.sql).
# WAITING_RUN=1: before the flows, one run of flow W (webhook_trigger → delay 1 day →
# http_request), which waits through the whole bench, as some run always does in a real service.
# PORT, TEMPORAL_PORT, TEMPORAL_UI_PORT, PGPORT, SINK_PORT (defaults 8090, 7299, 8299, 55439,
# 18080): other ports, so that two benches on one machine do not meet.
# BUCKETS=memory|shared: the trigger quota on (the tenant's own quota 100,000 calls a second, so
# that none is refused), its buckets in the service's memory or shared in its PostgreSQL
# (crm.buckets.shared): the two runs' CPU per completed run differ by what a shared bucket costs a
# call. Unset: the quota and the rate limit off.
# BENCH_SERVICE=floor: instead of the service, bench/TemporalFloorService.java on the packaged service's
# libraries (the least a Temporal-backed service on this stack does per run: no database, no run
# records, no tracing; see its Javadoc), flow A only, measured the same way; its lines carry the
# label floor-a, its completed runs are the sink calls it counts (GET /completed), and its log is
# kept in target/trigger-bench-floor.log.
# Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
C=${2:-32}
HARNESS=${HARNESS:-bench/TriggerBench.java}
JAVA=${JAVA:-java}
PORT=${PORT:-8090}
PGPORT=${PGPORT:-55439}
TEMPORAL_PORT=${TEMPORAL_PORT:-7299}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8299}
SINK_PORT=${SINK_PORT:-18080}
case ${BUCKETS:-off} in
  off) LIMITS=(--crm.rate-limit.enabled=false --crm.trigger.quota.enabled=false) ;;
  memory) LIMITS=(--crm.buckets.shared=false) ;;
  shared) LIMITS=(--crm.buckets.shared=true) ;;
  *) echo "BUCKETS is memory or shared (unset: no quota), not ${BUCKETS}" >&2; exit 64 ;;
esac
case ${BENCH_SERVICE:-service} in
  service) FLOOR= ; FLOWS=${FLOWS:-a b} ;;
  floor)
    FLOOR=1 FLOWS=${FLOWS:-a}
    [[ $FLOWS == a ]] || { echo "the floor (BENCH_SERVICE=floor) has flow A only: FLOWS=a" >&2; exit 64; }
    [[ -z ${WAITING_RUN:-} ]] || { echo "WAITING_RUN needs the service, not the floor" >&2; exit 64; }
    ;;
  *) echo "BENCH_SERVICE is service (the default) or floor, not ${BENCH_SERVICE}" >&2; exit 64 ;;
esac
# the labels of the lines each flow prints: flow-a, flow-b (the service) or floor-a
label_of() { if [[ -n $FLOOR ]]; then echo "floor-$1"; else echo "flow-$1"; fi; }
KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
ADMIN_TOKEN=bench-admin-token
DATA=$(mktemp -d)
JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
[[ -f $JAR ]] || ./mvnw -q -B -DskipTests package
if [[ -n $FLOOR ]]; then
  # the floor runs on the service's own libraries (Spring Boot, Tomcat, the Temporal SDK, ...),
  # extracted afresh from the packaged jar: exactly its libraries, whatever target/app holds
  PACKAGED=${PACKAGED_JAR:-api-server/target/api-server-0.1.0-SNAPSHOT.jar}
  "$JAVA" -Djarmode=tools -jar "$PACKAGED" extract --destination "$DATA/floor" > /dev/null
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx2g} -cp "$DATA/floor/lib/*" bench/TemporalFloorService.java \
    "$DATA/floor/$(basename "$PACKAGED")" "$DATA" $PORT $TEMPORAL_PORT $TEMPORAL_UI_PORT \
    "http://127.0.0.1:$SINK_PORT/sink" > "$DATA/service.log" 2>&1 &
  READY=/completed LOG=target/trigger-bench-floor.log
else
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx2g} -jar "$JAR" \
    --server.port=$PORT --crm.embedded.postgres-port=$PGPORT --crm.data-dir="$DATA" --crm.embedded.temporal-port=$TEMPORAL_PORT \
    --crm.embedded.temporal-ui-port=$TEMPORAL_UI_PORT \
    --crm.bootstrap.api-key=$KEY --crm.admin-token=$ADMIN_TOKEN --crm.http.allow-private-addresses=true \
    "${LIMITS[@]}" --logging.level.root=WARN \
    ${SERVICE_ARGS:-} > "$DATA/service.log" 2>&1 &
  READY=/actuator/health LOG=target/trigger-bench-service.log
fi
SERVICE_PID=$!
trap 'rc=$?; [[ -n ${CURVE:-} ]] && kill $CURVE 2>/dev/null; kill $SERVICE_PID 2>/dev/null; wait $SERVICE_PID 2>/dev/null || true; mkdir -p target; cp "$DATA/service.log" $LOG 2>/dev/null; rm -rf "$DATA"; exit $rc' EXIT
for _ in $(seq 1 120); do
  kill -0 $SERVICE_PID 2>/dev/null || break
  curl -sf localhost:$PORT$READY >/dev/null && break
  sleep 1
done
# a service that did not start (a port taken) must not leave the bench talking to another one
kill -0 $SERVICE_PID 2>/dev/null || { echo "the service did not start:" >&2; tail -20 "$DATA/service.log" >&2; exit 1; }

if [[ -n $FLOOR ]]; then
  TENANT=floor # the floor takes any tenant and path
else
  api() { curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
  make_flow() { # name, canvas json
    local id
    id=$(api -X POST localhost:$PORT/api/v1/sequences -d "{\"name\":\"$1\",\"flow_type\":\"automation\",\"builder_mode\":\"visual\"}" | python3 -c 'import sys,json;print(json.load(sys.stdin)["sequence"]["id"])')
    api -X PUT localhost:$PORT/api/sequences/$id/canvas -d "$2" >/dev/null
    api -X PATCH localhost:$PORT/api/v1/sequences/$id -d '{"status":"active"}' >/dev/null
  }
  SINK='{"id":"call","type":"http_request","position":{"x":500,"y":0},"data":{"label":"sink","config":{"method":"POST","url":"http://127.0.0.1:'"$SINK_PORT"'/sink","headers":{"Content-Type":"application/json"},"bodyTemplate":"{\"id\": \"{{trigger.id}}\", \"t0\": \"{{trigger.t0}}\"}"}}}'
  make_flow "bench A" "{\"nodes\":[{\"id\":\"bench-a\",\"type\":\"webhook_trigger\",\"position\":{\"x\":0,\"y\":0},\"data\":{\"label\":\"in\",\"config\":{}}},$SINK],\"edges\":[{\"id\":\"e1\",\"source\":\"bench-a\",\"target\":\"call\"}]}"
  delay_flow() { # name, trigger node id, delay label, delay config: webhook_trigger → delay → sink
    make_flow "$1" "{\"nodes\":[{\"id\":\"$2\",\"type\":\"webhook_trigger\",\"position\":{\"x\":0,\"y\":0},\"data\":{\"label\":\"in\",\"config\":{}}},{\"id\":\"wait\",\"type\":\"delay\",\"position\":{\"x\":250,\"y\":0},\"data\":{\"label\":\"$3\",\"config\":$4}},$SINK],\"edges\":[{\"id\":\"e1\",\"source\":\"$2\",\"target\":\"wait\"},{\"id\":\"e2\",\"source\":\"wait\",\"target\":\"call\"}]}"
  }
  delay_flow "bench B" bench-b "1 s" '{"delayHours":0.000277778}'
  # the tenant of the bootstrap key, whose automations the trigger URLs name
  TENANT=$(api "localhost:$PORT/api/v1/me" | python3 -c 'import sys,json;print(json.load(sys.stdin)["tenant_id"])')
  if [[ ${BUCKETS:-off} != off ]]; then
    curl -sf -X PUT -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
      -d '{"requests":100000,"window_seconds":1}' "localhost:$PORT/admin/v1/tenants/$TENANT/trigger-quota" > /dev/null
    echo "trigger quota on, its buckets $([[ $BUCKETS == shared ]] && echo "shared in PostgreSQL" || echo "in memory")"
  fi
  if [[ -n ${WAITING_RUN:-} ]]; then
    delay_flow "bench W" bench-w "1 day" '{"delayDays":1}'
    curl -sf -H 'Content-Type: application/json' -d '{"id":"waiting","t0":0}' \
      "http://127.0.0.1:$PORT/api/webhooks/automation/$TENANT/bench-w" > /dev/null
  fi
fi
# CPU ticks (user + system) of the service, of its PostgreSQL and of the Temporal dev server (the
# service's child on this data dir), and of the service's JIT compiler threads, from /proc
TEMPORAL=$(pgrep -f "start-dev.*$DATA/temporal/temporal.db" | head -1)
cpu_ticks() {
  local service=0 postgres=0 temporal=0 jit=0 pid task
  service=$(awk '{print $14 + $15}' /proc/$SERVICE_PID/stat)
  # this service's PostgreSQL (its postmaster on PGPORT and the postmaster's children), not
  # another one on the machine
  local postmaster
  [[ -n $FLOOR ]] || postmaster=$(pgrep -f -- "postgres -D .* -p $PGPORT( |\$)" | head -1 || true)
  for pid in ${postmaster:+$postmaster $(pgrep -P "$postmaster" || true)}; do
    postgres=$((postgres + $(awk '{print $14 + $15}' /proc/$pid/stat 2>/dev/null || echo 0)))
  done
  temporal=$(awk '{print $14 + $15}' /proc/$TEMPORAL/stat)
  # the service's JIT compiler threads (C1, C2): their share falls as the service stays up
  for task in /proc/$SERVICE_PID/task/*; do
    if [[ $(cat "$task/comm" 2>/dev/null) == C[12]\ CompilerThre* ]]; then
      jit=$((jit + $(sed 's/^.*) //' "$task/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0)))
    fi
  done
  echo "$service $postgres $temporal $jit"
}
TICK=$(getconf CLK_TCK)
# busy and total jiffies of the whole machine (all cores), from /proc/stat
machine_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
# the admission's wait histogram (seconds buckets, cumulative) from the service's metrics
admission_buckets() {
  [[ -z $FLOOR ]] || return 0 # the floor admits every call
  curl -sf -H "Authorization: Bearer $ADMIN_TOKEN" localhost:$PORT/actuator/prometheus | grep '^crm_trigger_admission_wait_seconds_bucket' || true
}
# p50/p99 of how long the measured calls waited at the admission: the difference of two snapshots
admission_waits() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def load(path):
    counts = {}
    for line in open(path):
        m = re.search(r'le="([^"]+)".* ([0-9.eE+]+)$', line)
        if m:
            le = float('inf') if m.group(1) == '+Inf' else float(m.group(1))
            counts[le] = counts.get(le, 0) + float(m.group(2))  # summed over the room tag
    return counts
before, after = load(sys.argv[1]), load(sys.argv[2])
delta = sorted((le, after[le] - before.get(le, 0)) for le in after)
total = delta[-1][1] if delta else 0
def quantile(q):
    return next((le for le, n in delta if n >= q * total), float('inf'))
if total:
    print(f"admission wait of the measured calls: p50 <= {1000 * quantile(0.5):.0f} ms, "
          f"p99 <= {1000 * quantile(0.99):.0f} ms (histogram bucket bounds)")
PY
}
trigger_url() { echo "http://127.0.0.1:$PORT/api/webhooks/automation/$TENANT/bench-$1"; }
# JIT_CURVE=S: every S seconds from here to the end, the runs completed so far and the service's
# CPU per run completed in those S seconds, with its JIT compiler's part and without it: how the
# JIT compiler's share falls as the service stays up (from /proc and the run records)
completed_runs() {
  if [[ -n $FLOOR ]]; then
    curl -sf localhost:$PORT/completed
  else
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -tAq \
      -c "select count(*) from automation_run where status = 'completed'" 2>/dev/null
  fi
}
if [[ -n ${JIT_CURVE:-} ]]; then
  (
    read -r s0 _ _ j0 < <(cpu_ticks); n0=0
    while sleep "$JIT_CURVE"; do
      read -r s1 _ _ j1 < <(cpu_ticks) || break
      n1=$(completed_runs) || break
      [[ $n1 -gt $n0 ]] && python3 -c "import sys; n0,n1,s,j,t=map(int,sys.argv[1:]); d=n1-n0; print(f'JIT curve: {n1} runs completed; the last {d}: service {1000*s/t/d:.2f} ms per run, its JIT compiler {1000*j/t/d:.2f} ms, without it {1000*(s-j)/t/d:.2f} ms')" \
        "$n0" "$n1" $((s1 - s0)) $((j1 - j0)) "$TICK"
      s0=$s1; j0=$j1; n0=$n1
    done
  ) &
  CURVE=$!
fi
# PREWARM=N: before measuring, N unmeasured triggers per flow (beyond the harness's 20 s cap on
# warm-up), so the figures are those of a service that has been up for a while
for flow in $FLOWS; do
  if [[ ${PREWARM:-0} -gt 0 ]]; then
    "$JAVA" "$HARNESS" --url "$(trigger_url "$flow")" \
      --n "$PREWARM" --concurrency "$C" --timeout-s 180 --label "prewarm-$flow" --sink-port "$SINK_PORT" | grep RESULT | sed 's/^/prewarm: /'
  fi
done
for flow in $FLOWS; do
  label=$(label_of "$flow")
  "$JAVA" "$HARNESS" --url "$(trigger_url "$flow")" \
    --n "$N" --concurrency "$C" --warmup "${WARMUP:-3000}" --timeout-s 180 --label "$label" --sink-port "$SINK_PORT" \
    2>&1 | tee "$DATA/harness.log" | while IFS= read -r line; do
      echo "$line"
      # the measured part starts when the harness says it fires the N triggers
      if [[ $line == *": firing $N triggers"* ]]; then
        cpu_ticks > "$DATA/cpu-before"
        machine_ticks > "$DATA/machine-before"
        admission_buckets > "$DATA/admission-before"
      fi
    done
  read -r service_after postgres_after temporal_after jit_after < <(cpu_ticks)
  read -r busy_after total_after < <(machine_ticks)
  admission_buckets > "$DATA/admission-after"
  admission_waits "$DATA/admission-before" "$DATA/admission-after"
  read -r service_before postgres_before temporal_before jit_before < "$DATA/cpu-before"
  completed=$(grep -o 'completed=[0-9]*' "$DATA/harness.log" | tail -1 | cut -d= -f2)
  accepted=$(grep -o 'accepted=[0-9]*' "$DATA/harness.log" | tail -1 | cut -d= -f2)
  sending_s=$(grep -o 'req/s over [0-9.]* s' "$DATA/harness.log" | tail -1 | grep -o '[0-9.]* s$' | cut -d' ' -f1)
  python3 -c "import sys; a,s=float(sys.argv[1]),float(sys.argv[2]); print(f'accepted $label: {a/s:.1f}/s ({a:.0f} in the {s} s of sending)')" \
    "${accepted:-0}" "${sending_s:-1}"
  python3 -c "import sys; s,p,m,n,t,j=map(float,sys.argv[1:]); print(f'CPU $label per completed run: service {1000*s/t/n:.2f} ms (of which its JIT compiler {1000*j/t/n:.2f} ms; without it {1000*(s-j)/t/n:.2f} ms), temporal {1000*m/t/n:.2f} ms, postgres {1000*p/t/n:.2f} ms' if n else 'CPU $label per completed run: no run completed')" \
    $((service_after - service_before)) $((postgres_after - postgres_before)) \
    $((temporal_after - temporal_before)) "${completed:-0}" "$TICK" $((jit_after - jit_before))
  read -r busy_before total_before < "$DATA/machine-before"
  python3 -c "import sys,os; s,p,m,total=map(float,sys.argv[1:]); print(f'CPU shares over $label (of {os.cpu_count()} cores): service {100*s/total:.0f}%, temporal {100*m/total:.0f}%, postgres {100*p/total:.0f}%')" \
    $((service_after - service_before)) $((postgres_after - postgres_before)) \
    $((temporal_after - temporal_before)) $((total_after - total_before))
  python3 -c "import sys,os; b,t=map(float,sys.argv[1:]); print(f'machine busy over $label: {100*b/t:.0f}% of {os.cpu_count()} cores (service, PostgreSQL, harness and the rest)')" \
    $((busy_after - busy_before)) $((total_after - total_before))
  if [[ -n $FLOOR ]]; then
    : # the floor keeps no run records
  elif command -v psql > /dev/null; then
    sleep 2 # the last runs' end statements
    echo "where the measured flow-$flow runs spent their time (ms; bench/run-phases.sql):"
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -q -v flow="bench ${flow^^}" -v n="$N" \
      -f bench/run-phases.sql || true
    if [[ -n ${TIMELINE:-} ]]; then
      echo "when the measured flow-$flow runs were slow, 2 s at a time (bench/run-timeline.sql):"
      psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -q -v flow="bench ${flow^^}" -v n="$N" \
        -v target="$([[ $flow == b ]] && echo 1300 || echo 300)" -f bench/run-timeline.sql || true
    fi
  else
    echo "no psql here: for the phases of the runs, install it (Debian: postgresql-client)"
  fi
done
if [[ -n ${HEAP_AFTER_S:-} ]]; then
  sleep "$HEAP_AFTER_S"
  jcmd $SERVICE_PID GC.run >/dev/null
  used=$(jcmd $SERVICE_PID GC.heap_info | grep -o 'used [0-9]*K' | head -1 | grep -o '[0-9]*')
  echo "heap after a full GC, ${HEAP_AFTER_S} s after the last flow: $((used / 1024)) MiB used"
fi
