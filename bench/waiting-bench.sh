#!/usr/bin/env bash
# What many waiting runs cost (docs/benchmarks.md, "Waiting runs").
#   [CLUSTER=1] [DELAY_SECONDS=600 | BURST_AFTER_S=... [RESTART=1]] [WAIT_WINDOW_S=300] [QUIET_N=300] \
#     [PHASE_RUNS=20] bench/waiting-bench.sh [N]
# On the embedded defaults (fresh data dir, port 8093, the Temporal dev server on 7296 with its UI
# on 8296, PostgreSQL on PGPORT 55436, heap ${BENCH_JAVA_OPTS:--Xmx1g}), or with CLUSTER=1 on a new
# cluster of deploy/cluster/start.sh (4 history shards, two api-servers, two workers, free ports).
# No SMTP server: each email is captured, and logged with its Message-ID. It makes N contacts with
# lifecycle_stage "lead" (one INSERT ... SELECT), a sequence "email → wait → email"
# and flow A (webhook → http_request to bench/TriggerBench.java's sink), then:
#   1. new triggers' end-to-end p95 while nothing else happens (QUIET_N triggers of flow A);
#   2. enrolls every lead through one bulk enrollment (POST .../enrollments/bulk), and waits until
#      each has sent its first email and waits: enrollments per second;
#   3. while they all wait, for WAIT_WINDOW_S: the CPU each kind of process spends per waiting run
#      and hour (from /proc); the disk each waiting run takes in Temporal's store (the dev server's
#      SQLite files; the cluster's temporal and temporal_visibility databases) and in the service's
#      (its database); the heap of the service's JVMs after a full GC;
#   4. the burst, every timer firing at once: with DELAY_SECONDS (or RESTART=1) the service (on the
#      embedded defaults its dev server and PostgreSQL with it; on the cluster every part) is
#      stopped until every delay is over and started again on the same data (the time it takes to
#      start is printed too); with BURST_AFTER_S it keeps running and the burst starts when the
#      window opens. It measures the time from then until the last second email, the runs lost
#      (not completed), the emails captured twice (by Message-ID), and new triggers' end-to-end p95
#      during the burst (QUIET_N triggers of flow A);
#   5. where new triggers' runs spent their time, quiet and in the burst (bench/trigger-phases.py:
#      the medians of PHASE_RUNS runs each, default 20, from their rows and Temporal's histories).
# The wait: each delay ends DELAY_SECONDS after its run's first email, or with BURST_AFTER_S (60 s
# to 23 h) every delay ends at one moment, when a send window opens at the first whole minute
# BURST_AFTER_S seconds from when the bench makes the sequence, as "send at 9:00" does; it has to
# outlast steps 1 to 3 (QUIET_N triggers, the enrollment, WAIT_WINDOW_S) by 30 s, or the bench
# stops before the burst and says so. A send window's burst meets a service that has been running
# all along, as at 9:00 on a weekday; RESTART=1 meets it with a service just started, as a deploy at
# 9:00 does (with DELAY_SECONDS the restart is what makes the timers fire at once).
# It prints one RESULT line per figure. PORT, TEMPORAL_PORT, TEMPORAL_UI_PORT, PGPORT, SINK_PORT:
# other ports (embedded defaults). PAGE: the bulk job's page size (crm.enrollments.bulk.page-size,
# default 500). Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster-env.sh
. bench/cluster-env.sh
N=${1:-100000}
DELAY_SECONDS=${DELAY_SECONDS:-600}
WAIT_WINDOW_S=${WAIT_WINDOW_S:-300}
QUIET_N=${QUIET_N:-300}
PORT=${PORT:-8093}
TEMPORAL_PORT=${TEMPORAL_PORT:-7296}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8296}
PGPORT=${PGPORT:-55436}
SINK_PORT=${SINK_PORT:-18093}
JAVA=${JAVA:-java}
HARNESS=bench/TriggerBench.java
TICK=$(getconf CLK_TCK)
DATA=$(mktemp -d)
JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
[[ -f $JAR ]] || ./mvnw -q -B -DskipTests package
BENCH_DIRS=()
SERVICE=
EMAIL_LOG=INFO # the captured emails' Message-IDs, to count those captured twice

