# --time-budget stops cleanly: the run ends within the budget (plus a small margin for the last
# case and the final write), says what was not run and why, and exits 3 (stopped).
source "$(dirname "$0")/lib.sh"
start=$(date +%s.%N)
run_rc run --suite quick --no-gpu --filter "memory/" --time-budget 4s -o r.json --no-progress
[ "$rc" = 3 ] || fail "budgeted run exited $rc, expected 3 (stopped): $(cat err.txt)"
end=$(date +%s.%N)
/usr/bin/python3 - "$start" "$end" <<'PY' || fail "time budget"
import json, sys
elapsed = float(sys.argv[2]) - float(sys.argv[1])
r = json.load(open("r.json"))
assert elapsed < 4 + 6, f"took {elapsed:.1f}s for a 4s budget"
assert r["status"] == "stopped", r["status"]
assert r["not_run"], "nothing reported as not run"
assert all(n["reason"].startswith("time budget") for n in r["not_run"]), r["not_run"]
PY
validate report.schema.json r.json || fail "schema"
echo "time_budget: ok"
