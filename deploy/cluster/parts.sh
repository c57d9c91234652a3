# The parts of the cluster shape and their pid files, for start.sh and stop.sh (sourced).
# A part is running when its pid file names a live process whose command line names this
# CLUSTER_DIR: a pid reused by an unrelated process is never taken for a part, nor stopped.
CLUSTER_DIR=$(realpath -m "${CLUSTER_DIR:-$ROOT/data/cluster}")

pid_file() { echo "$CLUSTER_DIR/$1.pid"; }
log_of() { echo "$CLUSTER_DIR/logs/$1.log"; }

# the pid of a running part, or nothing
pid_of() {
  local file pid
  file=$(pid_file "$1")
  [[ -f $file ]] || return 1
  pid=$(cat "$file")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2> /dev/null || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | grep -qF -- "$CLUSTER_DIR/" || return 1
  echo "$pid"
}

alive() { pid_of "$1" > /dev/null; }
