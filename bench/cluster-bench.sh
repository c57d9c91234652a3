#!/usr/bin/env bash
# Trigger → completion on the cluster shape (deploy/cluster/start.sh), with bench/TriggerBench.java:
#   [FLOWS="a b"] [SHARDS="1 4"] [WORKERS="1 2"] [WARMUP=3000] [PREWARM=0] [JIT_CURVE=S] [DEV_SERVER=1]
#   [FAIRNESS=1] bench/cluster-bench.sh [N] [CONCURRENCY]
# First, unless DEV_SERVER=0, the same flows on the embedded defaults (the Temporal CLI's dev
# server), through bench/trigger-bench.sh with the same N, CONCURRENCY and WARMUP, so that both
# shapes are measured in one run; its lines carry the label dev-flow-<flow>.
# For each history-shard count in SHARDS, a new cluster (its own CLUSTER_DIR: the shards are fixed
# when a cluster is made) of PostgreSQL, the Temporal server, two api-servers and two workers, on
# free ports; then, for each worker count in WORKERS (the second worker stopped for 1), the flows
# of bench/trigger-bench.sh:
#   flow A: webhook_trigger → http_request POST to the harness's sink
#   flow B: webhook_trigger → delay 1 s → http_request POST to the sink
# each triggered N times with CONCURRENCY at once, through every api-server in turn (round-robin,
# as a load balancer in front of them sends them). It prints the harness's RESULT lines, then the
# CPU each completed run cost each kind of process (the api-servers, the workers, the Temporal
# server, PostgreSQL; from /proc over the measured part) and how busy the machine was.
# WARMUP triggers (the harness sends at most 20 s of them) go first and are not measured.
# PREWARM=N: before measuring each configuration, N unmeasured triggers per flow (beyond the
# harness's 20 s cap on warm-up), so that the figures are those of a warm cluster (the JIT of every
# JVM done, the caches full), as trigger-bench.sh's PREWARM.
# JIT_CURVE=S: every S seconds from the cluster's start to the end of its measurements, the runs
# completed so far and the CPU per run completed in those S seconds of each kind of process: how
# the cost falls from the warm-up to the warm steady state (the windows of trigger-bench.sh's
# JIT_CURVE, per kind of process).
# FAIRNESS=1: instead of the flows, bench/FairnessBench.java on the cluster (4 history shards, two
# workers): tenant B's runs alone, then while tenant A floods its trigger, every call through both
# api-servers in turn; its RESULT and TARGET lines say whether B keeps its share (RUNS, CALLERS,
# B_INTERVAL_MS and the other settings of fairness-bench.sh pass through).
# CLUSTER_DIR set: that cluster (started by start.sh with the same environment, its shard count the
# one in SHARDS) is used and left running; the bench then makes its tenant with CRM_ADMIN_TOKEN.
# PG_STATEMENTS=1: PostgreSQL runs with pg_stat_statements, and after each measurement a STATEMENTS
# line says how many statements each completed run cost each database (crm, temporal,
# temporal_visibility) and which five statements were called most (bench/cluster-settings.sh).
# The service's settings reach both shapes through the environment, as Spring Boot reads it: e.g.
# CRM_TRIGGER_ADMISSION_MAX_DUE_TIME=1s measures the admission that follows how long runs stay due.
# Last, a table of every configuration: completed/s, end-to-end p50/p99, lost/duplicates and the
# CPU per completed run of each kind of process.
# Needs curl, python3 and psql.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster-env.sh
. bench/cluster-env.sh
N=${1:-2000}
C=${2:-32}
HARNESS=${HARNESS:-bench/TriggerBench.java}
JAVA=${JAVA:-java}
TICK=$(getconf CLK_TCK)

OWN_CLUSTER=1
[[ -n ${CLUSTER_DIR:-} ]] && OWN_CLUSTER=0
SINK_PORT=$(free_ports 1)
BENCH_DIRS=()
RESULTS=$(mktemp) # the RESULT and CPU lines of every configuration, for the table at the end
cleanup() {
  local rc=$?
  if [[ -n ${CURVE:-} ]]; then kill "$CURVE" 2> /dev/null || true; fi
  remove_clusters
  rm -f "$RESULTS"
  exit $rc
}
trap cleanup EXIT