# --- the embedded defaults -----------------------------------------------------------------------
start_service() {
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx1g} -jar "$JAR" \
    --server.port=$PORT --crm.data-dir="$DATA" --crm.embedded.postgres-port=$PGPORT \
    --crm.embedded.temporal-port=$TEMPORAL_PORT --crm.embedded.temporal-ui-port=$TEMPORAL_UI_PORT \
    --crm.bootstrap.api-key=crm_bench_key_0123456789abcdefghijklmnopqrstuv \
    --crm.http.allow-private-addresses=true \
    --crm.rate-limit.enabled=false --crm.trigger.quota.enabled=false \
    --crm.enrollments.bulk.page-size="${PAGE:-500}" --logging.level.root=WARN \
    --logging.level.com.crmflow.worker.activity.EmailActivitiesImpl=$EMAIL_LOG \
    >> "$DATA/service.log" 2>&1 &
  SERVICE=$!
  for _ in $(seq 1 300); do
    curl -sf "localhost:$PORT/actuator/health" > /dev/null && return 0
    kill -0 $SERVICE 2> /dev/null || break
    sleep 1
  done
  echo "the service did not start:" >&2
  tail -20 "$DATA/service.log" >&2
  exit 1
}
stop_service() {
  [[ -n $SERVICE ]] || return 0
  kill $SERVICE 2> /dev/null || true
  wait $SERVICE 2> /dev/null || true
}
cleanup() {
  local rc=$?
  stop_service
  mkdir -p target
  cp "$DATA/service.log" target/waiting-bench-service.log 2> /dev/null || true
  remove_clusters
  rm -rf "$DATA"
  exit $rc
}
trap cleanup EXIT

json() { python3 -c "import sys,json; d=json.load(sys.stdin); print($1)"; }
if [[ -n ${CLUSTER:-} ]]; then
  new_cluster 4
  export CRM_ENROLLMENTS_BULK_PAGE_SIZE=${PAGE:-500}
  # an environment variable names a logger in lower case: the package, then
  export LOGGING_LEVEL_COM_CRMFLOW_WORKER_ACTIVITY=$EMAIL_LOG
  deploy/cluster/start.sh | sed 's/^/cluster: /'
  read -r -a API_PORTS <<< "$CLUSTER_API_PORTS"
  API=http://127.0.0.1:${API_PORTS[0]}
  admin=(-sf -H "Authorization: Bearer $CRM_ADMIN_TOKEN" -H 'Content-Type: application/json')
  TENANT=$(curl "${admin[@]}" -X POST "$API/admin/v1/tenants" -d '{"name":"waiting-bench"}' | json 'd["tenant"]["id"]')
  KEY=$(curl "${admin[@]}" -X POST "$API/admin/v1/tenants/$TENANT/api-keys" -d '{"name":"bench","scopes":["*"]}' | json 'd["key"]')
  sql() { cluster_sql crm "$1"; }
  service_db() { cluster_sql crm "select pg_database_size('crm')"; }
  temporal_store() { cluster_sql crm "select pg_database_size('temporal') + pg_database_size('temporal_visibility')"; }
  # the api-servers, the workers, the Temporal server, PostgreSQL
  kinds="api-servers workers temporal postgres"
  cpu() { cpu_ticks 2; }
  jvms() { echo "$(pid_of api-1) $(pid_of api-2) $(pid_of worker-1) $(pid_of worker-2)"; }
  captured() { cat "$CLUSTER_DIR"/logs/worker-*.log* 2> /dev/null; }
  TEMPORAL_ADDRESS=127.0.0.1:$FRONTEND_GRPC_PORT TEMPORAL_NS=${TEMPORAL_NAMESPACE:-default}
  TRIGGER_URL=$(for port in "${API_PORTS[@]}"; do printf 'http://127.0.0.1:%s/api/webhooks/automation/%s/bench-a,' "$port" "$TENANT"; done)
  TRIGGER_URL=${TRIGGER_URL%,}
