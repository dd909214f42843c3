# Every command that reads a file, fed every hostile input we know of (issue 10 §3): each must
# give exactly one line on stderr naming the file and exit 2, within a timeout (no hang), never a
# signal (no crash). Fixtures are generated here; nothing large is kept in the tree.
source "$(dirname "$0")/lib.sh"
export GPUSIZER_DATA_DIR=$SRC/data
cp "$SRC/reports/examples/cpu-amd-epyc-2vcpu-quick.json" good.json
cp "$SRC/examples/workloads/light-model.json" workload.json
cp "$SRC/examples/overlays/savings-plan-and-reserved.json" overlay.json

# --- fixtures ---------------------------------------------------------------------------------
printf '' > empty.json
echo '{"schema_version": 1, "kind": "gpusizer.rep' > truncated.json
echo '[1, 2, 3]' > array.json
echo '"just a string"' > string.json
echo 'null' > null.json
echo '{"a": NaN}' > nan.json
echo '{"a": 1e400}' > overflow.json
printf '{"a": "\xff\xfe"}' > bad-utf8.json
printf '{"a": "\x01\x1b[2J"}' > raw-control.json
mkdir directory.json
mkfifo fifo.json
ln -s /dev/zero zero-link.json
ln -s nowhere.json dangling.json
# Size: sparse files (no disk, no memory) above every limit except the Price List bulk file's.
truncate -s 200M big-sparse.json
/usr/bin/python3 - <<'PY'
import json
good = json.load(open("good.json"))
deep = "[" * 100000 + "]" * 100000
# A valid-looking report whose free-form field nests 100 000 levels (crashed show, compare and
# --resume with SIGSEGV).
text = json.dumps(good)
open("deep-report.json", "w").write(text.replace('"settings": {', '"settings": {"x": ' + deep + ', ', 1))
open("deep.json", "w").write('{"a": ' + deep + '}')
open("deep-objects.json", "w").write('{"a":' * 300 + '1' + '}' * 300)
PY
grep -q '"x": \[\[\[' deep-report.json || fail "deep-report.json fixture not built"

fixtures=(nope.json empty.json truncated.json array.json string.json null.json nan.json
  overflow.json bad-utf8.json raw-control.json directory.json fifo.json /dev/zero /dev/null
  zero-link.json dangling.json big-sparse.json deep-report.json deep.json deep-objects.json)

# --- the commands, each with one slot for the hostile file (@) --------------------------------
commands=(
  "show @"
  "show @ --format json"
  "compare good.json @"
  "compare @ good.json --format csv"
  "recommend --workload workload.json @"
  "recommend --workload @ good.json"
  "recommend --workload workload.json good.json --catalog @"
  "recommend --workload workload.json good.json --catalog-overlay @"
  "recommend --workload workload.json good.json --quotas @"
  "catalog --catalog @"
  "catalog --catalog-overlay @"
  "catalog import-aws @"
  "run --tiny --no-progress --no-gpu --resume @ -o resumed.json"
)

