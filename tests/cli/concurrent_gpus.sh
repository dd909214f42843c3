# --gpu-mode concurrent on three whole GPUs (fake NVML: three H100s) with the CPU stand-in test seam
# (GPUSIZER_TEST_GPU_STAND_IN=cpu: no fake CUDA exists, so each GPU's child measures its CPU cases
# in its GPU's place, every such record flagged "simulated"). Checks: a record per GPU plus the
# aggregate, mode "concurrent", the start barrier released all three together, their timed
# windows overlap and the batch took less than one GPU after another would, the schema, a SIGTERM
# during the children then --resume, and that recommend prefers concurrent per-GPU figures.
source "$(dirname "$0")/lib.sh"
[ -n "${GPUSIZER_NVML_LIBRARY:-}" ] || fail "GPUSIZER_NVML_LIBRARY not set by ctest"
export GPUSIZER_FAKE_NVML_SCENARIO=$SRC/tests/telemetry/scenarios/three_h100.json
export GPUSIZER_TEST_GPU_STAND_IN=cpu
q=(--tiny --no-progress --no-cpu --filter stream_triad --gpu-mode concurrent)

run_rc run --gpu-mode all -o bad.json
[ "$rc" = 2 ] || fail "--gpu-mode all exited $rc, expected 2"
one_line err.txt
grep -q -- '--gpu-mode: expected isolated, concurrent or both, got "all"' err.txt || fail "$(cat err.txt)"
[ ! -e bad.json ] || fail "a refused run left a report"
# No whole GPU for a child (NVML absent): the GPUs would be measured one at a time, and it says so.
GPUSIZER_FAKE_NVML_SCENARIO=$SRC/tests/telemetry/scenarios/no_driver.json \
  run_rc run --tiny --no-progress --filter stream_triad --gpu-mode concurrent -o n.json
[ "$rc" = 0 ] || fail "concurrent run without NVML exited $rc: $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "no concurrent run without NVML"
import json
r = json.load(open("n.json"))
assert "gpu_mode" not in r["settings"], r["settings"]
assert "--gpu-mode concurrent: no concurrent GPU run (NVML lists no whole GPU to give a child); whole GPUs measured one at a time" in r["warnings"], r["warnings"]
assert [x["target"] for x in r["records"]] == ["cpu"], r["records"]
PY

run_rc run "${q[@]}" -o c.json
[ "$rc" = 0 ] || fail "concurrent run exited $rc: $(cat err.txt)"
validate report.schema.json c.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "concurrent report"
import json
from datetime import datetime
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
r = json.load(open("c.json"))
assert r["status"] == "complete", (r["status"], r["not_run"])
assert r["settings"]["gpu_mode"] == "concurrent", r["settings"]
gpus = ["gpu0", "gpu1", "gpu2"]
assert [x["id"] for x in r["targets"] if x["kind"] == "gpu"] == gpus, r["targets"]
assert not any(x["target"] == "cpu" for x in r["records"]), "--no-cpu: no CPU record"
per = {g: [x for x in r["records"] if x["target"] == g] for g in gpus}
for g, recs in per.items():
    assert len(recs) == 1, (g, [x["id"] for x in recs])
    x = recs[0]
    assert x["id"].startswith(f"memory/stream_triad/{g}/") and x["id"].endswith("/mode=concurrent"), x["id"]
    assert x["mode"] == "concurrent" and x["status"] == "ok", x
    assert "simulated" in x["flags"] and "stand-in for " + g in x["details"]["simulated"], x
    assert x["details"]["start_barrier"].startswith("3 of 3 slices ready"), x["details"]
assert any(w.startswith("simulated: GPUSIZER_TEST_GPU_STAND_IN=cpu") for w in r["warnings"]), r["warnings"]
# The start barrier released the three children together.
released = set()
for g in gpus:
    b = r["target_telemetry"][g]["concurrent_start_barrier"]
    assert b["reached"] and b["slices"] == 3 and b["slices_ready"] == 3, b
    assert b["released_by"] == "all ready or exited" and b["ready_at"] <= b["released_at"], b
    released.add(b["released_at"])
    for x in per[g]:
        assert x["started_at"] >= b["released_at"], (x["started_at"], b)
assert len(released) == 1, released
# Their windows overlap; the batch took less than the three one after another would.
windows = [(t(x["started_at"]), t(x["started_at"]) + x["duration_seconds"]) for g in gpus for x in per[g]]
overlap = min(e for _, e in windows) - max(s for s, _ in windows)
assert overlap > 0, windows
span = max(e for _, e in windows) - min(s for s, _ in windows)
assert span < sum(e - s for s, e in windows), (span, windows)
# The aggregate: the three GPUs' bandwidth summed, over their common window.
agg = [x for x in r["records"] if "aggregate" in x["flags"]]
assert len(agg) == 1, [x["id"] for x in agg]
a = agg[0]
assert a["target"] == "gpu0+gpu1+gpu2" and a["mode"] == "concurrent", a
assert a["id"].startswith("memory/stream_triad/gpu0+gpu1+gpu2/") and a["id"].endswith("/mode=concurrent"), a["id"]
assert "simulated" in a["flags"], a["flags"]
bw = lambda x: next(m["value"] for m in x["metrics"] if m["name"] == "bandwidth")
total = sum(bw(per[g][0]) for g in gpus)
assert abs(bw(a) - total) <= 1e-9 * total, (bw(a), total)
assert abs(float(a["details"]["overlap_seconds"]) - overlap) < 0.002, (a["details"], overlap)
assert abs(t(a["started_at"]) - min(s for s, _ in windows)) < 0.002, a["started_at"]
PY
"$GPUSIZER" show c.json > show.txt || fail "show"
[ "$(grep -c '^gpu[012] (concurrent) .*simulated' show.txt)" = 3 ] || fail "show: $(cat show.txt)"
grep -q '^gpu0+gpu1+gpu2 (concurrent) .*aggregate' show.txt || fail "show: $(cat show.txt)"

