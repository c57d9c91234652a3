#!/usr/bin/env bash
# The production shape on one machine, without Docker: PostgreSQL 17, a Temporal server 1.29.1 on
# it (frontend, history, matching and worker roles in one process, NUM_HISTORY_SHARDS shards), two
# api-servers (profile distributed) and two workflow-workers, each its own process.
#
#   deploy/cluster/start.sh      starts whatever part is not running, returns when all are healthy
#   deploy/cluster/stop.sh       stops them (stop.sh temporal: only that part; see stop.sh)
#
# The Temporal server, temporal-sql-tool and the Temporal UI server are found or built (go install,
# once, into ~/.cache/crmflow) by the api-server jar's tool lookup, as the service finds its
# Temporal CLI; PostgreSQL is the one the service embeds (or POSTGRES_BIN, a bin directory).
# The server's config is the release's own template (config/docker.yaml of go.temporal.io/server,
# the file the temporalio/server and auto-setup images render), with the same variables as
# docker-compose.yml, and its dynamic config is deploy/temporal/development-sql.yaml.
#
# Settings (environment):
#   CLUSTER_DIR          state, logs and pid files (default ./data/cluster)
#   CLUSTER_API_PORTS    the api-servers' ports, one api-server each (default "8080 8081")
#   CLUSTER_WORKERS      how many workflow-workers (default 2)
#   CLUSTER_PG_PORT      PostgreSQL (default 55432)
#   CLUSTER_UI_PORT      the Temporal UI (default 8233); CLUSTER_UI=0: no UI
#   NUM_HISTORY_SHARDS   Temporal's history shards (default 4; fixed when the cluster is made)
#   FRONTEND_GRPC_PORT (7233), FRONTEND_HTTP_PORT (7243), HISTORY_GRPC_PORT (7234),
#   MATCHING_GRPC_PORT (7235), WORKER_GRPC_PORT (7239), FRONTEND_MEMBERSHIP_PORT (6933),
#   HISTORY_MEMBERSHIP_PORT (6934), MATCHING_MEMBERSHIP_PORT (6935), WORKER_MEMBERSHIP_PORT (6939),
#   PROMETHEUS_ENDPOINT (unset: none): the Temporal server's, as its image names them; each
#   below 32768 (the server keeps its members' ports in a PostgreSQL smallint)
#   CLUSTER_API_JAVA_OPTS (-Xmx512m), CLUSTER_WORKER_JAVA_OPTS (-Xmx384m), JAVA (java)
#   CLUSTER_START_TIMEOUT  seconds each part may take to become healthy (default 180)
#   CLUSTER_PG_OPTS      further options of PostgreSQL's command line ("-c name=value ...")
#   TEMPORAL_DYNAMIC_CONFIG  the Temporal server's dynamic config file (default
#                        deploy/temporal/development-sql.yaml); SQL_MAX_CONNS, SQL_VIS_MAX_CONNS and
#                        the other variables of its config template pass through
# The service's own settings pass through to every api-server and worker: CRM_BOOTSTRAP_API_KEY,
# CRM_ADMIN_TOKEN, CRM_HTTP_ALLOW_PRIVATE_ADDRESSES, CRM_SECRETS_KEY or CRM_SECRETS_KEY_FILE (when
# neither is set, a key is made once in $CLUSTER_DIR/secrets.key), SPRING_MAIL_HOST/PORT, and any
# other CRM_* or SPRING_* variable.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/deploy/cluster"
# shellcheck source=deploy/cluster/parts.sh
. "$HERE/parts.sh"

JAVA=${JAVA:-java}
API_PORTS=(${CLUSTER_API_PORTS:-8080 8081})
WORKERS=${CLUSTER_WORKERS:-2}
PG_PORT=${CLUSTER_PG_PORT:-55432}
UI_PORT=${CLUSTER_UI_PORT:-8233}
TIMEOUT=${CLUSTER_START_TIMEOUT:-180}
export NUM_HISTORY_SHARDS=${NUM_HISTORY_SHARDS:-4}
export FRONTEND_GRPC_PORT=${FRONTEND_GRPC_PORT:-7233}
TEMPORAL_TARGET=127.0.0.1:$FRONTEND_GRPC_PORT
for var in FRONTEND_GRPC_PORT FRONTEND_HTTP_PORT HISTORY_GRPC_PORT MATCHING_GRPC_PORT \
  WORKER_GRPC_PORT FRONTEND_MEMBERSHIP_PORT HISTORY_MEMBERSHIP_PORT MATCHING_MEMBERSHIP_PORT \
  WORKER_MEMBERSHIP_PORT; do
  if [[ -n ${!var:-} ]] && ((${!var} > 32767)); then
    echo "$var=${!var}: the Temporal server's ports must be below 32768" >&2
    exit 1
  fi
