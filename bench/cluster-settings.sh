#!/usr/bin/env bash
# What each of Temporal's and PostgreSQL's settings does to the warm cluster's cost per run, one
# setting at a time (docs/benchmarks.md, "The cluster's settings, one at a time").
#   [VARIANTS=bench/cluster-settings.variants] [ONLY="baseline partitions-1"] [PREWARM=3000]
#   [FLOWS=a] bench/cluster-settings.sh [N] [CONCURRENCY]
# For each variant (a line of the VARIANTS file: a name, then the environment it sets, DYN= for
# dynamic config keys of the Temporal server), a new cluster with 4 history shards and two
# workers, warmed by PREWARM unmeasured triggers of each flow, then N measured ones, through
# bench/cluster-bench.sh with PG_STATEMENTS=1 and JIT_CURVE=10 (its windows show whether the JVMs
# were warm). It prints cluster-bench.sh's lines with the variant's name, then one table: per
# variant, completed runs a second, end-to-end p50 / p99, the CPU per completed run of each kind of
# process (api-servers, workers, Temporal, PostgreSQL) and in all, and the statements per run of
# each database. Run it on a machine with nothing else running: each variant takes a few minutes.
# CLUSTER_DIR set: every variant runs on that running cluster (cluster-bench.sh's CLUSTER_DIR),
# which no variant's settings can change, so its VARIANTS file names settings-free lines only: the
# smoke run of ClusterShapeIT, `baseline` alone, with PG_STATEMENTS= (empty: no statement counts,
# which need the cluster's PostgreSQL started with pg_stat_statements).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-3000}
C=${2:-32}
VARIANTS=${VARIANTS:-bench/cluster-settings.variants}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

while read -r name settings; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]]; then continue; fi
  env_args=()
  dyn=
  for setting in $settings; do
    case $setting in
      DYN=*) dyn=${setting#DYN=} ;;
      *) env_args+=("$setting") ;;
    esac
  done
  if [[ -n $dyn ]]; then
    cp deploy/temporal/development-sql.yaml "$OUT/$name.yaml"
    IFS=';' read -r -a keys <<< "$dyn"
    for pair in "${keys[@]}"; do
      # a key the base file sets is replaced (a YAML mapping takes no key twice)
      awk -v key="${pair%%=*}:" 'skip && /^[^ ]/ { skip = 0 } $0 == key { skip = 1 } !skip' \
        "$OUT/$name.yaml" > "$OUT/$name.yaml.new"
      mv "$OUT/$name.yaml.new" "$OUT/$name.yaml"
      printf '%s:\n  - value: %s\n    constraints: {}\n' "${pair%%=*}" "${pair#*=}" >> "$OUT/$name.yaml"
    done
    env_args+=("TEMPORAL_DYNAMIC_CONFIG=$OUT/$name.yaml")
  fi
  echo "=== $name: ${settings:-the defaults}"
  # "-c_name=value" in the variants file stands for "-c name=value" (one word a setting there)
  for i in "${!env_args[@]}"; do env_args[$i]=${env_args[$i]//-c_/-c }; done
  env "${env_args[@]}" PG_STATEMENTS=${PG_STATEMENTS-1} JIT_CURVE=${JIT_CURVE:-10} PREWARM=${PREWARM:-3000} \
    SHARDS=4 WORKERS=2 FLOWS=${FLOWS:-a} DEV_SERVER=0 WARMUP=0 bench/cluster-bench.sh "$N" "$C" 2>&1 \
    | sed -E "s/cluster-s4-w2-flow-/$name-flow-/g" | tee "$OUT/$name.log" \
    || echo "=== $name did not run to its end: the lines above say why; the next variant follows"
done < "$VARIANTS"

echo "one setting at a time (N=$N, CONCURRENCY=$C, PREWARM=${PREWARM:-3000}):"
python3 - "$OUT" <<'PY'
import glob, os, re, sys
print("| variant | completed/s | end-to-end p50 / p99 | CPU per run: api-servers / workers / temporal / postgres | all | statements per run |")
print("|---|---|---|---|---|---|")
for log in sorted(glob.glob(os.path.join(sys.argv[1], "*.log")), key=os.path.getmtime):
    text = open(log).read()
    for m in re.finditer(r"RESULT label=(\S+) (.*)", text):
        label = m.group(1)
        if label.startswith("prewarm"):
            continue
        r = dict(kv.split("=", 1) for kv in m.group(2).split())
        cpu = re.search(r"CPU " + re.escape(label) + r" per completed run: (.*)", text)
        kinds = dict((k.strip(), v) for k, v in re.findall(r"([a-z -]+?) ([0-9.]+) ms", cpu.group(1))) if cpu else {}
        st = re.search(r"STATEMENTS " + re.escape(label) + r" per completed run: (.*)", text)
        print(f"| {label} | {r.get('throughput_per_s')} | {r.get('e2e_p50_ms')} / {r.get('e2e_p99_ms')} ms | "
              + " / ".join(kinds.get(k, "?") for k in ["api-servers", "workers", "temporal", "postgres"])
              + f" ms | {kinds.get('all', '?')} ms | {st.group(1) if st else 'n/a'} |")
PY
