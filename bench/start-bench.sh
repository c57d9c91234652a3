#!/usr/bin/env bash
# A service start from each form of the api-server jar (docs/operations.md, "Running the jars").
#   [ROUNDS=3] [PORT=8099] [JAVA=java] bench/start-bench.sh
# Starts the api-server on the embedded defaults (a fresh data dir each time; PostgreSQL on PGPORT
# 55439, the Temporal dev server on 7299 with its UI on 8299) ROUNDS times from the packaged jar
# and ROUNDS times from the extracted one, one after the other, and prints for each start the
# seconds until its health check answers and the CPU its JVM spent by then (the dev server's and
# PostgreSQL's are the same for both forms and left out). JAVA_TOOL_OPTIONS applies: the tests'
# processes run with -XX:TieredStopAtLevel=1. Needs curl.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-8099}
PGPORT=${PGPORT:-55439}
TEMPORAL_PORT=${TEMPORAL_PORT:-7299}
TEMPORAL_UI_PORT=${TEMPORAL_UI_PORT:-8299}
JAVA=${JAVA:-java}
PACKAGED=${PACKAGED_JAR:-api-server/target/api-server-0.1.0-SNAPSHOT.jar}
EXTRACTED=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
[[ -f $PACKAGED && -f $EXTRACTED ]] || ./mvnw -q -B -DskipTests package
TICK=$(getconf CLK_TCK)
SERVICE= DATA=
stop() {
  if [[ -n $SERVICE ]]; then
    kill "$SERVICE" 2> /dev/null || true
    wait "$SERVICE" 2> /dev/null || true
  fi
  if [[ -n $DATA ]]; then rm -rf "$DATA"; fi
  SERVICE= DATA=
}
trap stop EXIT

start_once() { # form jar
  DATA=$(mktemp -d)
  local t0 ticks
  t0=$(date +%s.%N)
  "$JAVA" -Xmx1g -jar "$2" --server.port="$PORT" --crm.data-dir="$DATA" \
    --crm.embedded.postgres-port="$PGPORT" --crm.embedded.temporal-port="$TEMPORAL_PORT" \
    --crm.embedded.temporal-ui-port="$TEMPORAL_UI_PORT" --logging.level.root=WARN \
    > "$DATA/service.log" 2>&1 &
  SERVICE=$!
  local waited=0
  until curl -sf "localhost:$PORT/actuator/health" > /dev/null; do
    if ! kill -0 "$SERVICE" 2> /dev/null || ((waited++ > 3000)); then
      echo "the service did not start within 300 s:" >&2
      tail -20 "$DATA/service.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  ticks=$(awk '{print $14 + $15}' "/proc/$SERVICE/stat")
  python3 -c "import sys,time; t0,ticks,tick=map(float,sys.argv[1:]); print(f'RESULT form=$1 ready_s={time.time()-t0:.1f} jvm_cpu_s={ticks/tick:.1f}')" \
    "$t0" "$ticks" "$TICK"
  stop
}

for _ in $(seq 1 "$ROUNDS"); do
  start_once packaged "$PACKAGED"
  start_once extracted "$EXTRACTED"
done
