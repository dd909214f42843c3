# MIG children under the parent's run control (fake NVML: an H200 in MIG mode, four slices): each
# child gets its share of the time left (--deadline, recorded per slice and mode), and a SIGTERM
# while children run is forwarded to them; the parent collects what they finished, records the
# slices not run, writes the report and exits 3. --resume runs the rest.
source "$(dirname "$0")/lib.sh"
[ -n "${GPUSIZER_NVML_LIBRARY:-}" ] || fail "GPUSIZER_NVML_LIBRARY not set by ctest"
export GPUSIZER_FAKE_NVML_SCENARIO=$SRC/tests/telemetry/scenarios/mig_h200.json
q=(--tiny --no-progress --filter stream_triad)

run_rc run "${q[@]}" --time-budget 120s -o b.json
[ "$rc" = 0 ] || fail "budgeted run exited $rc: $(cat err.txt)"
validate report.schema.json b.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "children's deadlines"
import json
from datetime import datetime
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
r = json.load(open("b.json"))
deadline = t(r["settings"]["deadline"])
start = t(r["started_at"])
slices = [x["id"] for x in r["targets"] if x["kind"] == "mig"]
assert len(slices) == 4, slices
isolated = sorted(t(r["target_telemetry"][s]["isolated_child"]["deadline"]) for s in slices)
concurrent = {r["target_telemetry"][s]["concurrent_child"]["deadline"] for s in slices}
assert len(concurrent) == 1, concurrent  # one batch, one share
# 5 turns (4 isolated children, 1 concurrent batch) share ~118 s: the first gets about a fifth.
assert isolated[0] - start < 120 / 5 + 5, isolated[0] - start
assert all(d <= deadline for d in isolated + [t(c) for c in concurrent])
for s in slices:
    assert r["target_telemetry"][s]["isolated_child"]["timeout_seconds"] < 120, s
PY

"$GPUSIZER" run "${q[@]}" -o s.json > /dev/null 2> err.txt &
pid=$!
wait_for 'pgrep -P $pid > /dev/null' || fail "no child started"
term_wait $pid
[ "$rc" = 3 ] || fail "exit $rc after SIGTERM during the children, expected 3: $(cat err.txt)"
one_line err.txt
! pgrep -f "$WORK/.s.json.gpu0_mig" > /dev/null || fail "children left running"
validate report.schema.json s.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "stopped report"
import json
r = json.load(open("s.json"))
assert r["status"] == "stopped", r["status"]
assert any(x["target"] == "cpu" for x in r["records"]), "the parent's own record was lost"
mig = [n for n in r["not_run"] if n["id"].startswith("mig/")]
assert mig, r["not_run"]
assert all(n["reason"] == "interrupted by signal SIGTERM" for n in mig), mig
assert any(n["id"].endswith("/mode=concurrent") for n in mig), mig
assert "run stopped: interrupted by signal SIGTERM" in r["warnings"], r["warnings"]
assert not any("child killed" in w or "exited with code" in w for w in r["warnings"]), r["warnings"]
PY
run_rc run --resume s.json --no-progress
[ "$rc" = 0 ] || fail "resume exited $rc: $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "resumed report"
import json
r = json.load(open("s.json"))
assert r["status"] == "complete", (r["status"], r["not_run"])
assert not r["not_run"], r["not_run"]
assert not any(w.startswith("run stopped") for w in r["warnings"]), r["warnings"]
for s in [x["id"] for x in r["targets"] if x["kind"] == "mig"]:
    for mode in ("isolated", "concurrent"):
        assert "exit_code" in r["target_telemetry"][s][mode + "_child"], (s, mode)
PY
echo "mig_stop: ok"
