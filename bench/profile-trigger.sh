#!/usr/bin/env bash
# CPU profile of the service under the trigger benchmark (docs/benchmarks.md).
#   [FLOWS=a] [PREWARM=0] [AFTER_UP=0] [JAVA=java] bench/profile-trigger.sh [N] [START_AFTER_S] [DURATION_S]
# Runs FLOWS=a (or b) bench/trigger-bench.sh N 32, attaches async-profiler (tools.profiler:async-profiler
# from Maven Central) START_AFTER_S seconds in, profiles DURATION_S seconds of steady state and
# prints the share of the service's CPU per part. Raw stacks: target/trigger-profile.txt; their
# flame graph (bench/flamegraph.py): target/trigger-profile.svg, and without the JIT compiler's
# threads: target/trigger-profile-nojit.svg. BENCH_SERVICE=floor profiles the floor of flow A instead
# (bench/TemporalFloorService.java; see trigger-bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-8000}
START=${2:-50}
DURATION=${3:-40}
JAVA=${JAVA:-java}
PROFILER=target/async-profiler
OUT=$PWD/target/trigger-profile.txt
mkdir -p target
if [[ ! -f $PROFILER/linux-x64/libasyncProfiler.so ]]; then
  ./mvnw -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64 \
    -DoutputDirectory=$PROFILER
  (cd $PROFILER && unzip -o -q async-profiler-4.1-linux-x64.jar)
fi
LIB=$PWD/$PROFILER/linux-x64/libasyncProfiler.so
# without JFR: on this machine's JDK 17 (17.0.15, Debian) the attached profiler crashed the service
# within seconds, in JfrObjectAllocationSample::send_event
BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx2g} -XX:-FlightRecorder" FLOWS=${FLOWS:-a} \
  bench/trigger-bench.sh "$N" 32 > target/trigger-profile-bench.log 2>&1 &
BENCH=$!
# AFTER_UP=1: START_AFTER_S counts from the harness firing its N triggers (its ": firing N
# triggers" line, once the service answers and the harness has started), not from the launch, so
# that a start or a harness slowed by other work on the machine does not put the profile on an idle
# service (JIT and Spring, no workflow task)
if [[ ${AFTER_UP:-0} == 1 ]]; then
  for _ in $(seq 1 1200); do
    grep -q ": firing $N triggers" target/trigger-profile-bench.log 2>/dev/null && break
    kill -0 $BENCH 2>/dev/null || break
    sleep 0.5
  done
fi
sleep "$START"
if [[ ${BENCH_SERVICE:-service} == floor ]]; then
  PID=$(pgrep -f "(^|/)java .*TemporalFloorService\.java \S+ \S+ ${PORT:-8090} " | head -1)
  WHOSE="the floor's"
else
  PID=$(pgrep -f "(^|/)java .*-jar .* --server.port=${PORT:-8090}" | head -1)
  WHOSE="the service's"
fi
# the attach is sometimes refused ("No such process") while the JVM is busy: try again
for attempt in 1 2 3 4 5; do
  "$JAVA" bench/ProfilerAttach.java "$PID" "$LIB" "start,event=itimer,interval=2ms" && break
  sleep 1
done
sleep "$DURATION"
for attempt in 1 2 3 4 5; do
  "$JAVA" bench/ProfilerAttach.java "$PID" "$LIB" "stop,file=$OUT,collapsed" && break
  sleep 1
done
wait $BENCH
grep RESULT target/trigger-profile-bench.log
python3 - "$OUT" <<'PY'
import collections, re, sys
# first matching part wins, in this order
parts = [
    ("JIT compiler", r"CompileBroker"),
    ("GC", r"G1|GCTaskThread|ConcurrentGCThread|WorkerThread::run"),
    ("starting workflows: client side", r"RunStarter\.start"),
    ("trigger: SQL, JSON, the run row", r"TriggerController\.trigger"),
    ("trigger: Tomcat and Spring MVC", r"Http11Processor\.service"),
    ("run recording: SQL", r"RunRecorderActivitiesImpl"),
    ("http_request: the outbound call", r"HttpRequestActivitiesImpl"),
    ("local-activity machinery of the SDK", r"LocalActivityWorker"),
    ("workflow tasks: interpreter and SDK", r"WorkflowWorker\$TaskHandlerImpl|WorkflowThreadImpl|DeterministicRunner|WorkflowThreadContext"),
    ("gRPC to the Temporal server (Netty, protobuf)", r"io/grpc|io/netty|com/google/protobuf"),
]
shares, total = collections.Counter(), 0
for line in open(sys.argv[1]):
    stack, _, n = line.rstrip().rpartition(" ")
    total += int(n)
    name = next((name for name, pattern in parts if re.search(pattern, stack)), "other")
    shares[name] += int(n)
for name, n in shares.most_common():
    print(f"{100 * n / total:5.1f}%  {name}")
PY
python3 bench/flamegraph.py "$OUT" target/trigger-profile.svg "flow ${FLOWS:-a}: $WHOSE CPU"
python3 bench/flamegraph.py "$OUT" target/trigger-profile-nojit.svg \
  "flow ${FLOWS:-a}: $WHOSE CPU, without the JIT compiler" --exclude CompileBroker
echo "flame graphs: target/trigger-profile.svg, target/trigger-profile-nojit.svg"
