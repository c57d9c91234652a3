# The service on the embedded defaults for a bench (sourced by goal-bench.sh and stats-bench.sh,
# after they set BENCH_NAME, PORT, PGPORT, TEMPORAL_PORT and TEMPORAL_UI_PORT): a fresh data dir,
# heap ${BENCH_JAVA_OPTS:--Xmx2g}, the bench's key, no rate limit and no trigger quota. Returns
# once it answers; stops it on exit and keeps its log as target/$BENCH_NAME-service.log. Sets
# SERVICE_PID, KEY and DATA, and defines api (curl with the key), sql (psql on its PostgreSQL) and
# json (a field of the JSON on stdin). Needs psql.
JAVA=${JAVA:-java}
KEY=crm_bench_key_0123456789abcdefghijklmnopqrstuv
DATA=$(mktemp -d)
JAR=${BENCH_JAR:-api-server/target/app/api-server-0.1.0-SNAPSHOT.jar}
command -v psql > /dev/null || { echo "needs psql (Debian: postgresql-client)" >&2; exit 64; }
[[ -f $JAR ]] || ./mvnw -q -B -DskipTests package
"$JAVA" ${BENCH_JAVA_OPTS:--Xmx2g} -jar "$JAR" \
  --server.port=$PORT --crm.embedded.postgres-port=$PGPORT --crm.data-dir="$DATA" \
  --crm.embedded.temporal-port=$TEMPORAL_PORT --crm.embedded.temporal-ui-port=$TEMPORAL_UI_PORT \
  --crm.bootstrap.api-key=$KEY --crm.rate-limit.enabled=false --crm.trigger.quota.enabled=false \
  --logging.level.root=WARN > "$DATA/service.log" 2>&1 &
SERVICE_PID=$!
trap 'rc=$?; kill $SERVICE_PID 2>/dev/null; wait $SERVICE_PID 2>/dev/null || true; mkdir -p target; cp "$DATA/service.log" "target/$BENCH_NAME-service.log" 2>/dev/null; rm -rf "$DATA"; exit $rc' EXIT
for _ in $(seq 1 180); do
  kill -0 $SERVICE_PID 2>/dev/null || break
  curl -sf localhost:$PORT/actuator/health > /dev/null && break
  sleep 1
done
# a service that did not start (a port taken) must not leave the bench talking to another one
kill -0 $SERVICE_PID 2>/dev/null || { echo "the service did not start:" >&2; tail -20 "$DATA/service.log" >&2; exit 1; }

api() { curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
sql() { psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -tAq "$@"; }
json() { python3 -c "import sys,json;print(json.load(sys.stdin)$1)"; }
