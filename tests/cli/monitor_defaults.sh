# `gpusizer monitor` with no flag at all, as documented: EMF lines on stdout every second until
# Ctrl-C (SIGINT), then exit 0. The fake NVML is an H200 in MIG mode (two slices) and an H200:
# each second gives one line per GPU and per slice. (The documented default --duration 0 was
# once rejected as "expected a positive duration".)
source "$(dirname "$0")/lib.sh"
[ -n "${GPUSIZER_NVML_LIBRARY:-}" ] || fail "GPUSIZER_NVML_LIBRARY not set by ctest"
export GPUSIZER_FAKE_NVML_SCENARIO=$SRC/tests/telemetry/scenarios/mig_idle.json
"$GPUSIZER" monitor > out.txt 2> err.txt &
pid=$!
wait_for '[ "$(wc -l < out.txt)" -ge 8 ]' 300 || fail "fewer than two samples in 30 s: $(cat err.txt)"
kill -0 "$pid" 2>/dev/null || fail "monitor exited on its own: $(cat err.txt)"
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" = 0 ] || fail "exit $rc after SIGINT: $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "EMF: $(head -c 2000 out.txt)"
import json
lines = [json.loads(l) for l in open("out.txt") if l.strip()]
assert len(lines) % 4 == 0, len(lines)  # whole samples only: GPU 0, its 2 slices, GPU 1
stamps = sorted({d["_aws"]["Timestamp"] for d in lines})
assert all(b - a >= 900 for a, b in zip(stamps, stamps[1:])), stamps  # --interval 1s
for d in lines:
    m = d["_aws"]["CloudWatchMetrics"][0]
    assert m["Namespace"] == "gpusizer", m
    for dim in m["Dimensions"][0]:
        assert isinstance(d[dim], str), dim
slices = [d for d in lines if "GPU_I_ID" in d]
assert sorted({(d["GPU_I_PROFILE"], d["GPU_I_ID"]) for d in slices}) == [("1g.18gb", "13"), ("3g.71gb", "1")]
assert all("memory_used_bytes" in d and "utilization_gpu" not in d for d in slices)
PY
grep -q "MIG 3g.71gb GI 1: utilization_gpu, utilization_memory: NVML gives no per-instance" err.txt \
  || fail "no note on the slice's utilization: $(cat err.txt)"
echo "monitor_defaults: ok"
