#!/usr/bin/env bash
# Stops the parts of the cluster that deploy/cluster/start.sh started in CLUSTER_DIR (default
# ./data/cluster): each gracefully (SIGTERM; PostgreSQL SIGINT, its fast shutdown), by force
# (SIGKILL) after CLUSTER_STOP_TIMEOUT seconds (default 30). Only the processes named by the pid
# files there are signalled.
#   deploy/cluster/stop.sh                 every part: the api-servers and workers, then the UI and
#                                          Temporal, then PostgreSQL
#   deploy/cluster/stop.sh temporal ...    only those parts (postgres, temporal, ui, api-1, worker-2)
# start.sh then starts again whatever is not running.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=deploy/cluster/parts.sh
. "$(dirname "$0")/parts.sh"
TIMEOUT=${CLUSTER_STOP_TIMEOUT:-30}

# stops the given parts together: a signal to each, then waits for all
stop_parts() {
  local part pid pids=() names=()
  for part in "$@"; do
    pid=$(pid_of "$part") || { rm -f "$(pid_file "$part")"; continue; }
    if [[ $part == postgres ]]; then kill -INT "$pid"; else kill -TERM "$pid"; fi
    pids+=("$pid")
    names+=("$part")
  done
  local deadline=$((SECONDS + TIMEOUT)) i
  for i in "${!pids[@]}"; do
    while kill -0 "${pids[$i]}" 2> /dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "${pids[$i]}" 2> /dev/null; then
      echo "${names[$i]} (pid ${pids[$i]}) still running after ${TIMEOUT} s: killing it"
      kill -KILL "${pids[$i]}" 2> /dev/null || true
      while kill -0 "${pids[$i]}" 2> /dev/null; do sleep 0.1; done
    fi
    rm -f "$(pid_file "${names[$i]}")"
    echo "stopped ${names[$i]}"
  done
}

if [[ $# -gt 0 ]]; then
  stop_parts "$@"
  exit 0
fi
apps=()
for file in "$CLUSTER_DIR"/api-*.pid "$CLUSTER_DIR"/worker-*.pid; do
  [[ -e $file ]] && apps+=("$(basename "$file" .pid)")
done
((${#apps[@]})) && stop_parts "${apps[@]}"
stop_parts ui temporal
stop_parts postgres
