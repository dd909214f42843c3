# SIGTERM (a spot interruption notice, the end of a capacity block) mid-suite: the case in flight
# finishes, the rest is recorded as not run with the reason, the report is complete and valid, and
# the run exits 3 (stopped). --resume finishes the rest: exit 0, the stale "run stopped" warning
# gone, the history keeping how the first run ended.
source "$(dirname "$0")/lib.sh"
"$GPUSIZER" run --suite quick --no-gpu --filter "memory/" -o r.json --no-progress > /dev/null 2> err.txt &
pid=$!
count() { /usr/bin/python3 -c 'import json; print(len(json.load(open("r.json"))["records"]))' 2>/dev/null || echo 0; }
wait_for '[ "$(count)" -ge 1 ]' || fail "no record written"
term_wait $pid
[ "$rc" = 3 ] || fail "exit code $rc after SIGTERM, expected 3 (stopped)"
one_line err.txt
grep -q "status stopped: interrupted by signal SIGTERM; .* not run; gpusizer run --resume r.json continues it" err.txt || fail "stderr: $(cat err.txt)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "content"
import json
r = json.load(open("r.json"))
assert r["status"] == "stopped", r["status"]
assert r["finished_at"], "no finish time"
assert r["not_run"], "nothing listed as not run"
assert all(n["reason"] == "interrupted by signal SIGTERM" for n in r["not_run"]), r["not_run"]
assert any("run stopped: interrupted by signal SIGTERM" in w for w in r["warnings"])
assert all(x["status"] == "ok" for x in r["records"]), [x["status"] for x in r["records"]]
cut = [x for x in r["records"] if "cut_short" in x["flags"]]
assert all("SIGTERM" in x["details"]["cut_short"] for x in cut), cut
assert [h["status"] for h in r["history"]] == ["stopped"], r["history"]
assert sorted(r["history"][0]["records"]) == sorted(x["id"] for x in r["records"])
PY
cp r.json stopped.json
run_rc run --resume r.json --no-progress --benchmark_min_time=0.02
[ "$rc" = 0 ] || fail "resume exited $rc: $(cat err.txt)"
validate report.schema.json r.json || fail "resumed report does not validate"
/usr/bin/python3 - <<'PY' || fail "resumed content"
import json
before = json.load(open("stopped.json"))
r = json.load(open("r.json"))
assert r["status"] == "complete", r["status"]
assert not r["not_run"], r["not_run"]
assert not any(w.startswith("run stopped") for w in r["warnings"]), r["warnings"]
h = r["history"]
assert [x["status"] for x in h] == ["stopped", "complete"], h
assert h[0]["stop_reason"] == "interrupted by signal SIGTERM", h[0]
assert "stop_reason" not in h[1], h[1]
# The case in flight at the SIGTERM was cut short: measured again, now the second run's record.
first = {x["id"] for x in before["records"] if "cut_short" not in x["flags"]}
assert set(h[0]["records"]) == first, (h[0]["records"], first)
assert set(h[1]["records"]) == {x["id"] for x in r["records"]} - first, h[1]["records"]
PY
echo "sigterm: ok"
