# The tool lookup of the api-server jar (GoTool/ToolLookup) for scripts, sourced by
# deploy/cluster/start.sh and bench/waiting-bench.sh: `tools NAME...` prints each tool's path
# (temporal, temporal-server, temporal-sql-tool, temporal-ui-server, postgres), building it first if
# need be, with its progress on stderr. Needs API_JAR (the packaged jar, or the plain one with its
# lib/ beside it) and JAVA.
tools() {
  if [[ -d $(dirname "$API_JAR")/lib ]]; then # extracted: a plain jar with its lib/ beside it
    "$JAVA" -cp "$API_JAR" com.crmflow.api.embedded.ToolLookup "$@"
  else # the packaged jar, through Spring Boot's launcher
    "$JAVA" -cp "$API_JAR" -Dloader.main=com.crmflow.api.embedded.ToolLookup \
      org.springframework.boot.loader.launch.PropertiesLauncher "$@"
  fi
}
