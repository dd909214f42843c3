# Budgets hold inside a benchmark: --benchmark_repetitions is capped by what the budget allows and
# the sampling loop stops at the deadline, so 50 repetitions under an 8 s budget end in about 8 s
# (the record says why fewer ran); and SIGTERM during a benchmark asked to repeat 100000 times
# ends the run within a sample's time, the record marked cut short.
source "$(dirname "$0")/lib.sh"
start=$(date +%s.%N)
run_rc run --suite quick --no-gpu --no-telemetry --no-progress --filter "memory/" \
  --benchmark_repetitions=50 --time-budget 8s -o r.json
end=$(date +%s.%N)
[ "$rc" = 3 ] || fail "exit $rc, expected 3 (stopped by the budget): $(cat err.txt)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - "$start" "$end" <<'PY' || fail "budget with repetitions"
import json, sys
elapsed = float(sys.argv[2]) - float(sys.argv[1])
r = json.load(open("r.json"))
assert elapsed < 8 + 5, f"took {elapsed:.1f} s for an 8 s budget"
assert r["records"], "nothing measured"
first = r["records"][0]
assert "repetitions_capped" in first["details"], first["details"]
assert first["details"]["repetitions_capped"].startswith("50 asked, "), first["details"]
assert first["repetitions"] < 50, first["repetitions"]
assert r["status"] == "stopped" and r["not_run"], r["status"]
PY

"$GPUSIZER" run --tiny --no-telemetry --no-progress --filter stream_triad \
  --benchmark_repetitions=100000 -o s.json > /dev/null 2> err.txt &
pid=$!
wait_for '[ -s s.json ]' || fail "no skeleton"
sleep 1  # well inside the benchmark (100000 repetitions)
kill -TERM $pid
if ! wait_for '! kill -0 $pid 2>/dev/null' 100; then
  kill -9 $pid
  fail "still running 10 s after SIGTERM"
fi
set +e
wait $pid
rc=$?
set -e
[ "$rc" = 3 ] || fail "exit $rc after SIGTERM, expected 3: $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "cut-short record"
import json
r = json.load(open("s.json"))
(rec,) = r["records"]
assert "cut_short" in rec["flags"], rec["flags"]
assert "SIGTERM" in rec["details"]["cut_short"], rec["details"]
assert rec["details"]["repetitions_capped"] == "100000 asked, at most 1000 per benchmark", rec["details"]
assert 1 <= rec["repetitions"] < 1000, rec["repetitions"]
assert r["status"] == "stopped", r["status"]
PY
# --resume measures a cut-short record again.
run_rc run --resume s.json --no-progress --benchmark_repetitions=1
[ "$rc" = 0 ] || fail "resume exited $rc: $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "re-measured"
import json
r = json.load(open("s.json"))
(rec,) = r["records"]
assert "cut_short" not in rec["flags"] and rec["repetitions"] == 1, rec
assert r["status"] == "complete", r["status"]
assert [h["records"] for h in r["history"]] == [[], [rec["id"]]], r["history"]
PY
echo "budget_reps: ok"
