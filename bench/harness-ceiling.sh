#!/usr/bin/env bash
# The trigger benchmark's ceiling on this machine: bench/TriggerBench.java against
# bench/NoopTriggerService.java (answers 200 and posts the body to the sink; no database, no
# workflow).  [WARMUP=2000] [JAVA=java] bench/harness-ceiling.sh [N] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
C=${2:-32}
HARNESS=${HARNESS:-bench/TriggerBench.java}
JAVA=${JAVA:-java}
"$JAVA" bench/NoopTriggerService.java 8092 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null || true' EXIT
for _ in $(seq 1 30); do curl -s -o /dev/null -X POST localhost:8092/trigger -d '{}' && break; sleep 1; done
"$JAVA" "$HARNESS" --url http://127.0.0.1:8092/trigger --n "$N" --concurrency "$C" --warmup "${WARMUP:-2000}" \
  --label noop 2>&1 | grep RESULT
