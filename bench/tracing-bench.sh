#!/usr/bin/env bash
# What tracing costs: flow A of trigger-bench.sh (webhook_trigger → http_request) with tracing
# off (trace context only, no spans exported: the defaults), on at a sampling ratio of 1.0 and on
# at 0.1, the spans going to a Zipkin server on a free loopback port.
#   [ROUNDS=3] [WARMUP=3000] bench/tracing-bench.sh [N] [CONCURRENCY]
# The configurations alternate (off, 1.0, 0.1, off, 1.0, 0.1, ...), ROUNDS times each, each a
# fresh service (trigger-bench.sh), so load from elsewhere on the machine spreads over all three.
# Prints a RESULT line per run (runs completed and accepted, completed runs/s, the service's CPU
# per completed run) and, per configuration, the range over its runs. The Zipkin server is the jar Maven copies into
# api-server/target/tracing-backend (./mvnw -B -pl api-server process-test-resources).
# Needs what trigger-bench.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
C=${2:-32}
ROUNDS=${ROUNDS:-3}
JAVA=${JAVA:-java}
ZIPKIN_JAR=$(ls api-server/target/tracing-backend/zipkin-server-*-exec.jar 2>/dev/null | head -1 || true)
if [[ -z $ZIPKIN_JAR ]]; then
  echo "no Zipkin server jar in api-server/target/tracing-backend: run" \
    "./mvnw -B -pl api-server process-test-resources -Dexec.skip=true" >&2
  exit 2
fi
ZIPKIN_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOGS=$(mktemp -d)
"$JAVA" -Xmx512m -jar "$ZIPKIN_JAR" --server.port="$ZIPKIN_PORT" --server.address=127.0.0.1 \
  > "$LOGS/zipkin.log" 2>&1 &
ZIPKIN=$!
trap 'rc=$?; kill $ZIPKIN 2>/dev/null; wait $ZIPKIN 2>/dev/null || true; rm -rf "$LOGS"; exit $rc' EXIT
for _ in $(seq 1 120); do curl -sf "127.0.0.1:$ZIPKIN_PORT/health" > /dev/null && break; sleep 1; done
curl -sf "127.0.0.1:$ZIPKIN_PORT/health" > /dev/null || { echo "the Zipkin server did not start" >&2; exit 1; }
EXPORT="--management.tracing.export.zipkin.enabled=true --management.tracing.export.zipkin.endpoint=http://127.0.0.1:$ZIPKIN_PORT/api/v2/spans"
settings() { # configuration → the service's tracing settings
  case $1 in
    off) echo "" ;;
    on-1.0) echo "$EXPORT --management.tracing.sampling.probability=1.0" ;;
    on-0.1) echo "$EXPORT --management.tracing.sampling.probability=0.1" ;;
  esac
}
# trigger-bench.sh's fixed ports (service, dev server, its UI, PostgreSQL): the service of the
# run before may still be letting go of them
ports_free() {
  local port
  for port in 8090 7299 8299 ${PGPORT:-55439}; do
    if (echo > /dev/tcp/127.0.0.1/$port) 2> /dev/null; then return 1; fi
  done
}
for round in $(seq 1 "$ROUNDS"); do
  for config in off on-1.0 on-0.1; do
    for _ in $(seq 1 60); do ports_free && break; sleep 1; done
    SERVICE_ARGS=$(settings $config) FLOWS=a bench/trigger-bench.sh "$N" "$C" > "$LOGS/run.log" 2>&1 || {
      echo "trigger-bench.sh failed ($config, round $round):" >&2
      cat "$LOGS/run.log" >&2
      tail -20 target/trigger-bench-service.log >&2 || true
      exit 1
    }
    result=$(grep '^RESULT label=flow-a ' "$LOGS/run.log" | tail -1)
    completed=$(grep -o 'completed=[0-9]*' <<< "$result" | cut -d= -f2)
    accepted=$(grep -o 'accepted=[0-9]*' <<< "$result" | cut -d= -f2)
    per_s=$(grep -o 'throughput_per_s=[0-9.]*' <<< "$result" | cut -d= -f2 || true)
    cpu=$(grep '^CPU flow-a per completed run' "$LOGS/run.log" | grep -o 'service [0-9.]* ms' | cut -d' ' -f2)
    busy=$(grep '^machine busy over flow-a' "$LOGS/run.log" | grep -o '[0-9]*%' | head -1)
    echo "RESULT config=$config round=$round completed=$completed accepted=$accepted completed_per_s=${per_s:-?} service_cpu_ms_per_run=$cpu machine_busy=$busy"
    echo "$config ${per_s:-0} $cpu" >> "$LOGS/all"
  done
done
python3 - "$LOGS/all" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    config, per_s, cpu = line.split()
    runs.setdefault(config, []).append((float(per_s), float(cpu)))
for config, values in runs.items():
    per_s = sorted(v[0] for v in values)
    cpu = sorted(v[1] for v in values)
    print(f"RANGE config={config} runs={len(values)} completed_per_s={per_s[0]:.0f}..{per_s[-1]:.0f}"
          f" service_cpu_ms_per_run={cpu[0]:.2f}..{cpu[-1]:.2f}")
PY