else
  start_service
  API=http://127.0.0.1:$PORT
  KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
  TENANT=$(curl -sf -H "Authorization: Bearer $KEY" "$API/api/v1/me" | json 'd["tenant_id"]')
  sql() { psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -tAq -c "$1"; }
  service_db() { sql "select pg_database_size('postgres')"; }
  temporal_store() { du -sb "$DATA/temporal" | cut -f1; }
  kinds="service temporal postgres"
  cpu() { embedded_cpu_ticks "$SERVICE" "$DATA" "$PGPORT"; }
  jvms() { echo "$SERVICE"; }
  captured() { cat "$DATA/service.log"; }
  TEMPORAL_ADDRESS=127.0.0.1:$TEMPORAL_PORT TEMPORAL_NS=default
  TRIGGER_URL=$API/api/webhooks/automation/$TENANT/bench-a
fi
api() { curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }

# N leads, in one statement (the API would take longer than what is measured)
sql "insert into contact (id, tenant_id, email, first_name, lifecycle_stage)
     select gen_random_uuid(), '$TENANT', 'waiting-' || g || '@example.com', 'W' || g, 'lead'
     from generate_series(1, $N) g" > /dev/null
if [[ -n ${BURST_AFTER_S:-} ]]; then
  # a delay of no length in a send window that opens then and closes 5 minutes before now, the
  # next day: closed while the runs enroll, so every delay ends when it opens
  read -r WAKE_AT DELAY_CONFIG < <(python3 - "$BURST_AFTER_S" <<'PY'
import json, math, sys, time
now, after = time.time(), float(sys.argv[1])
assert 60 <= after <= 23 * 3600, "BURST_AFTER_S: from 60 s to 23 hours"
wake = math.ceil((now + after) / 60) * 60
hhmm = lambda t: time.strftime("%H:%M", time.gmtime(t))
window = {"days": [1, 2, 3, 4, 5, 6, 7], "from": hhmm(wake), "to": hhmm(now - 300), "timezone": "UTC"}
print(wake, json.dumps({"delayHours": 0, "window": window}))
PY
  )
else
  DELAY_CONFIG="{\"delayHours\": $(python3 -c "print($DELAY_SECONDS / 3600)")}"
