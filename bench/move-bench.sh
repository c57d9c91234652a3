#!/usr/bin/env bash
# Moving waiting runs to another version of their flow (docs/benchmarks.md, "Moving waiting runs").
#   [DELAY_SECONDS=1800] [TRIGGER_N=600] [RATE=20] [PAGE=50] [PARALLEL=8] [KILL_AT=0.5] bench/move-bench.sh [N]
# On the embedded defaults (fresh data dir, port 8097, the Temporal dev server on 7297 with its UI
# on 8297, PostgreSQL on PGPORT 55437, heap ${BENCH_JAVA_OPTS:--Xmx1g}). No SMTP server: each email
# is captured, and logged with its Message-ID. It makes flow M (webhook → http_request to
# bench/TriggerBench.java's sink → wait DELAY_SECONDS → email "v1") and flow A (webhook → the sink),
# fires N runs of flow M and waits until each waits in its delay, saves version 2 of flow M (its
# email "v2"), then:
#   1. new triggers' end-to-end p95 without a move: TRIGGER_N triggers of flow A at RATE a second,
#      and the CPU each cost the service, the dev server and PostgreSQL;
#   2. the dry run of the move (POST .../runs/move {"dry_run": true}): its time, and that it finds
#      the N runs waiting at the delay, all movable;
#   3. the move to version 2, while TRIGGER_N triggers of flow A arrive at RATE a second: the move's
#      time (from its request to its end), the triggers' p95 with the move, and the CPU each moved
#      run cost by process (the triggers' part, at their cost in 1., taken out);
#   4. the move to version 3, whose delay is 1 s (recompute_delays: each run wakes as it moves and
#      sends version 3's email); once KILL_AT of the runs moved, kill -9 of the service and a start
#      on the same data; then every run completed, moved exactly once to each version (versions
#      {1,2} before the one it runs, two entries saying it moved), one email each and that one
#      version 3's, and the emails captured twice (by Message-ID).
# It prints one RESULT line per figure. PORT, TEMPORAL_PORT, TEMPORAL_UI_PORT, PGPORT, SINK_PORT:
# other ports. PAGE: the move's page size (crm.runs.move.page-size); PARALLEL: how many runs it asks
# at once (crm.runs.move.parallel). Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
DELAY_SECONDS=${DELAY_SECONDS:-1800}
TRIGGER_N=${TRIGGER_N:-600}
RATE=${RATE:-20}
KILL_AT=${KILL_AT:-0.5}
PORT=${PORT:-8097}
TEMPORAL_PORT=${TEMPORAL_PORT:-7297}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8297}
PGPORT=${PGPORT:-55437}
SINK_PORT=${SINK_PORT:-18097}
JAVA=${JAVA:-java}
HARNESS=bench/TriggerBench.java
DATA=$(mktemp -d)
JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
[[ -f $JAR ]] || ./mvnw -q -B -DskipTests package
SERVICE=
KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
API=http://127.0.0.1:$PORT

start_service() {
  "$JAVA" ${BENCH_JAVA_OPTS:--Xmx1g} -jar "$JAR" \
    --server.port=$PORT --crm.data-dir="$DATA" --crm.embedded.postgres-port=$PGPORT \
    --crm.embedded.temporal-port=$TEMPORAL_PORT --crm.embedded.temporal-ui-port=$TEMPORAL_UI_PORT \
    --crm.bootstrap.api-key=$KEY --crm.http.allow-private-addresses=true \
    --crm.rate-limit.enabled=false --crm.trigger.quota.enabled=false \
    --crm.runs.move.page-size="${PAGE:-50}" --crm.runs.move.parallel="${PARALLEL:-8}" \
    --logging.level.root=WARN \
    --logging.level.com.crmflow.worker.activity.EmailActivitiesImpl=INFO \
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
  cp "$DATA/service.log" target/move-bench-service.log 2> /dev/null || true
  rm -rf "$DATA"
  exit $rc
}
trap cleanup EXIT

json() { python3 -c "import sys,json; d=json.load(sys.stdin); print($1)"; }
api() { curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
sql() { psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -tAq -c "$1"; }
now() { date +%s.%N; }
# shellcheck source=bench/cluster-env.sh
. bench/cluster-env.sh
cpu() { embedded_cpu_ticks "$SERVICE" "$DATA" "$PGPORT"; }
# ms of CPU per item by process (service, dev server, PostgreSQL) between two cpu readings; given a
# second pair of readings over LESS items of another kind, less what as many of those cost:
# per_item LABEL COUNT "BEFORE" "AFTER" [LESS "LESS_BEFORE" "LESS_AFTER"]
per_item() {
  python3 - "$@" "$(getconf CLK_TCK)" <<'PY'
import sys
label, count, before, after = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
tick = 1000 / float(sys.argv[-1])
less, costs = 0, [0, 0, 0]
if len(sys.argv) > 8:  # the other kind's readings: its cost per item
    less = int(sys.argv[5])
    costs = [(int(a) - int(b)) * tick / max(less, 1) for b, a in zip(sys.argv[6].split(), sys.argv[7].split())]
ms = [((int(a) - int(b)) * tick - less * c) / max(count, 1) for b, a, c in zip(before, after, costs)]
print(f"RESULT cpu_ms_per_{label} service={ms[0]:.1f} temporal={ms[1]:.1f} postgres={ms[2]:.1f} total={sum(ms):.1f}")
PY
}
since() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.2f}')" "$1"; }

