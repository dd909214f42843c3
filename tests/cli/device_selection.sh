# Device selection by NVML UUID, with the fake NVML's p5 (8 x H100, GPU0 in MIG mode with
# 3g + 2g + 1g + 1g): `devices` shows the 7 whole GPUs this process measures (CUDA_VISIBLE_DEVICES
# set to their UUIDs) and GPU0's slices as MIG children; `run` records that selection, respects
# a CUDA_VISIBLE_DEVICES a scheduler set, and never turns a MIG enumeration error (no permission)
# into "nothing to measure".
source "$(dirname "$0")/lib.sh"
[ -n "${GPUSIZER_NVML_LIBRARY:-}" ] || fail "GPUSIZER_NVML_LIBRARY not set by ctest"
unset CUDA_VISIBLE_DEVICES
P5=$SRC/tests/telemetry/scenarios/p5_gpu0_mig.json
export GPUSIZER_FAKE_NVML_SCENARIO=$P5

"$GPUSIZER" devices > devices.txt || fail "devices: $(cat devices.txt)"
[ "$(grep -c '^this process *gpu[1-7] ' devices.txt)" = 7 ] || fail "7 whole GPUs expected: $(cat devices.txt)"
grep -q '^this process *gpu0 ' devices.txt && fail "gpu0 is in MIG mode, never measured whole"
[ "$(grep -c '^MIG child *gpu0/mig-' devices.txt)" = 4 ] || fail "4 MIG children expected: $(cat devices.txt)"
grep -q "7 whole GPUs" devices.txt || fail "no explanation: $(cat devices.txt)"
grep -q "^CUDA_VISIBLE_DEVICES=GPU-50000001-0000-0000-0000-000000000001,GPU-50000002" devices.txt \
  || fail "CUDA_VISIBLE_DEVICES not set to the UUIDs: $(cat devices.txt)"

# --list says the same before anything runs.
"$GPUSIZER" run --list --tiny -o l.json > /dev/null 2> list.txt || fail "run --list: $(cat list.txt)"
grep -q "7 whole GPUs" list.txt || fail "run --list: no selection: $(cat list.txt)"
[ "$(grep -c 'MIG child: gpu0/mig-' list.txt)" = 4 ] || fail "run --list: no MIG children: $(cat list.txt)"

"$GPUSIZER" run --tiny --no-progress --mig-mode off --filter stream_triad -o r.json > /dev/null 2> err.txt \
  || fail "run: $(cat err.txt)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "p5 selection in the report"
import json
r = json.load(open("r.json"))
s = r["settings"]["device_selection"]
assert s["basis"] == "NVML UUIDs", s
assert [g["id"] for g in s["whole_gpus"]] == [f"gpu{i}" for i in range(1, 8)], s
assert s["cuda_visible_devices_set"] == ",".join(g["uuid"] for g in s["whole_gpus"]), s
assert s["cuda_visible_devices_found"] is None, s
assert len(s["mig_slices"]) == 4 and all(m["parent"] == "gpu0" for m in s["mig_slices"]), s
assert {t["id"]: t["kind"] for t in r["targets"]}.get("gpu0") == "gpu"
PY

# A scheduler's grant (one whole GPU and one slice of GPU0): measured as granted, and said so.
GRANT=GPU-50000002-0000-0000-0000-000000000002,MIG-50000000-2g00-0000-0000-000000000002
CUDA_VISIBLE_DEVICES=$GRANT "$GPUSIZER" run --tiny --no-progress --mig-mode off --filter stream_triad \
  -o g.json > /dev/null 2> err.txt || fail "run with a grant: $(cat err.txt)"
GRANT=$GRANT /usr/bin/python3 - <<'PY' || fail "scheduler grant"
import json, os
r = json.load(open("g.json"))
s = r["settings"]["device_selection"]
assert s["cuda_visible_devices_found"] == os.environ["GRANT"], s
assert s["cuda_visible_devices_set"] == "GPU-50000002-0000-0000-0000-000000000002", s
assert [g["id"] for g in s["whole_gpus"]] == ["gpu2"], s
assert [m["id"] for m in s["mig_slices"]] == ["gpu0/mig-2g.20gb-gi5-ci0"], s
assert any("was set before gpusizer started" in w for w in r["warnings"]), r["warnings"]
PY

# No permission to list GPU0's MIG devices: recorded with the error's name; GPUs 1-7 measured.
/usr/bin/python3 - "$P5" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["gpus"][0]["mig_enumeration_error"] = "NO_PERMISSION"
json.dump(s, open("p5_no_permission.json", "w"))
s["gpus"] = s["gpus"][:1]  # a pod that sees one GPU in MIG mode
json.dump(s, open("pod_no_permission.json", "w"))
PY
GPUSIZER_FAKE_NVML_SCENARIO=$PWD/p5_no_permission.json "$GPUSIZER" devices > np.txt || fail "devices (no permission)"
grep -q "gpu0 (NVIDIA H100 80GB HBM3): MIG enabled, but its MIG devices could not be listed (nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION" np.txt \
  || fail "no permission not reported: $(cat np.txt)"
[ "$(grep -c '^this process *gpu[1-7] ' np.txt)" = 7 ] || fail "GPUs 1-7 not measured: $(cat np.txt)"
"$GPUSIZER" devices --json > /dev/null || fail "devices --json"

GPUSIZER_FAKE_NVML_SCENARIO=$PWD/pod_no_permission.json "$GPUSIZER" run --tiny --no-progress \
  --filter stream_triad -o pod.json > /dev/null 2> err.txt || fail "run (pod): $(cat err.txt)"
/usr/bin/python3 - <<'PY' || fail "pod without MIG rights"
import json
r = json.load(open("pod.json"))
s = r["settings"]["device_selection"]
assert s["basis"] == "CUDA's own" and s["cuda_visible_devices_set"] is None, s
assert s["gpus_with_unlisted_slices"] == ["gpu0"], s
w = r["warnings"]
assert any("NVML_ERROR_NO_PERMISSION" in x and "measuring the devices CUDA itself exposes" in x
           for x in w), w
# The GPUs were looked for (not skipped as "every GPU is partitioned"): CUDA's answer is recorded.
assert any(x.startswith("GPUs: ") for x in w), w
PY
echo "device_selection: ok"
