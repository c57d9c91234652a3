# The cluster shape for the benches (sourced by cluster-bench.sh, waiting-bench.sh and
# move-bench.sh): a new cluster of deploy/cluster/start.sh on free ports, and how to read its parts'
# CPU, and that of a service on the embedded defaults.

# ports free at once, below 32768 (Temporal keeps its members' ports in a PostgreSQL smallint)
free_ports() { # count
  python3 - "$1" <<'PY'
import random, socket, sys
socks = []
while len(socks) < int(sys.argv[1]):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", random.randrange(10000, 32000)))
        socks.append(s)
    except OSError:
        s.close()
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

# exports the settings of a new cluster on free ports (its directory added to BENCH_DIRS, which
# the bench removes when it ends)
new_cluster() { # shards
  local ports
  read -r -a ports <<< "$(free_ports 13)"
  export CLUSTER_DIR
  CLUSTER_DIR=$(mktemp -d)
  BENCH_DIRS+=("$CLUSTER_DIR")
  export NUM_HISTORY_SHARDS=$1 CLUSTER_UI=0 CLUSTER_WORKERS=2
  export CLUSTER_API_PORTS="${ports[0]} ${ports[1]}" CLUSTER_PG_PORT=${ports[2]}
  export FRONTEND_GRPC_PORT=${ports[3]} FRONTEND_HTTP_PORT=${ports[4]} HISTORY_GRPC_PORT=${ports[5]}
  export MATCHING_GRPC_PORT=${ports[6]} WORKER_GRPC_PORT=${ports[7]}
  export FRONTEND_MEMBERSHIP_PORT=${ports[8]} HISTORY_MEMBERSHIP_PORT=${ports[9]}
  export MATCHING_MEMBERSHIP_PORT=${ports[10]} WORKER_MEMBERSHIP_PORT=${ports[11]}
  export CRM_ADMIN_TOKEN=bench-admin-token CRM_HTTP_ALLOW_PRIVATE_ADDRESSES=true
  export LOGGING_LEVEL_ROOT=WARN
  # the fairness bench measures the tenants' quotas and shares; the flows measure the runs alone
  if [[ -z ${FAIRNESS:-} ]]; then
    export CRM_RATE_LIMIT_ENABLED=false CRM_TRIGGER_QUOTA_ENABLED=false
  fi
  export CLUSTER_API_JAVA_OPTS=${CLUSTER_API_JAVA_OPTS:--Xmx1g}
  if [[ -n ${PG_STATEMENTS:-} ]]; then
    export CLUSTER_PG_OPTS="${CLUSTER_PG_OPTS:-} -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
  fi
}

# stops and removes every cluster new_cluster made
remove_clusters() {
  local dir
  for dir in "${BENCH_DIRS[@]}"; do
    CLUSTER_DIR=$dir deploy/cluster/stop.sh > /dev/null 2>&1 || true
    rm -rf "$dir"
  done
}

# psql on the cluster's PostgreSQL
cluster_sql() { # database, sql
  PGPASSWORD=$(cat "$CLUSTER_DIR/postgres-password") psql -h 127.0.0.1 -p "${CLUSTER_PG_PORT:-55432}" \
    -U postgres -d "$1" -tAq -c "$2"
}
pid_of() { cat "$CLUSTER_DIR/$1.pid"; }
ticks_of() { # pids...: user + system ticks
  local total=0 pid
  for pid in "$@"; do
    [[ -n $pid ]] || continue # a process stopped (its pid file gone): /proc//stat is /proc/stat
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2> /dev/null || echo 0)))
  done
  echo $total
}
# user + system ticks of a PostgreSQL: its postmaster, its children, and the children that ended
# (a backend, an autovacuum worker: the postmaster's cutime and cstime), so that a child ending
# between two readings keeps its CPU in the difference
postgres_ticks() { # postmaster pid
  local reaped
  reaped=$(awk '{print $16 + $17}' "/proc/$1/stat" 2> /dev/null || echo 0)
  # shellcheck disable=SC2046
  echo $(($(ticks_of "$1" $(pgrep -P "$1" || true)) + reaped))
}
# CPU ticks of the api-servers, the workers, the Temporal server and PostgreSQL (all its processes)
cpu_ticks() { # workers
  local apis=0 workers=0 n
  for n in 1 2; do apis=$((apis + $(ticks_of "$(pid_of api-$n)"))); done
  for n in $(seq 1 "$1"); do
    [[ -f $CLUSTER_DIR/worker-$n.pid ]] || continue # stopped for a measurement of fewer workers
    workers=$((workers + $(ticks_of "$(pid_of worker-$n)")))
  done
  echo "$apis $workers $(ticks_of "$(pid_of temporal)") $(postgres_ticks "$(pid_of postgres)")"
}
# CPU ticks of a service on the embedded defaults, its Temporal dev server and its PostgreSQL
embedded_cpu_ticks() { # service pid, data dir, PostgreSQL port
  local temporal postmaster
  temporal=$(pgrep -f "start-dev.*$2/temporal/temporal.db" | head -1)
  postmaster=$(pgrep -f -- "postgres -D .* -p $3( |\$)" | head -1)
  echo "$(ticks_of "$1") $(ticks_of "$temporal") $(postgres_ticks "$postmaster")"
}
