#!/usr/bin/env bash
# Prints the path of the OpenTelemetry Collector that deploy/tracing/otelcol-builder.yaml
# describes, building it first when the tool cache has none: the OpenTelemetry Collector Builder
# (go install, from the Go module proxy) generates the collector's sources and compiles them into
# ${XDG_CACHE_HOME:-~/.cache}/crmflow/otelcol-crmflow-<release>/otelcol-crmflow, once per
# machine (a file lock makes a second caller wait for the first one's build). Progress goes to
# stderr; stdout carries only the path. Needs Go 1.25+ on PATH.
#   deploy/tracing/otelcol.sh           → /root/.cache/crmflow/otelcol-crmflow-v0.148.0/otelcol-crmflow
# Run it with: OTLP_HTTP_ENDPOINT=127.0.0.1:4318 ZIPKIN_SPANS_URL=http://127.0.0.1:9411/api/v2/spans \
#   "$(deploy/tracing/otelcol.sh)" --config=deploy/tracing/otelcol.yaml
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/otelcol-builder.yaml
release=$(grep -o 'otlpreceiver v[0-9.]*' "$manifest" | awk '{ print $2 }')
cache=${XDG_CACHE_HOME:-$HOME/.cache}/crmflow/otelcol-crmflow-$release
binary=$cache/otelcol-crmflow
say() { echo "[otelcol] $*" >&2; }
if [[ -x $binary ]]; then
  echo "$binary"
  exit 0
fi
if ! command -v go > /dev/null; then
  say "no collector in $cache and no go on PATH to build one: install Go 1.25+ (https://go.dev/doc/install" \
    "or Debian's golang package), then run deploy/tracing/otelcol.sh again"
  exit 2
fi
mkdir -p "$cache"
exec 9> "$cache/build.lock"
if ! flock -n 9; then
  say "another process is building the collector; waiting ..."
  flock 9
fi
if [[ -x $binary ]]; then # built while this one waited
  echo "$binary"
  exit 0
fi
staging=$(mktemp -d "$cache/build-XXXXXX")
trap 'rm -rf "$staging"' EXIT
say "none in $cache; building it once (go install go.opentelemetry.io/collector/cmd/builder@$release," \
  "then the builder compiles the collector). This takes a few minutes."
GOBIN=$staging/bin go install -v "go.opentelemetry.io/collector/cmd/builder@$release" 2>&1 \
  | awk '/ / { print "[otelcol] " $0; fflush(); next } { n++ } END { print "[otelcol] builder: compiled " n+0 " packages" }' >&2
cp "$manifest" "$staging/manifest.yaml"
# GOFLAGS=-v: the go commands the builder runs name each package they compile
(cd "$staging" && GOFLAGS="${GOFLAGS:-} -v" "$staging/bin/builder" --config manifest.yaml --verbose 2>&1) \
  | awk '/ / { print "[otelcol] " $0; fflush(); next }
         { if (++n % 100 == 0) { print "[otelcol] compiled " n " packages ..."; fflush() } }' >&2
if [[ ! -x $staging/dist/otelcol-crmflow ]]; then
  say "the build failed; see the lines above (is the Go module proxy reachable? go env GOPROXY)"
  exit 1
fi
mv -f "$staging/dist/otelcol-crmflow" "$binary"
say "built $binary"
echo "$binary"
