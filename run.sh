#!/usr/bin/env bash
# Runs the service on embedded defaults on port 8080: PostgreSQL and the Temporal CLI's dev server
# (gRPC 7233, UI 8233) as child processes with their data under ./data, the worker in the same
# JVM. Builds first when the jar is missing or older than the sources. The service finds the
# temporal CLI (TEMPORAL_CLI, PATH, ~/.cache/crmflow) or builds it once with `go install`, showing
# its progress. Extra arguments go to the application, e.g. --server.port=9090.
set -euo pipefail
cd "$(dirname "$0")"
# the packaged jar as the build extracts it (target/app: the application's jar and its lib/)
find_jar() { ls api-server/target/app/api-server-*.jar 2>/dev/null | head -1 || true; }
jar=$(find_jar)
if [[ -z "$jar" ]] || [[ -n "$(find pom.xml ./*/pom.xml ./*/src -newer "$jar" -print -quit)" ]]; then
  ./mvnw -q -B -DskipTests package
  jar=$(find_jar)
fi
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
