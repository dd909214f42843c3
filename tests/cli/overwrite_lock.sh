# A report is never replaced by accident: an existing --out needs --force (or --resume), and two
# runs writing one report at once are refused at once: the second names the first (flock on
# .<report>.lock beside it). Both refusals: one line, exit 2, the report untouched.
source "$(dirname "$0")/lib.sh"
tiny=(run --tiny --no-progress --no-telemetry --filter stream_triad)
run_rc "${tiny[@]}" -o r.json
[ "$rc" = 0 ] || fail "first run exited $rc: $(cat err.txt)"
sum=$(sha256sum < r.json)
run_rc "${tiny[@]}" -o r.json
[ "$rc" = 2 ] || fail "a second run onto r.json exited $rc, expected 2"
one_line err.txt
grep -q "^gpusizer: r.json: a report is already there; pass --force to replace it, or --resume r.json to continue it$" err.txt || fail "message: $(cat err.txt)"
[ "$(sha256sum < r.json)" = "$sum" ] || fail "the existing report was changed"
run_rc "${tiny[@]}" -o r.json --force
[ "$rc" = 0 ] || fail "--force exited $rc: $(cat err.txt)"
[ ! -e .r.json.lock ] || fail "lock file left after a normal exit"

# A long run holds the lock; a second run on the same report fails at once.
"$GPUSIZER" run --tiny --no-progress --no-telemetry --filter stream_triad \
  --benchmark_repetitions=1000 -o long.json > /dev/null 2> long.err &
pid=$!
wait_for '[ -e .long.json.lock ] && [ -s long.json ]' || fail "the long run wrote no lock/skeleton"
cp long.json long.before
run_rc run --tiny --no-progress --no-telemetry -o long.json --force
[ "$rc" = 2 ] || fail "a concurrent run exited $rc, expected 2: $(cat err.txt)"
one_line err.txt
grep -q "^gpusizer: long.json: another gpusizer run (pid $pid) is writing this report (.*/\.long\.json\.lock is locked); wait for it to end or choose another --out$" err.txt || fail "message: $(cat err.txt)"
run_rc run --resume long.json --no-progress
[ "$rc" = 2 ] || fail "a concurrent --resume exited $rc, expected 2: $(cat err.txt)"
term_wait $pid
[ "$rc" = 3 ] || fail "the long run exited $rc after SIGTERM, expected 3: $(cat long.err)"
validate report.schema.json long.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "the first run's report"
import json
r = json.load(open("long.json"))
assert r["status"] == "stopped", r["status"]
assert r["command_line"][-1] == "--benchmark_repetitions=1000", r["command_line"]
# The case in flight stopped after its current sample; the record says so and why.
(rec,) = r["records"]
assert "stream_triad" in rec["id"] and rec["status"] == "ok", rec
assert "cut_short" in rec["flags"], rec["flags"]
assert "SIGTERM" in rec["details"]["cut_short"], rec["details"]
PY
[ ! -e .long.json.lock ] || fail "lock file left after the stop"
echo "overwrite_lock: ok"
