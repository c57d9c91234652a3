#!/usr/bin/env bash
# What tracing costs: flow A of trigger-bench.sh (webhook_trigger → http_request) with tracing
# off (trace context only, no spans exported: the defaults), on at a sampling ratio of 1.0 and on
# at 0.1. "On" is the production path: the standard OTLP exporter (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
# sends the spans to an OpenTelemetry Collector, which forwards them to a Zipkin server; both
# listen on free ports of 127.0.0.1.
#   [ROUNDS=3] [WARMUP=3000] bench/tracing-bench.sh [N] [CONCURRENCY]
# The configurations alternate (off, 1.0, 0.1, off, 1.0, 0.1, ...), ROUNDS times each, each a
# fresh service (trigger-bench.sh), so load from elsewhere on the machine spreads over all three.
# Prints a RESULT line per run (runs completed and accepted, completed runs/s, the service's CPU
# per completed run, how busy the machine was) and, per configuration, the range over its runs,
# then how many spans reached the Zipkin server. The collector is built once by
# deploy/tracing/otelcol.sh (Go and the Go module proxy); the Zipkin server is the jar Maven copies
# into api-server/target/tracing-backend (./mvnw -B -pl api-server process-test-resources).
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
OTELCOL=$(deploy/tracing/otelcol.sh) # builds it the first time, its progress on stderr
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ZIPKIN_PORT=$(free_port)
OTLP_PORT=$(free_port)
LOGS=$(mktemp -d)
# Zipkin's HTTP server (Armeria) takes its address from armeria.ports: 127.0.0.1 only
"$JAVA" -Xmx512m -jar "$ZIPKIN_JAR" --armeria.ports[0].ip=127.0.0.1 \
  --armeria.ports[0].port="$ZIPKIN_PORT" --armeria.ports[0].protocols[0]=http \
  > "$LOGS/zipkin.log" 2>&1 &
ZIPKIN=$!
OTLP_HTTP_ENDPOINT=127.0.0.1:$OTLP_PORT ZIPKIN_SPANS_URL=http://127.0.0.1:$ZIPKIN_PORT/api/v2/spans \
  "$OTELCOL" --config=deploy/tracing/otelcol.yaml > "$LOGS/otelcol.log" 2>&1 &
COLLECTOR=$!
trap 'rc=$?; kill $COLLECTOR $ZIPKIN 2>/dev/null; wait $COLLECTOR $ZIPKIN 2>/dev/null || true; rm -rf "$LOGS"; exit $rc' EXIT
for _ in $(seq 1 120); do curl -sf "127.0.0.1:$ZIPKIN_PORT/health" > /dev/null && break; sleep 1; done
curl -sf "127.0.0.1:$ZIPKIN_PORT/health" > /dev/null || { echo "the Zipkin server did not start" >&2; cat "$LOGS/zipkin.log" >&2; exit 1; }
for _ in $(seq 1 60); do (echo > "/dev/tcp/127.0.0.1/$OTLP_PORT") 2> /dev/null && break; sleep 1; done
(echo > "/dev/tcp/127.0.0.1/$OTLP_PORT") 2> /dev/null || { echo "the collector did not start" >&2; cat "$LOGS/otelcol.log" >&2; exit 1; }
EXPORT_ENDPOINT=http://127.0.0.1:$OTLP_PORT/v1/traces
settings() { # configuration → the service's sampling setting
  case $1 in
    off) echo "" ;;
    on-1.0) echo "--management.tracing.sampling.probability=1.0" ;;
    on-0.1) echo "--management.tracing.sampling.probability=0.1" ;;
  esac
}
exporting() { # configuration → the environment that makes the service export (none when off)
  case $1 in
    off) echo "" ;;
    *) echo "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=$EXPORT_ENDPOINT" ;;
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
    env $(exporting $config) SERVICE_ARGS="$(settings $config)" FLOWS=a \
      bench/trigger-bench.sh "$N" "$C" > "$LOGS/run.log" 2>&1 || {
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
    print(f"RANGE config={config} runs={len(values)} completed_per_s={per_s[0]:.1f}..{per_s[-1]:.1f}"
          f" service_cpu_ms_per_run={cpu[0]:.2f}..{cpu[-1]:.2f}")
PY
# what reached the backend through the collector: the service's traces in Zipkin's query API
curl -sf "127.0.0.1:$ZIPKIN_PORT/api/v2/traces?serviceName=crm-api-server&limit=1000000&lookback=86400000" \
  | python3 -c 'import json, sys; t = json.load(sys.stdin); print(f"EXPORTED traces={len(t)} spans={sum(len(x) for x in t)}")'
