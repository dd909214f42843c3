#!/usr/bin/env bash
# check_gpu_report.py: a CPU-only report fails (no GPU target), a measured H200 report passes,
# and the same report fails once a family has no verified record or a record failed verification.
set -uo pipefail
root="$1"
check="$root/scripts/check_gpu_report.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$(python3 "$check" "$root/reports/examples/cpu-amd-epyc-2vcpu-quick.json") && fail "CPU report passed: $out"
echo "$out" | grep -q "no GPU target" || fail "CPU report: expected 'no GPU target', got: $out"

gpu="$root/reports/examples/h200-quick.json"
[ -f "$gpu" ] || fail "$gpu missing"
python3 "$check" "$gpu" || fail "the measured H200 report did not pass"

python3 - "$gpu" "$tmp/no_io.json" "$tmp/failed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
no_io = dict(r, records=[x for x in r["records"] if x["family"] != "io"])
json.dump(no_io, open(sys.argv[2], "w"))
bad = json.loads(json.dumps(r))
gemm = next(x for x in bad["records"] if x["family"] == "gemm")
gemm["verification"]["status"] = "failed"
json.dump(bad, open(sys.argv[3], "w"))
PY
out=$(python3 "$check" "$tmp/no_io.json") && fail "report without I/O records passed"
echo "$out" | grep -q "family io" || fail "expected 'family io', got: $out"
out=$(python3 "$check" "$tmp/failed.json") && fail "report with a failed verification passed"
echo "$out" | grep -q "failed verification" || fail "expected 'failed verification', got: $out"
echo "$tmp/missing.json" > /dev/null
python3 "$check" "$tmp/missing.json" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a missing file must exit 2"
echo ok