start_service
TENANT=$(api "$API/api/v1/me" | json 'd["tenant_id"]')
flow_m() { # the subject of its email
  echo '{"nodes":[
    {"id":"bench-m","type":"webhook_trigger","position":{"x":0,"y":0},"data":{"label":"in","config":{}}},
    {"id":"call","type":"http_request","position":{"x":300,"y":0},"data":{"label":"sink","config":{"method":"POST","url":"http://127.0.0.1:'"$SINK_PORT"'/sink","headers":{"Content-Type":"application/json"},"bodyTemplate":"{\"id\": \"{{trigger.id}}\", \"t0\": \"{{trigger.t0}}\"}"}}},
    {"id":"wait","type":"delay","position":{"x":600,"y":0},"data":{"label":"wait","config":{"delayMinutes":'"$(python3 -c "print($DELAY_SECONDS / 60)")"'}}},
    {"id":"mail","type":"email","position":{"x":900,"y":0},"data":{"label":"mail","config":{"to":"bench-{{trigger.id}}@example.com","subject":"'"$1"'","body":"Hello"}}}],
   "edges":[{"id":"e1","source":"bench-m","target":"call"},{"id":"e2","source":"call","target":"wait"},{"id":"e3","source":"wait","target":"mail"}]}'
}
FLOW_M=$(api -X POST "$API/api/v1/sequences" -d '{"name":"bench M","flow_type":"automation","builder_mode":"visual"}' | json 'd["sequence"]["id"]')
api -X PUT "$API/api/sequences/$FLOW_M/canvas" -d "$(flow_m v1)" > /dev/null
api -X PATCH "$API/api/v1/sequences/$FLOW_M" -d '{"status":"active"}' > /dev/null
FLOW_A=$(api -X POST "$API/api/v1/sequences" -d '{"name":"bench A","flow_type":"automation","builder_mode":"visual"}' | json 'd["sequence"]["id"]')
api -X PUT "$API/api/sequences/$FLOW_A/canvas" -d '{"nodes":[{"id":"bench-a","type":"webhook_trigger","position":{"x":0,"y":0},"data":{"label":"in","config":{}}},{"id":"call","type":"http_request","position":{"x":500,"y":0},"data":{"label":"sink","config":{"method":"POST","url":"http://127.0.0.1:'"$SINK_PORT"'/sink","headers":{"Content-Type":"application/json"},"bodyTemplate":"{\"id\": \"{{trigger.id}}\", \"t0\": \"{{trigger.t0}}\"}"}}}],"edges":[{"id":"e1","source":"bench-a","target":"call"}]}' > /dev/null
api -X PATCH "$API/api/v1/sequences/$FLOW_A" -d '{"status":"active"}' > /dev/null

# triggers of a flow: N of them, 8 at a time (flow M), or paced at RATE a second (flow A)
fire() { # hook n label [extra harness options]
  local hook=$1 n=$2 label=$3
  shift 3
  "$JAVA" "$HARNESS" --url "$API/api/webhooks/automation/$TENANT/$hook" --sink-port "$SINK_PORT" \
    --n "$n" --timeout-s 900 --label "$label" "$@" | grep '^RESULT' | tee "$DATA/$label.result" \
    | sed 's/^/harness: /' >&2
}
p95_of() { grep -o 'e2e_p95_ms=[0-9]*' "$DATA/$1.result" | cut -d= -f2; }
paced() { # label: TRIGGER_N triggers of flow A at RATE a second
  fire bench-a "$TRIGGER_N" "$1" --concurrency "$(python3 -c "print(max(1, int($RATE)))")" \
    --rate "$RATE"
}