# A SIGTERM while the children run: forwarded, the report says what was not run; --resume ends it.
"$GPUSIZER" run "${q[@]}" -o s.json > /dev/null 2> err.txt &
pid=$!
wait_for 'pgrep -P $pid > /dev/null' || fail "no child started"
term_wait $pid
[ "$rc" = 3 ] || fail "exit $rc after SIGTERM during the children, expected 3: $(cat err.txt)"
! pgrep -f "$WORK/.s.json.gpu" > /dev/null || fail "children left running"
validate report.schema.json s.json || fail "schema after the stop"
/usr/bin/python3 - <<'PY' || fail "stopped report"
import json
r = json.load(open("s.json"))
assert r["status"] == "stopped", r["status"]
assert r["not_run"] and all(n["id"].endswith("/mode=concurrent") for n in r["not_run"]), r["not_run"]
assert all(n["reason"] == "interrupted by signal SIGTERM" for n in r["not_run"]), r["not_run"]
PY
run_rc run --resume s.json --no-progress
[ "$rc" = 0 ] || fail "resume exited $rc: $(cat err.txt)"
validate report.schema.json s.json || fail "schema after --resume"
/usr/bin/python3 - <<'PY' || fail "resumed report"
import json
r = json.load(open("s.json"))
assert r["status"] == "complete" and not r["not_run"], (r["status"], r["not_run"])
assert r["settings"]["gpu_mode"] == "concurrent", "--gpu-mode is taken from the report"
ids = [x["id"] for x in r["records"]]
assert len(ids) == len(set(ids)), ids
for g in ("gpu0", "gpu1", "gpu2"):
    assert [x["mode"] for x in r["records"] if x["target"] == g] == ["concurrent"], g
for a in (x for x in r["records"] if "aggregate" in x["flags"]):
    assert float(a["details"]["overlap_seconds"]) > 0, a["details"]
PY

# Sizing: simulated records are never a GPU's figures ...
cat > mem.json <<'JSON'
{"schema_version": 1, "kind": "gpusizer.workload", "name": "stream",
 "target_rate": {"value": 10, "unit": "passes"},
 "work_per_unit": {"device_memory_bytes": 1e9},
 "memory_bytes_per_replica": 1e9, "allowed": ["gpu"]}
JSON
"$GPUSIZER" recommend --workload mem.json c.json --format json --out sim.json > /dev/null 2> err.txt ||
  fail "recommend on the simulated report: $(cat err.txt)"
! grep -q '/mode=concurrent' sim.json || fail "a simulated record was used for sizing"
# ... and with the flag taken off (as if measured on the GPUs) and one-at-a-time records beside
# them (twice as fast), the plan uses the concurrent per-GPU figures, never the aggregate.
/usr/bin/python3 - <<'PY' || fail "doctored report"
import copy, json
r = json.load(open("c.json"))
for x in r["records"]:
    x["flags"] = [f for f in x["flags"] if f != "simulated"]
    x["details"].pop("simulated", None)
for x in [x for x in r["records"] if x.get("mode") == "concurrent" and "aggregate" not in x["flags"]]:
    y = copy.deepcopy(x)
    y["id"] = x["id"][: -len("/mode=concurrent")]
    del y["mode"]
    for m in y["metrics"]:
        m["value"] *= 2
    r["records"].append(y)
json.dump(r, open("both.json", "w"))
PY
"$GPUSIZER" recommend --workload mem.json both.json --format json --out plan.json > /dev/null 2> err.txt ||
  fail "recommend: $(cat err.txt)"
validate plan.schema.json plan.json || fail "plan schema"
/usr/bin/python3 - <<'PY' || fail "plan does not prefer the concurrent figures"
import json
r = json.load(open("both.json"))
plan = json.load(open("plan.json"))
text = json.dumps(plan)
assert "all GPUs loaded concurrently" in text and "loaded at once" in text, "no reason given"
used = set()
def walk(o):
    if isinstance(o, dict):
        if isinstance(o.get("record_id"), str):
            used.add(o["record_id"])
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(plan)
h100 = {x for x in used if x.startswith("memory/")}
assert h100, sorted(used)
assert all(x.endswith("/mode=concurrent") and "+" not in x for x in h100), h100
PY
echo "concurrent_gpus: ok"
