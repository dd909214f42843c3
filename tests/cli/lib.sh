# Shared helpers for the CLI smoke tests. Each test: bash X.sh <gpusizer binary> <source dir>.
set -euo pipefail
GPUSIZER=$1
SRC=$2
unset COLUMNS  # tables at their full width (terminal.hpp), whatever the caller's terminal
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }
validate() { /usr/bin/python3 "$SRC/scripts/validate_json.py" "$SRC/reports/schema/$1" "${@:2}"; }
# wait_for "<shell condition>" [tenths of a second, default 600]: polls until it holds.
wait_for() {
  local tries=${2:-600}
  for _ in $(seq 1 "$tries"); do
    eval "$1" && return 0
    sleep 0.1
  done
  return 1
}
# Runs gpusizer with stdout to out.txt and stderr to err.txt; sets rc (never fails the script).
run_rc() {
  set +e
  "$GPUSIZER" "$@" > out.txt 2> err.txt
  rc=$?
  set -e
}
# start_fake_imds <answers.json> [requests, default 4]: fake_imds.py in the background; sets
# imds_pid and imds_endpoint (for GPUSIZER_IMDS_ENDPOINT).
start_fake_imds() {
  rm -f imds.port
  /usr/bin/python3 "$SRC/tests/cli/fake_imds.py" "$1" imds.port "${2:-4}" &
  imds_pid=$!
  wait_for "[ -s imds.port ]" 100 || fail "the fake IMDS did not start"
  imds_endpoint=127.0.0.1:$(cat imds.port)
}
one_line() { [ "$(wc -l < "$1")" = 1 ] || fail "expected one line on stderr, got: $(cat "$1")"; }
# term_wait <pid>: SIGTERM, then wait for it; sets rc to its exit status.
term_wait() {
  kill -TERM "$1"
  set +e
  wait "$1"
  rc=$?
  set -e
}