check() {  # check <command with @> <fixture>
  local cmd=${1//@/$2}
  set +e
  # shellcheck disable=SC2086
  timeout 30 "$GPUSIZER" $cmd > out.txt 2> err.txt
  local rc=$?
  set -e
  [ "$rc" != 124 ] || fail "gpusizer $cmd: hung (killed after 30 s)"
  [ "$rc" -lt 128 ] || fail "gpusizer $cmd: killed by signal $((rc - 128)) (stderr: $(head -c 600 err.txt))"
  [ "$rc" = 2 ] || fail "gpusizer $cmd: exit $rc, expected 2 (stderr: $(head -c 600 err.txt))"
  [ "$(wc -l < err.txt)" = 1 ] || fail "gpusizer $cmd: expected one line on stderr, got: $(head -c 600 err.txt)"
  grep -qF -- "$(basename "$2")" err.txt || fail "gpusizer $cmd: message does not name $2: $(cat err.txt)"
  [ ! -e resumed.json ] || fail "gpusizer $cmd: wrote a report from a refused resume"
}

n=0
for cmd in "${commands[@]}"; do
  for f in "${fixtures[@]}"; do
    check "$cmd" "$f"
    n=$((n + 1))
  done
done

# What the messages say for the kinds the issue names.
expect_line() {  # expect_line "<substring>" gpusizer args...
  local want=$1; shift
  set +e
  timeout 30 "$GPUSIZER" "$@" > out.txt 2> err.txt
  set -e
  grep -qF -- "$want" err.txt || fail "gpusizer $*: message lacks '$want': $(cat err.txt)"
}
expect_line "big-sparse.json: larger than the 64 MiB limit for a report (200 MiB)" show big-sparse.json
expect_line "big-sparse.json: larger than the 1 MiB limit for a workload (200 MiB)" recommend --workload big-sparse.json good.json
expect_line "big-sparse.json: larger than the 16 MiB limit for a catalog (200 MiB)" catalog --catalog big-sparse.json
expect_line "big-sparse.json: larger than the 16 MiB limit for a catalog overlay (200 MiB)" catalog --catalog-overlay big-sparse.json
expect_line "big-sparse.json: larger than the 64 MiB limit for AWS CLI output (200 MiB)" recommend --workload workload.json good.json --quotas big-sparse.json
# 200 MiB is within the Price List bulk file's limit: it is streamed, and NUL bytes are not JSON.
expect_line "big-sparse.json: not valid JSON" catalog import-aws big-sparse.json
expect_line "fifo.json: not a regular file (a FIFO), expected a report file" show fifo.json
expect_line "/dev/zero: not a regular file (a character device), expected a report file" compare good.json /dev/zero
expect_line "directory.json: not a regular file (a directory), expected a catalog file" catalog --catalog directory.json
expect_line "deep-report.json: JSON nested deeper than the limit of 256 levels" run --tiny --no-gpu --resume deep-report.json -o resumed.json
expect_line "deep-report.json: JSON nested deeper than the limit of 256 levels" recommend --workload workload.json deep-report.json

# Numeric flags: one line naming the flag, exit 2 (were "error: stoi", "error: vector::reserve").
flag_error() {  # flag_error "<substring>" gpusizer args...
  local want=$1; shift
  set +e
  timeout 30 "$GPUSIZER" "$@" > out.txt 2> err.txt
  local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "gpusizer $*: exit $rc, expected 2 (stderr: $(head -c 600 err.txt))"
  [ "$(wc -l < err.txt)" = 1 ] || fail "gpusizer $*: expected one line, got: $(head -c 600 err.txt)"
  grep -qF -- "$want" err.txt || fail "gpusizer $*: message lacks '$want': $(cat err.txt)"
  n=$((n + 1))
}
long=$(printf '9%.0s' $(seq 1 400))
flag_error "--gpus: expected a comma-separated list of GPU indices" run --tiny --gpus 99999999999999 -o x.json
flag_error "--gpus: expected a comma-separated list of GPU indices" run --tiny --gpus 0,-1 -o x.json
flag_error "--benchmark_repetitions: expected a whole number from 1 to 1000000000" run --tiny --benchmark_repetitions=-3 -o x.json
flag_error "--benchmark_repetitions: expected a whole number from 1 to 1000000000" run --tiny --benchmark_repetitions=99999999999 -o x.json
flag_error "--benchmark_min_time: expected a positive number of seconds" run --tiny --benchmark_min_time=inf -o x.json
flag_error "--benchmark_min_warmup_time: expected a non-negative number" run --tiny --benchmark_min_warmup_time=-1 -o x.json
flag_error "--time-budget: expected a duration" run --tiny --time-budget "${long}s" -o x.json
flag_error "--time-budget: expected a duration of at most 10 years" run --tiny --time-budget 999999h -o x.json
flag_error "--deadline: not a valid date and time" run --tiny --deadline 2026-02-30T10:00:00Z -o x.json
flag_error "--telemetry-period: expected a duration" run --tiny --telemetry-period "$long" -o x.json
flag_error "--interval: expected a duration" monitor --interval "${long}ms"
flag_error "--duration: expected a duration of at most 10 years" monitor --duration 999999h
flag_error "--max-instances" recommend --workload workload.json good.json --max-instances 99999999999999
flag_error "--max-price" catalog --max-price nan
flag_error "--min-memory-gib" catalog --min-memory-gib -5
flag_error "--max-price-age-days" catalog --max-price-age-days 99999999999999
flag_error "--window-days" catalog import-aws "$SRC/tests/sizing/aws/spot-price-history.json" --window-days 99999999999
echo "hostile_input: ok ($n cases)"
