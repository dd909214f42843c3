# Malformed inputs to show, compare and --resume: one line on stderr naming the file (and the JSON
# path when there is one), exit code 2, never a crash.
source "$(dirname "$0")/lib.sh"
"$GPUSIZER" run --tiny --no-progress --filter stream_triad -o good.json > /dev/null 2>&1 || fail "good run"

expect_error() {  # expect_error "<substring of the message>" gpusizer args...
  local want=$1; shift
  set +e
  "$GPUSIZER" "$@" > out.txt 2> err.txt
  local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$* exited $rc, expected 2 (stderr: $(cat err.txt))"
  [ "$(wc -l < err.txt)" = 1 ] || fail "$*: expected one line on stderr, got: $(cat err.txt)"
  grep -qF -- "$want" err.txt || fail "$*: message lacks '$want': $(cat err.txt)"
}

echo '{"schema_version": 1, "kind": "gpusizer.report"' > truncated.json
printf '' > empty.json
echo '[1,2,3]' > array.json
/usr/bin/python3 - <<'PY'
import json
good = json.load(open("good.json"))
def write(name, mutate):
    doc = json.loads(json.dumps(good)); mutate(doc); json.dump(doc, open(name, "w"))
write("version.json", lambda d: d.__setitem__("schema_version", 99))
write("negative.json", lambda d: d["records"][0]["metrics"][0].__setitem__("value", -1.0))
write("wrongtype.json", lambda d: d["host"].__setitem__("logical_cpus", "many"))
write("missing.json", lambda d: d.pop("records"))
write("unknown.json", lambda d: d.__setitem__("colour", "blue"))
write("status.json", lambda d: d["records"][0].__setitem__("status", "great"))
PY
for cmd in show "compare good.json"; do
  expect_error "nope.json: no such file" $cmd nope.json
  expect_error "truncated.json: not valid JSON" $cmd truncated.json
  expect_error "empty.json: empty file" $cmd empty.json
  expect_error "array.json: /: expected a gpusizer report" $cmd array.json
  expect_error "version.json: /schema_version: unsupported report schema_version 99" $cmd version.json
  expect_error "negative.json: /records/0/metrics/0/value: expected a non-negative number" $cmd negative.json
  expect_error "wrongtype.json: /host/logical_cpus: expected a non-negative integer" $cmd wrongtype.json
  expect_error "missing.json: /records: missing required field" $cmd missing.json
  expect_error "unknown.json: /colour: unknown field" $cmd unknown.json
  expect_error "status.json: /records/0/status: expected one of" $cmd status.json
done
expect_error "truncated.json: not valid JSON" run --tiny --resume truncated.json
expect_error "negative.json: /records/0/metrics/0/value" run --tiny --resume negative.json
expect_error "nope.json: no such file (--resume)" run --tiny --resume nope.json
expect_error "--suite: expected quick, standard or full" run --suite huge -o x.json
expect_error "--time-budget: expected a duration" run --time-budget soon -o x.json
expect_error "--deadline: expected a UTC time" run --deadline tomorrow -o x.json
expect_error "--format: expected table, md, csv, json or html" show good.json --format xml
expect_error "unknown option \"--bogus\"" run --tiny --bogus -o x.json
expect_error "compare: give at least two reports" compare good.json
# Nothing to measure (--no-cpu --no-gpu): exit 1 with one line saying so, never a quiet success;
# the (empty) report is still written.
set +e
"$GPUSIZER" run --tiny --no-cpu --no-gpu --no-progress -o nothing.json > out.txt 2> err.txt
rc=$?
set -e
[ "$rc" = 4 ] || fail "run with no target exited $rc, expected 4 (empty) (stderr: $(cat err.txt))"
grep -q "^gpusizer: nothing was measured (no target: the CPU was skipped with --no-cpu; GPUs were skipped with --no-gpu" err.txt \
  || fail "no 'nothing was measured' line: $(cat err.txt)"
[ -s nothing.json ] || fail "the report of a run with no target was not written"
# The failed loads must not have touched the input files.
cmp -s truncated.json <(echo '{"schema_version": 1, "kind": "gpusizer.report"') || fail "input modified"
echo "bad_input: ok"