# PG_STATEMENTS: the counts start again (pg_stat_statements_reset), before a measured part
statements_reset() {
  [[ -n ${PG_STATEMENTS:-} ]] || return 0
  cluster_sql crm "create extension if not exists pg_stat_statements" > /dev/null
  cluster_sql crm "select pg_stat_statements_reset()" > /dev/null
}
# PG_STATEMENTS: statements per completed run, by database, and the five called most
statements_per_run() { # label, completed runs
  [[ -n ${PG_STATEMENTS:-} && ${2:-0} -gt 0 ]] || return 0
  local per_db top
  per_db=$(cluster_sql crm "select string_agg(d.datname || ' ' || round(s.calls::numeric / $2, 1), ', ' order by d.datname)
    from (select dbid, sum(calls) as calls from pg_stat_statements group by dbid) s
    join pg_database d on d.oid = s.dbid where d.datname in ('crm', 'temporal', 'temporal_visibility')")
  echo "STATEMENTS $1 per completed run: $per_db"
  cluster_sql crm "select round(s.calls::numeric / $2, 2) || ' per run  ' || d.datname || '  ' || left(regexp_replace(s.query, '\s+', ' ', 'g'), 110)
    from pg_stat_statements s join pg_database d on d.oid = s.dbid order by s.calls desc limit 5" \
    | sed "s/^/STATEMENTS $1 top: /"
}

machine_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }

api() { curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
make_flow() { # name, canvas json
  local id
  id=$(api -X POST "$API/api/v1/sequences" -d "{\"name\":\"$1\",\"flow_type\":\"automation\",\"builder_mode\":\"visual\"}" | python3 -c 'import sys,json;print(json.load(sys.stdin)["sequence"]["id"])')
  api -X PUT "$API/api/sequences/$id/canvas" -d "$2" > /dev/null
  api -X PATCH "$API/api/v1/sequences/$id" -d '{"status":"active"}' > /dev/null
}
make_flows() { # suffix: flows A and B of a new tenant
  local admin=(-sf -H "Authorization: Bearer $CRM_ADMIN_TOKEN" -H 'Content-Type: application/json')
  TENANT=$(curl "${admin[@]}" -X POST "$API/admin/v1/tenants" -d "{\"name\":\"bench-$1-$RANDOM\"}" | python3 -c 'import sys,json;print(json.load(sys.stdin)["tenant"]["id"])')
  KEY=$(curl "${admin[@]}" -X POST "$API/admin/v1/tenants/$TENANT/api-keys" -d '{"name":"bench","scopes":["*"]}' | python3 -c 'import sys,json;print(json.load(sys.stdin)["key"])')
  curl "${admin[@]}" -X PUT "$API/admin/v1/tenants/$TENANT/trigger-quota" -d '{"requests":100000,"window_seconds":1}' > /dev/null
  local sink="{\"id\":\"call\",\"type\":\"http_request\",\"position\":{\"x\":500,\"y\":0},\"data\":{\"label\":\"sink\",\"config\":{\"method\":\"POST\",\"url\":\"http://127.0.0.1:$SINK_PORT/sink\",\"headers\":{\"Content-Type\":\"application/json\"},\"bodyTemplate\":\"{\\\"id\\\": \\\"{{trigger.id}}\\\", \\\"t0\\\": \\\"{{trigger.t0}}\\\"}\"}}}"
  make_flow "bench A $1" "{\"nodes\":[{\"id\":\"bench-a\",\"type\":\"webhook_trigger\",\"position\":{\"x\":0,\"y\":0},\"data\":{\"label\":\"in\",\"config\":{}}},$sink],\"edges\":[{\"id\":\"e1\",\"source\":\"bench-a\",\"target\":\"call\"}]}"
  make_flow "bench B $1" "{\"nodes\":[{\"id\":\"bench-b\",\"type\":\"webhook_trigger\",\"position\":{\"x\":0,\"y\":0},\"data\":{\"label\":\"in\",\"config\":{}}},{\"id\":\"wait\",\"type\":\"delay\",\"position\":{\"x\":250,\"y\":0},\"data\":{\"label\":\"1 s\",\"config\":{\"delayHours\":0.000277778}}},$sink],\"edges\":[{\"id\":\"e1\",\"source\":\"bench-b\",\"target\":\"wait\"},{\"id\":\"e2\",\"source\":\"wait\",\"target\":\"call\"}]}"
}

# the trigger URLs of a flow on every api-server, for the harness's round-robin
trigger_urls() { # flow
  local port urls=()
  for port in ${CLUSTER_API_PORTS:-8080 8081}; do
    urls+=("http://127.0.0.1:$port/api/webhooks/automation/$TENANT/bench-$1")
  done
  local IFS=,
  echo "${urls[*]}"
}

# runs completed so far in the cluster's database
completed_runs() {
  cluster_sql crm "select count(*) from automation_run where status = 'completed'" 2> /dev/null
}

# JIT_CURVE: every S seconds, the CPU per run completed in those S seconds of each kind of process
jit_curve() { # seconds, workers
  local every=$1 workers=$2 n0 n1 before after
  read -r -a before < <(cpu_ticks "$workers")
  n0=$(completed_runs) || n0=0
  while sleep "$every"; do
    read -r -a after < <(cpu_ticks "$workers") || break
    n1=$(completed_runs) || break
    # a window in which a worker stopped (the measurements of one worker) lost that worker's
    # ticks: it is left out
    if [[ $n1 -gt $n0 && ${after[1]} -ge ${before[1]} ]]; then
      python3 - "$n1" "$((n1 - n0))" "$TICK" "$((after[0] - before[0]))" "$((after[1] - before[1]))" \
        "$((after[2] - before[2]))" "$((after[3] - before[3]))" <<'PY'
import sys
total, n, tick = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
kinds = dict(zip(["api-servers", "workers", "temporal", "postgres"], map(float, sys.argv[4:8])))
print(f"JIT curve: {total} runs completed; the last {n}: "
      + ", ".join(f"{k} {1000 * v / tick / n:.2f} ms" for k, v in kinds.items())
      + f", all {1000 * sum(kinds.values()) / tick / n:.2f} ms per run")
PY
    fi
    before=("${after[@]}")
    n0=$n1
  done
}

measure() { # label, workers, flow
  local label=$1 workers=$2 flow=$3 log
  log=$(mktemp)
  if [[ ${PREWARM:-0} -gt 0 ]]; then
    "$JAVA" "$HARNESS" --url "$(trigger_urls "$flow")" --sink-port "$SINK_PORT" --n "$PREWARM" \
      --concurrency "$C" --timeout-s 300 --label "prewarm-$label" | grep RESULT | sed 's/^/prewarm: /'
  fi
  "$JAVA" "$HARNESS" --url "$(trigger_urls "$flow")" --sink-port "$SINK_PORT" \
    --n "$N" --concurrency "$C" --warmup "${WARMUP:-3000}" --timeout-s 300 --label "$label" \
    2>&1 | tee "$log" | tee -a "$RESULTS" | while IFS= read -r line; do
      echo "$line"
      if [[ $line == *": firing $N triggers"* ]]; then
        statements_reset
        cpu_ticks "$workers" > "$log.cpu"
        machine_ticks > "$log.machine"
      fi
    done
  local after before busy_after total_after busy_before total_before completed
  read -r -a after < <(cpu_ticks "$workers")
  read -r busy_after total_after < <(machine_ticks)
  read -r -a before < "$log.cpu"
  read -r busy_before total_before < "$log.machine"
  completed=$(grep -o 'completed=[0-9]*' "$log" | tail -1 | cut -d= -f2)
  statements_per_run "$label" "${completed:-0}" | tee -a "$RESULTS"
  python3 - "$label" "${completed:-0}" "$TICK" "$((total_after - total_before))" \
    "$((busy_after - busy_before))" "$((after[0] - before[0]))" "$((after[1] - before[1]))" \
    "$((after[2] - before[2]))" "$((after[3] - before[3]))" <<'PY' | tee -a "$RESULTS"
import os, sys
label, n, tick, total, busy = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
kinds = dict(zip(["api-servers", "workers", "temporal", "postgres"], map(float, sys.argv[6:10])))
if n:
    print(f"CPU {label} per completed run: " + ", ".join(f"{k} {1000 * v / tick / n:.2f} ms" for k, v in kinds.items())
          + f", all {1000 * sum(kinds.values()) / tick / n:.2f} ms")
else:
    print(f"CPU {label} per completed run: no run completed")
if total:
    print(f"CPU shares over {label} (of {os.cpu_count()} cores): "
          + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in kinds.items())
          + f"; machine busy {100 * busy / total:.0f}%")
PY
  rm -f "$log" "$log.cpu" "$log.machine"
}

