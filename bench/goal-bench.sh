#!/usr/bin/env bash
# Goal benchmark on embedded defaults: how soon a run waiting in a delay ends once its contact meets
# its flow's goal.
#   bench/goal-bench.sh [N] [UPDATED]
# Starts the service (fresh data dir, port 8095, PostgreSQL on PGPORT (55445), the Temporal dev
# server on 7295 with its UI on 8295, heap ${BENCH_JAVA_OPTS:--Xmx2g}), makes the flow
# webhook → wait 1 day → email with the goal "lifecycle_stage equals customer", writes N (10,000)
# contacts at lifecycle_stage lead straight into PostgreSQL with psql, and fires one run per contact
# (PARALLEL (8) webhook calls at a time; one turned away for now is made again after its
# Retry-After). Once every run waits in its delay, it updates UPDATED (N / 10) of the contacts to
# customer, PARALLEL at a time, as fast as the API answers, and waits (at most TIMEOUT_S, 600 s)
# until their runs have ended. It prints, per run, how long after its
# contact's update was sent the run ended (its completed_at): p50/p95/max and how many within 60 s;
# and checks that each of those runs ended at the goal in its delay, that no email was sent, and
# that the other runs still wait.
# Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
UPDATED=${2:-$(( N / 10 ))}
(( UPDATED <= N )) || UPDATED=$N
PARALLEL=${PARALLEL:-8}
TIMEOUT_S=${TIMEOUT_S:-600}
BENCH_NAME=goal-bench
PORT=${PORT:-8095}
PGPORT=${PGPORT:-55445}
TEMPORAL_PORT=${TEMPORAL_PORT:-7295}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8295}
# shellcheck source=bench/embedded-service.sh
. bench/embedded-service.sh
node() { # id, type, y, config
  echo "{\"id\":\"$1\",\"type\":\"$2\",\"position\":{\"x\":0,\"y\":$3},\"data\":{\"label\":\"$1\",\"config\":$4}}"
}
edge() { # id, source, target
  echo "{\"id\":\"$1\",\"source\":\"$2\",\"target\":\"$3\"}"
}
FLOW=$(api -X POST localhost:$PORT/api/v1/sequences \
  -d '{"name":"bench goal","flow_type":"automation","builder_mode":"visual"}' | json '["sequence"]["id"]')
CANVAS="{\"nodes\":[$(node hook webhook_trigger 0 '{}'),$(node wait delay 150 '{"delayDays":1}'),$(
  node mail email 300 '{"subject":"Still thinking?","body":"Hi"}')],\"edges\":[$(edge e1 hook wait),$(
  edge e2 wait mail)],\"goal\":{\"field\":\"{{contact.lifecycle_stage}}\",\"operator\":\"equals\",\"value\":\"customer\"}}"
api -X PUT localhost:$PORT/api/sequences/$FLOW/canvas -d "$CANVAS" > /dev/null
api -X PATCH localhost:$PORT/api/v1/sequences/$FLOW -d '{"status":"active"}' > /dev/null
TENANT=$(api "localhost:$PORT/api/v1/me" | json '["tenant_id"]')

CONTACTS="$DATA/contacts"
sql -v tenant="$TENANT" -v n="$N" > "$CONTACTS" <<'SQL'
insert into contact (id, tenant_id, email, lifecycle_stage)
select gen_random_uuid(), :'tenant', 'goal-' || g || '@bench.example', 'lead'
from generate_series(1, :n) g
returning id;
SQL
(( $(wc -l < "$CONTACTS") == N )) || { echo "expected $N contacts" >&2; exit 1; }