fi
SEQUENCE=$(api -X POST "$API/api/v1/sequences" -d '{"name":"waiting bench"}' | json 'd["sequence"]["id"]')
api -X PUT "$API/api/v1/sequences/$SEQUENCE/steps" -d "{\"steps\": [
  {\"type\": \"email\", \"config\": {\"subject\": \"Hello {{contact.first_name}}\"}},
  {\"type\": \"delay\", \"config\": $DELAY_CONFIG},
  {\"type\": \"email\", \"config\": {\"subject\": \"Still there?\"}}]}" > /dev/null
api -X PATCH "$API/api/v1/sequences/$SEQUENCE" -d '{"status":"active"}' > /dev/null
FLOW=$(api -X POST "$API/api/v1/sequences" -d '{"name":"bench A","flow_type":"automation","builder_mode":"visual"}' | json 'd["sequence"]["id"]')
api -X PUT "$API/api/sequences/$FLOW/canvas" -d '{"nodes":[{"id":"bench-a","type":"webhook_trigger","position":{"x":0,"y":0},"data":{"label":"in","config":{}}},{"id":"call","type":"http_request","position":{"x":500,"y":0},"data":{"label":"sink","config":{"method":"POST","url":"http://127.0.0.1:'"$SINK_PORT"'/sink","headers":{"Content-Type":"application/json"},"bodyTemplate":"{\"id\": \"{{trigger.id}}\", \"t0\": \"{{trigger.t0}}\"}"}}}],"edges":[{"id":"e1","source":"bench-a","target":"call"}]}' > /dev/null
api -X PATCH "$API/api/v1/sequences/$FLOW" -d '{"status":"active"}' > /dev/null

# new triggers' end-to-end p95 (ms) of QUIET_N triggers of flow A, 4 at a time
trigger_p95() { # label
  "$JAVA" "$HARNESS" --url "$TRIGGER_URL" --sink-port "$SINK_PORT" --n "$QUIET_N" --concurrency 4 \
    --timeout-s 600 --label "$1" | grep '^RESULT' | tee "$DATA/$1.result" | sed 's/^/harness: /' >&2
  grep -o 'e2e_p95_ms=[0-9]*' "$DATA/$1.result" | cut -d= -f2
}
QUIET_P95=$(trigger_p95 quiet | tail -1)

emails() { # [a condition on the email, e.g. the first email's subject]
  sql "select count(*) from outbound_email where ${1:-true} and run_id in (select id from automation_run where sequence_id = '$SEQUENCE')"
}
sequence_runs() { sql "select count(*) from automation_run where sequence_id = '$SEQUENCE' and status = '$1'"; }
SERVICE_DB_BEFORE=$(service_db)
TEMPORAL_BEFORE=$(temporal_store)

# --- 2. the bulk enrollment ----------------------------------------------------------------------
started=$(date +%s.%N)
JOB=$(api -X POST "$API/api/v1/sequences/$SEQUENCE/enrollments/bulk" -d '{"filter":{"lifecycle_stage":"lead"}}' | json 'd["job"]["id"]')
until [[ $(api "$API/api/v1/sequences/$SEQUENCE/enrollments/bulk/$JOB" | json 'd["job"]["status"]') != running ]]; do
  sleep 1
done
enrolled=$(date +%s.%N)
# every enrollment's first email sent: its run waits on the delay, or has gone past it when the
# enrollments took longer than the delay (a short smoke-run delay on a slow machine)
until [[ $(emails "subject like 'Hello %'") -ge $N ]]; do sleep 1; done
waiting=$(date +%s.%N)
WAITING_RUNS=$(sequence_runs running)
python3 -c "import sys; n,a,b,c=int(sys.argv[1]),*map(float,sys.argv[2:]); print(f'RESULT enrollments={n} job_s={b-a:.1f} enrollments_per_s={n/(b-a):.1f} all_waiting_after_s={c-a:.1f}')" \
  "$N" "$started" "$enrolled" "$waiting"

# --- 3. while they wait --------------------------------------------------------------------------
read -r -a before < <(cpu)
sleep "$WAIT_WINDOW_S"
read -r -a after < <(cpu)
python3 - "$N" "$WAIT_WINDOW_S" "$TICK" "$kinds" "${before[*]}" "${after[*]}" "$WAITING_RUNS" <<'PY'
import sys
n, window, tick = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
kinds, before, after = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6].split()
per = lambda b, a: 1000 * (float(a) - float(b)) / tick / window * 3600 / n
print("RESULT waiting_cpu_ms_per_run_hour " + " ".join(f"{k}={per(b, a):.3f}" for k, b, a in zip(kinds, before, after))
      + f" (over {window:.0f} s, {sys.argv[7]} of {n:.0f} runs waiting at its start)")
PY
python3 -c "import sys; n,t0,t1,s0,s1=map(int,sys.argv[1:]); print(f'RESULT disk_bytes_per_waiting_run temporal={(t1-t0)/n:.0f} service={(s1-s0)/n:.0f} (temporal store grew {(t1-t0)/2**20:.1f} MiB, service database {(s1-s0)/2**20:.1f} MiB)')" \
  "$N" "$TEMPORAL_BEFORE" "$(temporal_store)" "$SERVICE_DB_BEFORE" "$(service_db)"
heap=0
for jvm in $(jvms); do
  jcmd "$jvm" GC.run > /dev/null
  used=$(jcmd "$jvm" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | grep -o '[0-9]*')
  heap=$((heap + used / 1024))
done
echo "RESULT heap_after_full_gc_mb=$heap with $N runs waiting ($(jvms | wc -w) JVMs)"

# --- 4. the burst --------------------------------------------------------------------------------
# second emails sent before the burst: delays that ended before it, whose runs are not in it
early=$(emails "subject = 'Still there?'")
if [[ -n ${BURST_AFTER_S:-} ]]; then
  # every timer falls due when the window opens, which must find them all still waiting (and with
  # RESTART=1 the service stopped: its stop takes seconds)
  if (($(date +%s) + 30 > WAKE_AT || early > 0)); then
    echo "the send window opens less than 30 s from now ($early second emails sent): raise BURST_AFTER_S" >&2
    exit 1
  fi
  last_due=$((WAKE_AT + 1))
  RESTART=${RESTART:-0}
else
  RESTART=1 # the restart is what makes the timers fire at once
  # the last timer falls due DELAY_SECONDS after the last first email
  last_due=$(python3 -c "import sys; print(int(float(sys.argv[1]) + float(sys.argv[2])) + 1)" "$waiting" "$DELAY_SECONDS")
  ((early == 0)) || echo "$early of $N delays ended before the burst (DELAY_SECONDS shorter than the enrollment and the window)" >&2
fi
if [[ $RESTART != 1 ]]; then
  # the window opens on the running service: every timer falls due then
  now=$(date +%s)
  ((WAKE_AT > now)) && sleep $((WAKE_AT - now))
  fired=$WAKE_AT
  up=
elif [[ -z ${CLUSTER:-} ]]; then
  # every delay over before the service is back: all timers fire as it starts
  stop_service
  now=$(date +%s)
  ((last_due > now)) && sleep $((last_due - now))
  fired=$(date +%s.%N)
  start_service
  up=$(date +%s.%N)
else
  # every delay over before the cluster is back: the Temporal server's shards fire all timers as
  # it starts (every part is stopped and started again, as the embedded defaults are: a part left
  # running would meet the burst with its pollers backed off from the server's absence)
  deploy/cluster/stop.sh | sed 's/^/cluster: /'
  now=$(date +%s)
  ((last_due > now)) && sleep $((last_due - now))
  fired=$(date +%s.%N)
  deploy/cluster/start.sh | sed 's/^/cluster: /'
  up=$(date +%s.%N)
fi
BURST_P95=$(trigger_p95 burst | tail -1)
until [[ $(emails) -ge $((2 * N)) ]]; do
  if [[ -n ${CLUSTER:-} ]]; then
    for part in temporal api-1 api-2 worker-1 worker-2; do
      kill -0 "$(pid_of $part)" 2> /dev/null || { echo "$part died in the burst" >&2; exit 1; }
    done
  else
    kill -0 $SERVICE 2> /dev/null || { echo "the service died in the burst" >&2; exit 1; }
  fi
  sleep 1
done
done_at=$(date +%s.%N)
sleep 2
completed=$(sequence_runs completed)
twice=$(captured | { grep -o 'captured email [^ ]*' || true; } | sort | uniq -d | wc -l)
captures=$(captured | grep -c 'captured email ' || true)
((captures >= 2 * N)) || { echo "only $captures of $((2 * N)) emails captured in the logs" >&2; exit 1; }
python3 - "$N" "$completed" "$twice" "$early" "$fired" "$done_at" "$up" <<'PY'
import sys
n, c, tw, e = map(int, sys.argv[1:5])
f, d = map(float, sys.argv[5:7])
up = f"service_up_after_s={float(sys.argv[7]) - f:.1f}" if sys.argv[7] else "service_kept_running"
print(f"RESULT burst runs={n} ended_before_it={e} {up} last_second_email_after_s={d - f:.1f} lost={n - c} emails_twice={tw}")
PY
echo "RESULT trigger_e2e_p95_ms quiet=$QUIET_P95 burst=$BURST_P95"

# where new triggers' runs spent their time, quiet and in the burst: PHASE_RUNS runs of each
API_JAR=$JAR
# shellcheck source=deploy/tools.sh
. deploy/tools.sh
CLI=$(tools temporal)
trigger_phases() { # label, the runs' condition on created_at
  sql "select workflow_id, round(extract(epoch from created_at) * 1000) from automation_run
       where sequence_id = '$FLOW' and status = 'completed' and $2
       order by random() limit ${PHASE_RUNS:-20}" |
    tr '|' ' ' | python3 bench/trigger-phases.py "$1" "$CLI" "$TEMPORAL_ADDRESS" "$TEMPORAL_NS"
}
trigger_phases quiet "created_at < to_timestamp($started)"
trigger_phases burst "created_at > to_timestamp(${up:-$fired})"