# --- N runs of flow M, each waiting in its delay -------------------------------------------------
runs_m() { sql "select count(*) from automation_run where sequence_id = '$FLOW_M'"; }
# the admission refuses some triggers (503) while the service is busy: fired again, until N runs
while (($(runs_m) < N)); do fire bench-m $((N - $(runs_m))) waiting --concurrency 8; done
waiting_at() { sql "select count(*) from run_node_log l join automation_run r on r.id = l.run_id
                    where r.sequence_id = '$FLOW_M' and l.node_id = 'wait' and l.status = 'running'"; }
until [[ $(waiting_at) -ge $N ]]; do sleep 1; done
api -X PUT "$API/api/sequences/$FLOW_M/canvas" -d "$(flow_m v2)" > /dev/null

# --- 1. new triggers without a move --------------------------------------------------------------
QUIET_CPU0=$(cpu)
paced quiet
QUIET_CPU1=$(cpu)
QUIET_P95=$(p95_of quiet)
per_item trigger "$TRIGGER_N" "$QUIET_CPU0" "$QUIET_CPU1"

# --- 2. the dry run ------------------------------------------------------------------------------
t0=$(now)
DRY=$(api -X POST "$API/api/sequences/$FLOW_M/runs/move" -d '{"dry_run": true}')
DRY_S=$(since "$t0")
WOULD=$(echo "$DRY" | json 'd["would_move"]')
echo "RESULT dry_run_s=$DRY_S runs=$N would_move=$WOULD cannot_move=$(echo "$DRY" | json 'd["cannot_move"]')"
[[ $WOULD -eq $N ]] || { echo "the dry run finds $WOULD of $N runs movable: $DRY" >&2; exit 1; }

# --- 3. the move (version 1 to 2) while new triggers arrive -------------------------------------
move_to() { # body: the move's id
  api -X POST "$API/api/sequences/$FLOW_M/runs/move" -d "$1" | json 'd["move"]["move_id"]'
}
status() { api "$API/api/sequences/$FLOW_M/runs/moves/$1" | json 'd["move"]["status"]'; }
moved() { sql "select count(*) from automation_run where moved_by = '$1'"; }
MOVE_CPU0=$(cpu)
paced moving &
TRIGGERS=$!
t0=$(now)
MOVE=$(move_to '{}')
until [[ $(status "$MOVE") == completed ]]; do sleep 0.2; done
MOVE_S=$(since "$t0")
# a long move outlives the triggers by minutes, and its thousands of status reads meanwhile can
# make bash forget their job (wait: "not a child of this shell"): watch the process and its result
while kill -0 "$TRIGGERS" 2> /dev/null; do sleep 0.2; done
[[ -s $DATA/moving.result ]] || { echo "the triggers during the move printed no result" >&2; exit 1; }
MOVING_P95=$(p95_of moving)
MOVE_CPU1=$(cpu)
echo "RESULT move_s=$MOVE_S runs=$N moved=$(moved "$MOVE")"
# the move's CPU per run: from its request until it and the triggers during it ended, less what as
# many triggers cost without it
per_item moved_run "$N" "$MOVE_CPU0" "$MOVE_CPU1" "$TRIGGER_N" "$QUIET_CPU0" "$QUIET_CPU1"
echo "RESULT trigger_e2e_p95_ms without_move=$QUIET_P95 with_move=$MOVING_P95"

# --- 4. the move to version 3 (its delay shorter, recomputed: the runs wake as they move), kill -9
#        of the service once KILL_AT of the runs moved, a start on the same data, the move's end --
api -X PUT "$API/api/sequences/$FLOW_M/canvas" -d "$(DELAY_SECONDS=1 flow_m v3)" > /dev/null
MOVE=$(move_to '{"recompute_delays": true}')
kill_at=$(python3 -c "print(max(1, int($N * $KILL_AT)))")
until [[ $(moved "$MOVE") -ge $kill_at ]]; do sleep 0.05; done
kill -9 $SERVICE
wait $SERVICE 2> /dev/null || true
KILLED_AFTER=$(moved "$MOVE")
start_service
until [[ $(status "$MOVE") == completed ]]; do sleep 0.5; done

# every run woke in version 3 and sent its email: moved once each time, none lost, none twice
runs_of() { sql "select count(*) from automation_run where sequence_id = '$FLOW_M' and $1"; }
until [[ $(runs_of "status <> 'running'") -ge $N ]]; do
  kill -0 $SERVICE 2> /dev/null || { echo "the service died" >&2; exit 1; }
  sleep 1
done
sleep 2
completed=$(runs_of "status = 'completed'")
once=$(runs_of "canvas_version = 3 and moved_from_versions = '{1,2}'
                and (select count(*) from run_node_log l where l.run_id = automation_run.id
                     and l.node_id like 'move:%') = 2")
mails() { sql "select count(*) from outbound_email e join automation_run r on r.id = e.run_id
               where r.sequence_id = '$FLOW_M' $1"; }
twice=$({ grep -o 'captured email [^ ]*' "$DATA/service.log" || true; } | sort | uniq -d | wc -l)
echo "RESULT after_kill runs=$N killed_after_moved=$KILLED_AFTER moved_once=$once lost=$((N - completed)) emails=$(mails '') v3_emails=$(mails "and e.subject = 'v3'") emails_twice=$twice"