done
mkdir -p "$CLUSTER_DIR/logs"

# --- ports --------------------------------------------------------------------------------------
# Each part's ports: a part to be started needs them free, and a running part must be the one
# listening on them. A port held by another process (a server told to stop that still answers)
# would take the part's calls: start.sh refuses, naming the port and the process that holds it.
# Listening sockets and their owners are read from /proc (as ss -ltnp does).
listening_inodes() { # port: the inodes of the TCP sockets listening on it (IPv4, IPv6)
  local hex
  hex=$(printf ':%04X' "$1")
  awk -v port="$hex" '$4 == "0A" && substr($2, length($2) - 4) == port {print $10}' \
    /proc/net/tcp /proc/net/tcp6 2> /dev/null
}
port_pids() { # port: the pids of the processes listening on it
  local inode fd
  for inode in $(listening_inodes "$1"); do
    for fd in $(find /proc/[0-9]*/fd -lname "socket:\[$inode\]" 2> /dev/null); do
      fd=${fd#/proc/}
      echo "${fd%%/*}"
    done
  done | sort -u
}
describe_pid() { # pid: "pid N (its command line)"
  local cmd
  cmd=$(tr '\0\n' '  ' < "/proc/$1/cmdline" 2> /dev/null | cut -c1-160)
  echo "pid $1 (${cmd% })"
}
# the ports of each part, as "VARIABLE=port" (the Temporal server's defaults are its image's)
part_ports() { # part
  case $1 in
    postgres) echo "CLUSTER_PG_PORT=$PG_PORT" ;;
    temporal)
      echo "FRONTEND_GRPC_PORT=$FRONTEND_GRPC_PORT FRONTEND_HTTP_PORT=${FRONTEND_HTTP_PORT:-7243}" \
        "HISTORY_GRPC_PORT=${HISTORY_GRPC_PORT:-7234} MATCHING_GRPC_PORT=${MATCHING_GRPC_PORT:-7235}" \
        "WORKER_GRPC_PORT=${WORKER_GRPC_PORT:-7239} FRONTEND_MEMBERSHIP_PORT=${FRONTEND_MEMBERSHIP_PORT:-6933}" \
        "HISTORY_MEMBERSHIP_PORT=${HISTORY_MEMBERSHIP_PORT:-6934} MATCHING_MEMBERSHIP_PORT=${MATCHING_MEMBERSHIP_PORT:-6935}" \
        "WORKER_MEMBERSHIP_PORT=${WORKER_MEMBERSHIP_PORT:-6939}"
      ;;
    ui) echo "CLUSTER_UI_PORT=$UI_PORT" ;;
    api-*) echo "CLUSTER_API_PORTS=${API_PORTS[$((${1#api-} - 1))]}" ;;
  esac
}
# whether a running part's pid (or a process it started) is the one listening on the port
owned_by() { # pid, port
  local holder
  for holder in $(port_pids "$2"); do
    [[ $holder == "$1" || $(awk '{print $4}' "/proc/$holder/stat" 2> /dev/null) == "$1" ]] && return 0
  done
  return 1
}
# prints what is wrong with the part's ports: taken by another process (a part to start), or
# served by another process than the part (a running part); nothing when all is well
check_ports() { # part
  local pair var port holder pid
  pid=$(pid_of "$1") || pid=
  for pair in $(part_ports "$1"); do
    var=${pair%%=*} port=${pair##*=}
    [[ -n $pid ]] && owned_by "$pid" "$port" && continue
    for holder in $(port_pids "$port"); do
      if [[ -n $pid ]]; then
        echo "$1 runs as pid $pid, but 127.0.0.1:$port ($var) is served by $(describe_pid "$holder")"
      else
        echo "port $port ($var, for $1) is taken by $(describe_pid "$holder")"
      fi
    done
  done
}
ports_wrong=$(
  for part in postgres temporal $([[ ${CLUSTER_UI:-1} != 0 ]] && echo ui) \
    $(for i in "${!API_PORTS[@]}"; do echo "api-$((i + 1))"; done); do
    check_ports "$part"
  done
)
if [[ -n $ports_wrong ]]; then
  sed 's/^/start.sh: /' <<< "$ports_wrong" >&2
  echo "start.sh: stop those processes, or choose other ports (the settings named above)" >&2
  exit 1
fi

# the runnable jars as the build extracts them (target/app: the application's jar and its lib/)
API_JAR=${CLUSTER_API_JAR:-$(ls "$ROOT"/api-server/target/app/api-server-*.jar 2>/dev/null | head -1 || true)}
WORKER_JAR=${CLUSTER_WORKER_JAR:-$(ls "$ROOT"/workflow-worker/target/app/*-exec.jar 2>/dev/null | head -1 || true)}
if [[ -z $API_JAR || -z $WORKER_JAR ]]; then
  echo "building the api-server and workflow-worker jars (./mvnw -DskipTests package) ..."
  (cd "$ROOT" && ./mvnw -q -B -DskipTests package)
  API_JAR=$(ls "$ROOT"/api-server/target/app/api-server-*.jar | head -1)
  WORKER_JAR=$(ls "$ROOT"/workflow-worker/target/app/*-exec.jar | head -1)
fi

# shellcheck source=deploy/tools.sh
. "$ROOT/deploy/tools.sh"

# waits until `check` succeeds, or fails with the part's log
await() { # part, what, check...
  local part=$1 what=$2
  shift 2
  local deadline=$((SECONDS + TIMEOUT))
  until "$@" > /dev/null 2>&1; do
    if ! alive "$part"; then
      echo "$part exited before $what; the end of its log ($(log_of "$part")):" >&2
      tail -n 40 "$(log_of "$part")" >&2 || true
      exit 1
    fi
    if ((SECONDS > deadline)); then
      echo "$part: not $what within ${TIMEOUT} s; the end of its log ($(log_of "$part")):" >&2
      tail -n 40 "$(log_of "$part")" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
}

# starts a part in the background, in a session of its own, its output in its log
launch() { # part, command...
  local part=$1
  shift
  local log
  log=$(log_of "$part")
  [[ -f $log ]] && mv "$log" "$log.1"
  setsid "$@" > "$log" 2>&1 < /dev/null &
  local pid=$!
  echo "$pid" > "$(pid_file "$part")"
  # until the forked shell has become the part's command (whose command line names CLUSTER_DIR),
  # alive() takes it for gone, and await() would report a part that is still starting as exited
  while kill -0 "$pid" 2> /dev/null && ! alive "$part"; do sleep 0.05; done
}

echo "cluster in $CLUSTER_DIR"
# the tools of the parts to start, looked up (or built) at once
wanted=(temporal)
alive postgres || wanted+=(postgres)
alive temporal || wanted+=(temporal-server temporal-sql-tool temporal-server-source)
[[ ${CLUSTER_UI:-1} != 0 ]] && ! alive ui && wanted+=(temporal-ui-server temporal-ui-server-source)
mapfile -t PATHS < <(tools "${wanted[@]}")
[[ ${#PATHS[@]} -eq ${#wanted[@]} ]] || { echo "the tool lookup failed (above)" >&2; exit 1; }
declare -A TOOL
for i in "${!wanted[@]}"; do TOOL[${wanted[$i]}]=${PATHS[$i]}; done

# --- PostgreSQL ---------------------------------------------------------------------------------
PW_FILE="$CLUSTER_DIR/postgres-password"
if [[ ! -f $PW_FILE ]]; then
  (umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$PW_FILE")
fi
PG_PASSWORD=$(cat "$PW_FILE")
if ! alive postgres; then
  PGBIN=${TOOL[postgres]}
  # PostgreSQL refuses to run as root: as root, it runs in a user namespace of its own, as the
  # service's embedded PostgreSQL does (the files stay this user's)
  AS_PG=()
  [[ $(id -u) == 0 ]] && AS_PG=(unshare --user)
  if [[ ! -f $CLUSTER_DIR/postgres/PG_VERSION ]]; then
    echo "initializing PostgreSQL in $CLUSTER_DIR/postgres ..."
    "${AS_PG[@]}" "$PGBIN/initdb" -D "$CLUSTER_DIR/postgres" -U postgres --pwfile="$PW_FILE" \
      --auth=scram-sha-256 -E UTF8 --locale=C > "$CLUSTER_DIR/logs/initdb.log" 2>&1
  fi
  launch postgres "${AS_PG[@]}" "$PGBIN/postgres" -D "$CLUSTER_DIR/postgres" -p "$PG_PORT" \
    -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300 \
    -c shared_buffers=256MB ${CLUSTER_PG_OPTS:-}
  await postgres "accepting connections" grep -q "ready to accept connections" "$(log_of postgres)"
fi
echo "postgres    127.0.0.1:$PG_PORT (user postgres, password in $PW_FILE)"

# --- Temporal -----------------------------------------------------------------------------------
export DB=postgres12 POSTGRES_SEEDS=127.0.0.1 DB_PORT=$PG_PORT POSTGRES_PORT=$PG_PORT
export POSTGRES_USER=postgres POSTGRES_PWD=$PG_PASSWORD
export BIND_ON_IP=127.0.0.1 TEMPORAL_BROADCAST_ADDRESS=127.0.0.1
export DYNAMIC_CONFIG_FILE_PATH=${TEMPORAL_DYNAMIC_CONFIG:-$ROOT/deploy/temporal/development-sql.yaml}
if ! alive temporal; then
  SCHEMA=${TOOL[temporal-server-source]}/schema/postgresql/v12
  sql() { # database, command...
    local db=$1
    shift
    "${TOOL[temporal-sql-tool]}" --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u postgres \
      --pw "$PG_PASSWORD" --db "$db" "$@"
  }
  # a database made here gets its schema's base version; every start brings each up to date
  for pair in temporal:temporal temporal_visibility:visibility; do
    db=${pair%%:*} dir=${pair##*:}
    # create-database succeeds on a database that exists too; setup-schema says whether it had one
    if out=$(sql "$db" create-database 2>&1); then
      setup=$(sql "$db" setup-schema -v 0.0 2>&1) \
        || { echo "setup-schema of $db failed: $setup" >&2; exit 1; }
      echo "$setup" >> "$CLUSTER_DIR/logs/schema.log"
      [[ $setup == *"Skip version upgrade"* ]] || echo "created database $db"
    elif [[ $out != *"already exists"* ]]; then
      echo "could not create database $db: $out" >&2
      exit 1
    fi
    sql "$db" update-schema -d "$SCHEMA/$dir/versioned" >> "$CLUSTER_DIR/logs/schema.log" 2>&1 \
      || { echo "update-schema of $db failed; see $CLUSTER_DIR/logs/schema.log" >&2; exit 1; }
  done
  # the service's own database (its tables are Flyway's, made by the first api-server)
  if ! out=$(sql crm create-database 2>&1) && [[ $out != *"already exists"* ]]; then
    echo "could not create database crm: $out" >&2
    exit 1
  fi
  # the history shards are fixed when the cluster is made: another count needs another CLUSTER_DIR
  if [[ -f $CLUSTER_DIR/history-shards && $(cat "$CLUSTER_DIR/history-shards") != "$NUM_HISTORY_SHARDS" ]]; then
    echo "this cluster was made with $(cat "$CLUSTER_DIR/history-shards") history shards, not" \
      "$NUM_HISTORY_SHARDS: use another CLUSTER_DIR" >&2
    exit 1
  fi
  echo "$NUM_HISTORY_SHARDS" > "$CLUSTER_DIR/history-shards"
  mkdir -p "$CLUSTER_DIR/temporal/config"
  cp "${TOOL[temporal-server-source]}/config/docker.yaml" "$CLUSTER_DIR/temporal/config/docker.yaml"
  chmod u+w "$CLUSTER_DIR/temporal/config/docker.yaml"
  launch temporal "${TOOL[temporal-server]}" --root "$CLUSTER_DIR/temporal" --config config \
    --env docker --allow-no-auth start
fi
await temporal "serving" "${TOOL[temporal]}" operator cluster health --address "$TEMPORAL_TARGET"
# the server that answered must be the one started here, not another still holding the port
if ! owned_by "$(pid_of temporal)" "$FRONTEND_GRPC_PORT"; then
  echo "start.sh: the Temporal server answering on $TEMPORAL_TARGET is not the one started here" \
    "(pid $(pid_of temporal || echo '?')): $(for p in $(port_pids "$FRONTEND_GRPC_PORT"); do describe_pid "$p"; done)" >&2
  exit 1
fi
NAMESPACE=${TEMPORAL_NAMESPACE:-default}
if ! "${TOOL[temporal]}" operator namespace describe --address "$TEMPORAL_TARGET" -n "$NAMESPACE" > /dev/null 2>&1; then
  # a describe that timed out on a busy machine does not mean the namespace is missing: a create
  # refused because it exists is what a second describe confirms
  "${TOOL[temporal]}" operator namespace create --address "$TEMPORAL_TARGET" -n "$NAMESPACE" \
    --retention 72h > /dev/null \
    || "${TOOL[temporal]}" operator namespace describe --address "$TEMPORAL_TARGET" -n "$NAMESPACE" > /dev/null
fi
# a new namespace reaches every role's cache within seconds
await temporal "serving namespace $NAMESPACE" \
  "${TOOL[temporal]}" workflow list --address "$TEMPORAL_TARGET" -n "$NAMESPACE" --limit 1
echo "temporal    $TEMPORAL_TARGET ($NUM_HISTORY_SHARDS history shards, namespace $NAMESPACE)"

if [[ ${CLUSTER_UI:-1} != 0 ]] && ! alive ui && [[ -n ${TOOL[temporal-ui-server]:-} ]]; then
  # the UI release's own template, as the temporalio/ui image renders it
  mkdir -p "$CLUSTER_DIR/ui/config"
  cp "${TOOL[temporal-ui-server-source]}/config/docker.yaml" "$CLUSTER_DIR/ui/config/docker.yaml"
  chmod u+w "$CLUSTER_DIR/ui/config/docker.yaml"
  # the UI shows every tenant's payloads: it listens on loopback only (its template binds all)
  printf 'host: 127.0.0.1\n' >>"$CLUSTER_DIR/ui/config/docker.yaml"
  TEMPORAL_ADDRESS=$TEMPORAL_TARGET TEMPORAL_UI_PORT=$UI_PORT \
    TEMPORAL_CORS_ORIGINS=${TEMPORAL_CORS_ORIGINS:-http://127.0.0.1:$UI_PORT,http://localhost:$UI_PORT} \
    launch ui "${TOOL[temporal-ui-server]}" --root "$CLUSTER_DIR/ui" --config config --env docker start
fi
if [[ ${CLUSTER_UI:-1} != 0 ]]; then
  await ui "serving" curl -sf "http://127.0.0.1:$UI_PORT/"
  echo "temporal UI http://127.0.0.1:$UI_PORT"
fi

# --- api-servers and workflow-workers -----------------------------------------------------------
if [[ -z ${CRM_SECRETS_KEY:-} && -z ${CRM_SECRETS_KEY_FILE:-} ]]; then
  if [[ ! -f $CLUSTER_DIR/secrets.key ]]; then
    (umask 077 && head -c 32 /dev/urandom | base64 > "$CLUSTER_DIR/secrets.key")
  fi
  export CRM_SECRETS_KEY_FILE="$CLUSTER_DIR/secrets.key"
fi
export SPRING_TEMPORAL_CONNECTION_TARGET=$TEMPORAL_TARGET TEMPORAL_ADDRESS=$TEMPORAL_TARGET
# the console links each run to its workflow in this UI
[[ ${CLUSTER_UI:-1} != 0 ]] && export CRM_TEMPORAL_UI_URL=${CRM_TEMPORAL_UI_URL:-http://127.0.0.1:$UI_PORT}
export TEMPORAL_NAMESPACE=$NAMESPACE SPRING_TEMPORAL_NAMESPACE=$NAMESPACE
for i in "${!API_PORTS[@]}"; do
  part=api-$((i + 1))
  alive "$part" && continue
  mkdir -p "$CLUSTER_DIR/$part"
  SPRING_PROFILES_ACTIVE=distributed \
    SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/crm" \
    SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD=$PG_PASSWORD \
    launch "$part" "$JAVA" ${CLUSTER_API_JAVA_OPTS:--Xmx512m} -jar "$API_JAR" \
    --server.port="${API_PORTS[$i]}" --crm.data-dir="$CLUSTER_DIR/$part"
done
for n in $(seq 1 "$WORKERS"); do
  part=worker-$n
  alive "$part" && continue
  # its start line is how start.sh knows it polls, whatever LOGGING_LEVEL_ROOT says
  launch "$part" "$JAVA" ${CLUSTER_WORKER_JAVA_OPTS:--Xmx384m} -Dcrmflow.cluster.part="$CLUSTER_DIR/$part" \
    -jar "$WORKER_JAR" --logging.level.com.crmflow.worker.WorkflowWorkerApplication=info
done
for i in "${!API_PORTS[@]}"; do
  await "api-$((i + 1))" "ready" curl -sf "http://127.0.0.1:${API_PORTS[$i]}/actuator/health/readiness"
  echo "api-$((i + 1))       http://127.0.0.1:${API_PORTS[$i]}"
done
for n in $(seq 1 "$WORKERS"); do
  await "worker-$n" "polling" grep -q "Started WorkflowWorkerApplication" "$(log_of "worker-$n")"
  echo "worker-$n    polling $TEMPORAL_TARGET"
done
echo "logs in $CLUSTER_DIR/logs; stop with deploy/cluster/stop.sh"
