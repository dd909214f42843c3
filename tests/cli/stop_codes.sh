# Runs that cannot or did not measure say so with their own exit codes (README "Exit codes"):
# nothing measured -> 4 with one line and an "empty" report; a --deadline already past, or a
# budget too small for any benchmark -> 2 with one line and no report left behind.
source "$(dirname "$0")/lib.sh"
q=(--no-progress --no-telemetry)
run_rc run --tiny "${q[@]}" --filter no-such-benchmark -o none.json
[ "$rc" = 4 ] || fail "a filter matching nothing exited $rc, expected 4"
one_line err.txt
grep -q "^gpusizer: nothing was measured (no benchmark matched the filter); report: none.json (0 records, status empty)$" err.txt || fail "message: $(cat err.txt)"
/usr/bin/python3 -c 'import json; r = json.load(open("none.json")); assert r["status"] == "empty", r["status"]' || fail "status"
validate report.schema.json none.json || fail "schema"

run_rc run --tiny "${q[@]}" --no-cpu --no-gpu -o target.json
[ "$rc" = 4 ] || fail "no target exited $rc, expected 4"
one_line err.txt
grep -q "^gpusizer: nothing was measured (no target: the CPU was skipped with --no-cpu; GPUs were skipped with --no-gpu); report: target.json" err.txt || fail "message: $(cat err.txt)"

run_rc run --tiny "${q[@]}" --deadline 2020-01-01T00:00:00Z -o past.json
[ "$rc" = 2 ] || fail "a past deadline exited $rc, expected 2"
one_line err.txt
grep -q "^gpusizer: --deadline 2020-01-01T00:00:00.000Z is in the past (now " err.txt || fail "message: $(cat err.txt)"
[ ! -e past.json ] || fail "a report was left for a refused run"

run_rc run --tiny "${q[@]}" --time-budget 1s -o short.json
[ "$rc" = 2 ] || fail "a 1 s budget exited $rc, expected 2"
one_line err.txt
grep -q "^gpusizer: --time-budget 1 s: too short for any benchmark" err.txt || fail "message: $(cat err.txt)"
[ ! -e short.json ] || fail "a report was left for a refused run"

# Found out after discovery (the plan's shortest CPU case needs ~1.5 s; 3 s - 2 s kept < 1.5 s).
run_rc run --tiny "${q[@]}" --time-budget 3s -o plan.json
[ "$rc" = 2 ] || fail "a 3 s budget exited $rc, expected 2: $(cat err.txt)"
one_line err.txt
grep -q "^gpusizer: --time-budget 3 s leaves 3.0 s, too little for any benchmark planned: the shortest needs ~1.5 s" err.txt || fail "message: $(cat err.txt)"
[ ! -e plan.json ] && [ ! -e .plan.json.lock ] || fail "the skeleton or lock was left for a refused run"
echo "stop_codes: ok"
