#!/usr/bin/env bash
# Counts-per-node benchmark on embedded defaults: how fast GET /api/sequences/:id/stats answers for
# a flow with N runs.
#   bench/stats-bench.sh [N] [REQUESTS]
# Starts the service (fresh data dir, port 8094, PostgreSQL on PGPORT (55444), the Temporal dev
# server on 7294 with its UI on 8294, heap ${BENCH_JAVA_OPTS:--Xmx2g}), makes the flow
# webhook → split 50/50 → A: wait 1 day, B: wait 2 days, and fires REAL (200) webhooks: real runs,
# which wait at the delays. The other N - REAL runs are written straight into PostgreSQL with psql
# (ended runs with their node log: trigger, split with its branch, delay), their ends spread over
# the DAYS (90) days before now; the counts' trigger on run_node_log keeps node_count for them as it
# does for the real runs' entries, so the table holds what 100,000 runs over three months leave
# there. Then it asks for the counts REQUESTS (200) times each, one at a time: all time, and
# since 30 days ago (the hours of that day, then whole days), and prints p50/p95/max per kind
# (curl's time_total, from the request to the last byte). It checks the answer first: every run
# counted once at the trigger, the split's branches summing to it.
# Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
REQUESTS=${2:-200}
REAL=${REAL:-200}
DAYS=${DAYS:-90}
(( REAL <= N )) || REAL=$N
BENCH_NAME=stats-bench
PORT=${PORT:-8094}
PGPORT=${PGPORT:-55444}
TEMPORAL_PORT=${TEMPORAL_PORT:-7294}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8294}
# shellcheck source=bench/embedded-service.sh
. bench/embedded-service.sh
node() { # id, type, x, config
  echo "{\"id\":\"$1\",\"type\":\"$2\",\"position\":{\"x\":$3,\"y\":0},\"data\":{\"label\":\"$1\",\"config\":$4}}"
}
edge() { # id, source, target[, label]
  echo "{\"id\":\"$1\",\"source\":\"$2\",\"target\":\"$3\"${4:+,\"type\":\"conditional\",\"label\":\"$4\"}}"
}
FLOW=$(api -X POST localhost:$PORT/api/v1/sequences \
  -d '{"name":"bench stats","flow_type":"automation","builder_mode":"visual"}' | json '["sequence"]["id"]')
CANVAS="{\"nodes\":[$(node hook webhook_trigger 0 '{}'),$(node split split 250 \
  '{"branches":[{"label":"A","percent":50},{"label":"B","percent":50}]}'),$(node wait-a delay 500 \
  '{"delayDays":1}'),$(node wait-b delay 500 '{"delayDays":2}')],\"edges\":[$(edge e1 hook split),$(
  edge e2 split wait-a A),$(edge e3 split wait-b B)]}"
api -X PUT localhost:$PORT/api/sequences/$FLOW/canvas -d "$CANVAS" > /dev/null
api -X PATCH localhost:$PORT/api/v1/sequences/$FLOW -d '{"status":"active"}' > /dev/null
TENANT=$(api "localhost:$PORT/api/v1/me" | json '["tenant_id"]')
STATS=localhost:$PORT/api/sequences/$FLOW/stats

started=$(date +%s)
for i in $(seq 1 "$REAL"); do
  curl -sf -H 'Content-Type: application/json' -d "{\"n\":$i}" \
    "http://127.0.0.1:$PORT/api/webhooks/automation/$TENANT/hook" > /dev/null