# the same flows on the embedded defaults; trigger-bench.sh's labels flow-<x> become dev-flow-<x>
dev_server() {
  WARMUP=${WARMUP:-3000} FLOWS=${FLOWS:-a b} bench/trigger-bench.sh "$N" "$C" 2>&1 \
    | sed -E 's/^(RESULT label=|CPU |CPU shares over |accepted )flow-/\1dev-flow-/' \
    | tee -a "$RESULTS" | sed 's/^/dev server: /'
}

# one row per configuration, from the RESULT and CPU lines
summary() {
  python3 - "$RESULTS" <<'PY'
import re, sys
rows, cpu = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"RESULT label=(\S+) (.*)", line)
    if m:
        rows[m.group(1)] = dict(kv.split("=", 1) for kv in m.group(2).split())
    m = re.match(r"CPU (\S+) per completed run: (.*)", line)
    if m and "no run completed" not in m.group(2):
        parts = dict((k.strip(), float(v)) for k, v in re.findall(r"([a-z -]+?) ([0-9.]+) ms", re.sub(r"\(of which[^)]*\)", "", m.group(2))))
        cpu[m.group(1)] = parts
print("| configuration | completed/s | end-to-end p50 / p99 | lost / duplicates | CPU per run by process kind | all |")
print("|---|---|---|---|---|---|")
for label, r in rows.items():
    parts = cpu.get(label, {})
    total = parts.pop("all", None)
    if total is None and parts:
        total = sum(parts.values())
    kinds = " / ".join(f"{k} {v:.1f}" for k, v in parts.items()) or "n/a"
    print(f"| {label} | {r.get('throughput_per_s')} | {r.get('e2e_p50_ms')} / {r.get('e2e_p99_ms')} ms "
          f"| {r.get('lost')} / {r.get('duplicates')} | {kinds} ms | {f'{total:.1f} ms' if total is not None else 'n/a'} |")
PY
}

if [[ -n ${FAIRNESS:-} ]]; then
  ((OWN_CLUSTER)) && new_cluster 4
  deploy/cluster/start.sh | sed 's/^/cluster: /'
  BASE_URL=http://127.0.0.1:$(echo "${CLUSTER_API_PORTS:-8080 8081}" | awk '{print $1}')
  TRIGGER_BASE_URLS=$(for port in ${CLUSTER_API_PORTS:-8080 8081}; do printf 'http://127.0.0.1:%s,' "$port"; done)
  WATCH_PIDS="api-1=$(pid_of api-1) api-2=$(pid_of api-2) temporal=$(pid_of temporal) postgres=$(pid_of postgres)"
  BASE_URL=$BASE_URL TRIGGER_BASE_URLS=${TRIGGER_BASE_URLS%,} ADMIN_TOKEN=$CRM_ADMIN_TOKEN \
    WATCH_PIDS=$WATCH_PIDS "$JAVA" bench/FairnessBench.java
  exit 0
fi
if [[ ${DEV_SERVER:-1} != 0 ]]; then
  dev_server
fi
for shards in ${SHARDS:-1 4}; do
  if ((OWN_CLUSTER)); then
    new_cluster "$shards"
  fi
  deploy/cluster/start.sh | sed 's/^/cluster: /'
  API=http://127.0.0.1:$(echo "${CLUSTER_API_PORTS:-8080 8081}" | awk '{print $1}')
  make_flows "s$shards"
  CURVE=
  if [[ -n ${JIT_CURVE:-} ]]; then
    jit_curve "$JIT_CURVE" 2 &
    CURVE=$!
  fi
  for workers in ${WORKERS:-1 2}; do
    if ((workers == 1)); then
      deploy/cluster/stop.sh worker-2 > /dev/null
    else
      deploy/cluster/start.sh > /dev/null
    fi
    for flow in ${FLOWS:-a b}; do
      measure "cluster-s$shards-w$workers-flow-$flow" "$workers" "$flow"
    done
  done
  if [[ -n $CURVE ]]; then kill "$CURVE" 2> /dev/null || true; fi
  # a cluster the bench was given is left as it was found: every part running
  ((OWN_CLUSTER)) || deploy/cluster/start.sh > /dev/null
done

echo "side by side (N=$N, CONCURRENCY=$C, WARMUP=${WARMUP:-3000}):"
summary
