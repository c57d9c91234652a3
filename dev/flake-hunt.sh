#!/usr/bin/env bash
# Hunts flaky tests on a busy machine: runs the tests that drive a browser or start processes again
# and again with a CPU hog beside them, and/or the whole `./mvnw verify` from fresh clones, and
# counts each test class's failures. Not part of `verify`; docs/development.md ("Hunting flaky
# tests") says when to use it and what it found.
#
#   dev/flake-hunt.sh [--rounds N] [--hog WORKERS] [--tests PATTERN] [--its PATTERN] [--verifies N]
#
#   --rounds N     rounds of the browser and process-level tests (default 10; 0 for none)
#   --hog W        stress-ng CPU workers beside every round (default 2, one per core; 0 for none)
#   --tests P      the surefire classes of a round (default: the console's browser tests and the
#                  tests that start the service, the worker or the Temporal server as processes)
#   --its P        the failsafe classes of a round (default: every *IT)
#   --verifies N   then `./mvnw verify` N times, each from a fresh clone of HEAD, with the hog
#                  (default 0)
#
# Results go to target/flake-hunt/<start time>/: results.tsv (round, class, tests, failures,
# errors, skipped, seconds), each round's log and reports, and summary.txt (per class: rounds,
# rounds failed). Exit status 1 when any round failed.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

rounds=10
hog=2
tests='Console*Test,EmbeddedRestartTest,RestartAndBootstrapTest,SeparateWorkerProcessTest,NodeTypeOnSeparateWorkerTest,EventDispatchOutageTest'
its='*IT'
verifies=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --hog) hog=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --its) its=$2; shift 2 ;;
    --verifies) verifies=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

out="$top/target/flake-hunt/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
printf 'round\tclass\ttests\tfailures\terrors\tskipped\tseconds\n' > "$out/results.tsv"

if [ "$hog" -gt 0 ] && ! command -v stress-ng >/dev/null; then
  echo "== installing stress-ng (Debian's package)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update && apt-get install -y stress-ng
  else
    sudo apt-get update && sudo apt-get install -y stress-ng
  fi
fi

hog_pid=
start_hog() {
  if [ "$hog" -gt 0 ]; then
    stress-ng --cpu "$hog" --cpu-method matrixprod --quiet &
    hog_pid=$!
  fi
}
stop_hog() {
  if [ -n "$hog_pid" ]; then
    kill "$hog_pid" 2>/dev/null || true
    wait "$hog_pid" 2>/dev/null || true
    hog_pid=
  fi
}
trap stop_hog EXIT

# One line per test class of the reports under $2, tagged with round $1.
collect() {
  local round=$1 reports=$2
  python3 - "$round" "$reports" >> "$out/results.tsv" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
round_, reports = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(reports + "/**/TEST-*.xml", recursive=True)):
    s = ET.parse(path).getroot()
    print("\t".join([round_, s.get("name"), s.get("tests"), s.get("failures"),
                     s.get("errors"), s.get("skipped"), s.get("time")]))
PY
}

failed_rounds=0

if [ "$rounds" -gt 0 ]; then
  echo "== building once (no tests): the jars the process-level tests start"
  ./mvnw -B -q install -DskipTests > "$out/build.log" 2>&1 || {
    echo "the build failed: $out/build.log" >&2
    exit 1
  }
fi

for round in $(seq 1 "$rounds"); do
  echo "== round $round of $rounds: $tests and $its, with $hog CPU hog worker(s)"
  rm -rf api-server/target/surefire-reports api-server/target/failsafe-reports
  start_hog
  set +e
  # failures do not stop the round before its ITs: every class runs in every round; online, as the
  # build above skipped the tests and so left their providers undownloaded on a new machine
  ./mvnw -B verify -pl api-server -Dspotless.check.skip=true -Dmaven.test.failure.ignore=true \
    -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false -Dit.test="$its" \
    > "$out/round-$round.log" 2>&1
  status=$?
  set -e
  stop_hog
  mkdir -p "$out/round-$round"
  cp -r api-server/target/surefire-reports api-server/target/failsafe-reports "$out/round-$round/" \
    2>/dev/null || true
  cp api-server/target/console/*failure*.png "$out/round-$round/" 2>/dev/null || true
  collect "$round" "$out/round-$round"
  # the build goes on past a failed test: the round fails on its reports' failures and errors
  if [ $status -eq 0 ] && grep -q "^$round	.*	[0-9]*	\([1-9][0-9]*	[0-9]*\|[0-9]*	[1-9][0-9]*\)	[0-9]*	" "$out/results.tsv"; then
    status=1
  fi
  if [ $status -ne 0 ]; then
    failed_rounds=$((failed_rounds + 1))
    echo "   round $round FAILED (exit $status): $out/round-$round.log"
    grep -E 'Tests run:.*(Failures: [1-9]|Errors: [1-9])|<<< (FAILURE|ERROR)' "$out/round-$round.log" \
      | head -20 || true
  else
    echo "   round $round passed"
  fi
done

for run in $(seq 1 "$verifies"); do
  clone="$out/clone-$run"
  echo "== verify $run of $verifies from a fresh clone of HEAD ($clone), with $hog CPU hog worker(s)"
  git clone -q "$top" "$clone"
  start_hog
  set +e
  (cd "$clone" && ./mvnw -B verify) > "$out/verify-$run.log" 2>&1
  status=$?
  set -e
  stop_hog
  collect "verify-$run" "$clone"
  if [ $status -ne 0 ]; then
    failed_rounds=$((failed_rounds + 1))
    echo "   verify $run FAILED (exit $status): $out/verify-$run.log"
    grep -E 'Tests run:.*(Failures: [1-9]|Errors: [1-9])|<<< (FAILURE|ERROR)|BUILD FAILURE' \
      "$out/verify-$run.log" | head -20 || true
  else
    echo "   verify $run passed in $(grep -o 'Total time: .*' "$out/verify-$run.log")"
  fi
  # the clone's reports are kept in results.tsv; its build is not
  find "$clone" -name target -type d -prune -exec rm -rf {} +
done

python3 - "$out/results.tsv" > "$out/summary.txt" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
runs, failed = collections.Counter(), collections.Counter()
for r in rows:
    runs[r["class"]] += 1
    if int(r["failures"]) + int(r["errors"]) > 0:
        failed[r["class"]] += 1
print(f"{'class':<70} runs  failed")
for cls in sorted(runs):
    print(f"{cls:<70} {runs[cls]:>4}  {failed[cls]:>6}")
print(f"\n{len({r['round'] for r in rows})} rounds, {sum(failed.values())} class runs failed")
PY
cat "$out/summary.txt"
echo "results: $out"
[ "$failed_rounds" -eq 0 ]