done
waiting() { api "$STATS" | python3 -c 'import sys, json
print(sum(n["waiting"] for n in json.load(sys.stdin)["versions"][0]["nodes"] if n["type"] == "delay"))'; }
until [[ $(waiting) == "$REAL" ]]; do
  (( $(date +%s) - started < 600 )) || { echo "the $REAL real runs did not all reach their delay in 10 min" >&2; exit 1; }
  sleep 1
done
echo "real runs: $REAL waiting at their delays after $(( $(date +%s) - started )) s"

SEEDED=$(( N - REAL ))
started=$(date +%s)
# the ended runs, each a copy of a real run's row with its own id, status and times, and its log
sql -v flow="$FLOW" -v n="$SEEDED" -v days="$DAYS" <<'SQL'
create temporary table seeded as
select r.*, g as k
from (select * from automation_run where sequence_id = :'flow' limit 1) r,
     generate_series(1, :n) g;
update seeded set id = gen_random_uuid(), idempotency_key = null, retry_of = null,
    status = case when k % 50 = 0 then 'failed' else 'completed' end,
    completed_at = now() - make_interval(secs => (k::float8 / :n) * :days * 86400),
    started_at = now() - make_interval(secs => (k::float8 / :n) * :days * 86400 + 86400),
    created_at = now() - make_interval(secs => (k::float8 / :n) * :days * 86400 + 86400);
update seeded set workflow_id = 'run-' || id, error = case when status = 'failed' then 'seeded' end;
alter table seeded drop column k;
insert into automation_run select * from seeded;
insert into run_node_log (run_id, tenant_id, seq, node_id, node_type, status, started_at,
                          completed_at, output)
select s.id, s.tenant_id, e.seq, e.node_id, e.node_type,
       case when e.seq = 3 and s.status = 'failed' then 'failed' else 'completed' end,
       to_char(s.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       to_char(case when e.seq = 3 then s.completed_at else s.started_at end at time zone 'UTC',
               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       case when e.seq = 2 then jsonb_build_object('branch', s.branch) else '{}'::jsonb end
from (select *, case when hashtext(id::text) & 1 = 0 then 'A' else 'B' end as branch
      from seeded) s
cross join lateral (values (1, 'hook', 'webhook_trigger'), (2, 'split', 'split'),
                           (3, case when s.branch = 'A' then 'wait-a' else 'wait-b' end, 'delay'))
    as e(seq, node_id, node_type);
analyze node_count;
SQL
echo "seeded runs: $SEEDED ended over $DAYS days in $(( $(date +%s) - started )) s;" \
  "node_count rows: $(sql -c "select count(*) from node_count where sequence_id = '$FLOW'")"

# the answer is right before it is timed
SINCE=$(python3 -c 'import datetime as d;print((d.datetime.now(d.timezone.utc)-d.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))')
api "$STATS" | python3 -c '
import sys, json
n, real = int(sys.argv[1]), int(sys.argv[2])
nodes = {x["node_id"]: x for x in json.load(sys.stdin)["versions"][0]["nodes"]}
split = nodes["split"]
assert nodes["hook"]["passed"] == n, nodes["hook"]
assert split["passed"] == n and sum(b["passed"] for b in split["branches"]) == n, split
assert nodes["wait-a"]["waiting"] + nodes["wait-b"]["waiting"] == real, nodes
print("CHECK all time: hook passed=%d, split A=%d B=%d, waiting=%d, delays passed=%d failed=%d" % (
    nodes["hook"]["passed"], split["branches"][0]["passed"], split["branches"][1]["passed"],
    nodes["wait-a"]["waiting"] + nodes["wait-b"]["waiting"],
    nodes["wait-a"]["passed"] + nodes["wait-b"]["passed"],
    nodes["wait-a"]["failed"] + nodes["wait-b"]["failed"]))' "$N" "$REAL"

measure() { # label, url
  for _ in $(seq 1 "$REQUESTS"); do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $KEY" "$2"
  done | python3 -c '
import sys
label, times = sys.argv[1], []
for line in sys.stdin:
    code, t = line.split()
    assert code == "200", line
    times.append(float(t) * 1000)
times.sort()
q = lambda p: times[min(len(times) - 1, int(p * len(times)))]
print("RESULT stats=%s runs=%s requests=%d p50_ms=%.1f p95_ms=%.1f max_ms=%.1f" % (
    label, sys.argv[2], len(times), q(0.5), q(0.95), times[-1]))' "$1" "$N"
}
measure all-time "$STATS"
measure since-30-days "$STATS?since=$SINCE"
