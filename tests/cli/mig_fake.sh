# With the fake NVML (an H200 in MIG mode, 3g + 2g + 1g + 1g): `devices` lists the slices by
# profile under their GPU; `run` measures no whole-GPU figures on it, records the slices and
# their parent, runs one child per slice and mode (concurrent ones released together by the start
# barrier), and says why the children measured nothing here (no CUDA device on this machine). The monitor writes valid EMF and Prometheus text.
source "$(dirname "$0")/lib.sh"
[ -n "${GPUSIZER_NVML_LIBRARY:-}" ] || fail "GPUSIZER_NVML_LIBRARY not set by ctest"
export GPUSIZER_FAKE_NVML_SCENARIO=$SRC/tests/telemetry/scenarios/mig_h200.json
"$GPUSIZER" devices > devices.txt || fail "devices"
for p in 3g.71gb 2g.35gb 1g.18gb; do grep -q "gpu0/mig-$p" devices.txt || fail "no $p slice: $(cat devices.txt)"; done
[ "$(grep -c '^  gpu0/mig-1g.18gb' devices.txt)" = 2 ] || fail "expected two 1g.18gb slices"
grep -q "gpu0: MIG enabled" devices.txt || fail "MIG mode not shown"

"$GPUSIZER" run --tiny --no-progress --filter stream_triad -o r.json > /dev/null 2> err.txt || fail "run: $(cat err.txt)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "report content"
import json
r = json.load(open("r.json"))
kinds = {t["id"]: t["kind"] for t in r["targets"]}
assert kinds.get("gpu0") == "gpu", kinds
slices = [t for t in r["targets"] if t["kind"] == "mig"]
assert sorted(t["mig_profile"] for t in slices) == ["1g.18gb", "1g.18gb", "2g.35gb", "3g.71gb"], slices
assert all(t["parent"] == "gpu0" for t in slices)
assert any("gpu0 (NVIDIA H200): MIG enabled; measured per MIG slice" in w for w in r["warnings"]), r["warnings"]
nothing = [w for w in r["warnings"] if "the child measured nothing" in w]
assert len(nothing) == 8, nothing  # 4 slices x (isolated, concurrent)
assert not any(x["target"] == "gpu0" for x in r["records"])  # never a whole-GPU figure for it
# Concurrent mode: the four children met at the start barrier and were released together.
released = set()
for t in slices:
    b = r["target_telemetry"][t["id"]]["concurrent_start_barrier"]
    assert b["reached"] and b["slices"] == 4 and b["slices_ready"] == 4, b
    assert b["released_by"] == "all ready or exited" and b["waited_seconds"] >= 0, b
    assert b["ready_at"] <= b["released_at"], b
    released.add(b["released_at"])
    assert "isolated_start_barrier" not in r["target_telemetry"][t["id"]]
assert len(released) == 1, released
assert not any("start barrier" in w for w in r["warnings"]), r["warnings"]
PY

"$GPUSIZER" monitor --format emf --interval 1s --duration 2s > emf.txt || fail "monitor emf"
/usr/bin/python3 - <<'PY' || fail "EMF"
import json
lines = [json.loads(l) for l in open("emf.txt") if l.strip()]
assert lines, "no EMF lines"
for d in lines:
    m = d["_aws"]["CloudWatchMetrics"][0]
    assert isinstance(d["_aws"]["Timestamp"], int) and m["Namespace"]
    for metric in m["Metrics"]:
        assert metric["Name"] in d, metric
    for dim in m["Dimensions"][0]:
        assert dim in d, dim
PY
# To a file (a node-exporter textfile): rewritten whole at each interval, one exposition.
"$GPUSIZER" monitor --format prometheus --interval 1s --duration 2s --out prom.txt || fail "monitor prometheus"
/usr/bin/python3 - <<'PY' || fail "Prometheus text"
import re
typed, seen = set(), set()
for line in open("prom.txt"):
    line = line.rstrip("\n")
    if line.startswith("# TYPE "):
        name = line.split()[2]
        assert name not in typed, f"duplicate TYPE {name}"
        typed.add(name)
    elif line.startswith("# ") or not line:
        continue  # HELP, or gpusizer's comment on what a series cannot give
    else:
        m = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)', line)
        assert m, line
        float(m.group(3))
        assert m.group(1) in typed, f"sample before its TYPE: {line}"
        seen.add(m.group(1))
assert "gpusizer_utilization_gpu_percent" in seen and "gpusizer_power_watts" in seen, seen
# A series per MIG slice, labelled as dcgm-exporter labels them.
text = open("prom.txt").read()
for p, gi in (("3g.71gb", 1), ("2g.35gb", 5), ("1g.18gb", 13), ("1g.18gb", 14)):
    assert f'GPU_I_PROFILE="{p}",GPU_I_ID="{gi}"}} ' in text, (p, gi)
PY
echo "mig_fake: ok"