started=$(date +%s)
# one run per contact; a call the service turns away for now (429, 503) is made again after the
# Retry-After it answers with
python3 - "$PORT" "$TENANT" "$PARALLEL" "$CONTACTS" <<'PY'
import sys, time, urllib.error, urllib.request
from concurrent.futures import ThreadPoolExecutor
port, tenant, parallel, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def fire(contact):
    for _ in range(100):
        request = urllib.request.Request(
            "http://127.0.0.1:%s/api/webhooks/automation/%s/hook" % (port, tenant),
            data=('{"contact_id": "%s"}' % contact).encode(),
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            if refused.code not in (429, 503):
                raise
            time.sleep(float(refused.headers.get("Retry-After") or 1))
    raise RuntimeError("run for contact %s not accepted" % contact)
with ThreadPoolExecutor(parallel) as pool:
    list(pool.map(fire, [line.strip() for line in open(path) if line.strip()]))
PY
waiting() { sql -c "select count(*) from run_node_log l join automation_run r on r.id = l.run_id
  where r.sequence_id = '$FLOW' and l.node_id = 'wait' and l.status = 'running'"; }
until [[ $(waiting) == "$N" ]]; do
  (( $(date +%s) - started < TIMEOUT_S )) || { echo "the $N runs did not all reach their delay in $TIMEOUT_S s" >&2; exit 1; }
  sleep 1
done
echo "runs: $N waiting in their delay after $(( $(date +%s) - started )) s;" \
  "goal watches: $(sql -c "select count(*) from record_watch where watcher = '(goal)'")"

# the updates, as fast as the API answers them: each contact's send time (epoch ms), then the wait
head -n "$UPDATED" "$CONTACTS" > "$DATA/updated"
python3 - "$PORT" "$KEY" "$PARALLEL" "$DATA/updated" > "$DATA/sent" <<'PY'
import sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
port, key, parallel, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
ids = [line.strip() for line in open(path) if line.strip()]
def update(contact):
    request = urllib.request.Request(
        "http://127.0.0.1:%s/api/v1/contacts/%s" % (port, contact), method="PATCH",
        data=b'{"lifecycle_stage": "customer"}',
        headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    sent = time.time() * 1000
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200, answer.status
    return contact, sent
began = time.time()
with ThreadPoolExecutor(parallel) as pool:
    for contact, sent in pool.map(update, ids):
        print(contact, "%.0f" % sent)
print("updated %d contacts in %.1f s" % (len(ids), time.time() - began), file=sys.stderr)
PY
started=$(date +%s)
ended() { sql -c "select count(*) from automation_run where sequence_id = '$FLOW' and status <> 'running'"; }
until [[ $(ended) -ge $UPDATED ]]; do
  (( $(date +%s) - started < TIMEOUT_S )) || { echo "only $(ended) of $UPDATED runs ended in $TIMEOUT_S s" >&2; break; }
  sleep 1
done
sql -F ' ' -c "select trigger_payload ->> 'contact_id', status, coalesce(exit ->> 'reason', ''),
    coalesce(exit ->> 'at_node', ''), round(extract(epoch from completed_at) * 1000)
  from automation_run where sequence_id = '$FLOW' and status <> 'running'" > "$DATA/ended"
STILL=$(sql -c "select count(*) from automation_run where sequence_id = '$FLOW' and status = 'running'")
EMAILS=$(sql -c "select count(*) from outbound_email e join automation_run r on r.id = e.run_id
  where r.sequence_id = '$FLOW'")
python3 - "$DATA/sent" "$DATA/ended" "$N" "$UPDATED" "$STILL" "$EMAILS" <<'PY'
import sys
sent = dict(line.split() for line in open(sys.argv[1]))
n, updated, still, emails = (int(x) for x in sys.argv[3:7])
lags, wrong = [], 0
for line in open(sys.argv[2]):
    contact, status, reason, at_node, completed = line.split()
    if contact not in sent or (status, reason, at_node) != ("completed", "goal", "wait"):
        wrong += 1
        continue
    lags.append(max(0.0, float(completed) - float(sent[contact])))
lags.sort()
q = lambda p: lags[min(len(lags) - 1, int(p * len(lags)))] if lags else float("nan")
print("CHECK ended_at_goal=%d of updated=%d, others_still_waiting=%d of %d, ended_otherwise=%d, emails=%d" % (
    len(lags), updated, still, n - updated, wrong, emails))
print("RESULT goal runs=%d updated=%d ended=%d p50_ms=%.0f p95_ms=%.0f max_ms=%.0f within_60s=%d" % (
    n, updated, len(lags), q(0.5), q(0.95), lags[-1] if lags else float("nan"),
    sum(1 for lag in lags if lag <= 60000)))
sys.exit(0 if len(lags) == updated and still == n - updated and wrong == 0 and emails == 0 else 1)
PY
