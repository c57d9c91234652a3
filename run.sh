#!/usr/bin/env bash
# Runs the service on embedded defaults (embedded PostgreSQL under ./data, embedded Temporal
# test server on 7233, in-process worker) on port 8080. Builds first when the jar is missing or
# older than the sources. Extra arguments go to the application, e.g. --server.port=9090.
set -euo pipefail
cd "$(dirname "$0")"
find_jar() { ls api-server/target/api-server-*.jar 2>/dev/null | grep -v '\.original$' | head -1 || true; }
jar=$(find_jar)
if [[ -z "$jar" ]] || [[ -n "$(find pom.xml ./*/pom.xml ./*/src -newer "$jar" -print -quit)" ]]; then
  ./mvnw -q -B -DskipTests package
  jar=$(find_jar)
fi
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
