# Text from a report, a workload, a catalog, a file name, a flag or (with the fake NVML) a GPU
# name that holds ESC[2J (clear screen), BEL, CR, a C1 control (CSI, U+009B) or bytes that are not
# UTF-8 is printed escaped ("\x1b", "\u009b", "\xff") by every command and format: the output
# bytes hold no control character but the newline, no C1 control, and are valid UTF-8.
source "$(dirname "$0")/lib.sh"
HOSTILE='x\u001b[2J\u0007\r\u009b1m'  # as a JSON string
/usr/bin/python3 - "$SRC" "$HOSTILE" <<'PY' || fail "fixtures"
import json, sys
src, hostile = sys.argv[1], json.loads('"' + sys.argv[2] + '"')
r = json.load(open(src + "/reports/examples/cpu-amd-epyc-2vcpu-quick.json"))
r["host"]["hostname"] = "host" + hostile
r["targets"][0]["name"] = "cpu" + hostile
r["records"][0]["parameters"]["label"] = "param" + hostile
r["warnings"].append("warning" + hostile)
json.dump(r, open("r.json", "w"))
w = json.load(open(src + "/examples/workloads/light-model.json"))
w.pop("$schema", None)
w["name"] = "workload" + hostile
w["target_rate"]["unit"] = "req" + hostile
json.dump(w, open("w.json", "w"))
c = json.load(open(src + "/data/catalog/aws-us-east-1.json"))
c.pop("$schema", None)
c["instances"][0]["type"] = "type" + hostile
json.dump(c, open("c.json", "w"))
s = json.load(open(src + "/tests/telemetry/scenarios/mig_h200.json"))
s["gpus"][1]["name"] = "gpu" + hostile
json.dump(s, open("nvml.json", "w"))
PY
# A file name may hold any byte but '/' and NUL.
BAD_NAME=$'r\e[2J\xff.json'
cp r.json "$BAD_NAME"
# check <output file> <what>: raw bytes safe, and the ESC shown as \x1b (unless JSON)
check() {
  /usr/bin/python3 - "$1" <<'PY' || fail "$2: raw control bytes or invalid UTF-8 in the output: $(cat -v "$1" | head -c 2000)"
import sys
data = open(sys.argv[1], "rb").read()
bad = [b for b in data if (b < 0x20 and b != 0x0A) or b == 0x7F]
assert not bad, "raw control bytes %r" % sorted(set(bad))
text = data.decode("utf-8")  # strict: raises on invalid UTF-8
assert not any(0x80 <= ord(ch) <= 0x9F for ch in text), "raw C1 control"
PY
  case "$2" in *json*) ;; *) grep -qF '\x1b[2J' "$1" || fail "$2: the escape is not shown: $(head -c 2000 "$1")";; esac
}
for format in table md csv html json; do
  "$GPUSIZER" show r.json --format "$format" > out 2>&1 || fail "show --format $format: $(cat out)"
  check out "show $format"
  "$GPUSIZER" compare r.json "$BAD_NAME" --format "$format" > out 2>&1 || fail "compare --format $format: $(cat -v out)"
  check out "compare $format"
done
"$GPUSIZER" compare r.json "$BAD_NAME" > out 2>&1 || fail "compare"
grep -qF 'r\x1b[2J\xff.json' out || fail "the file name is not shown escaped: $(cat -v out)"
"$GPUSIZER" show r.json > out 2>&1
grep -qF 'hostx\x1b[2J\x07\x0d\u009b1m' out || fail "the hostname is not shown escaped: $(cat -v out)"
for format in table md json; do
  "$GPUSIZER" recommend --today 2026-11-30 --workload w.json --workload "$SRC/examples/workloads/llm-inference.json" \
    --catalog c.json r.json --format "$format" > out 2>&1 || [ $? = 3 ] || fail "recommend --format $format: $(cat -v out)"
  check out "recommend $format"
  "$GPUSIZER" catalog --today 2026-11-30 --catalog c.json --format "$format" > out 2>&1 || fail "catalog --format $format: $(cat -v out)"
  check out "catalog $format"
done
# One-line errors that quote input: a flag's value and a file name.
"$GPUSIZER" catalog --accelerator $'\e[2J\xff' > out 2>&1 && fail "an unknown accelerator is accepted"
check out "catalog --accelerator error"
[ "$(wc -l < out)" = 1 ] || fail "not one line: $(cat -v out)"
"$GPUSIZER" show "no-$BAD_NAME" > out 2>&1 && fail "a missing report is accepted"
check out "show error"
[ "$(wc -l < out)" = 1 ] || fail "not one line: $(cat -v out)"
if [ -n "${GPUSIZER_NVML_LIBRARY:-}" ]; then  # the fake NVML names GPU 1 with the hostile text
  export GPUSIZER_FAKE_NVML_SCENARIO=$PWD/nvml.json
  "$GPUSIZER" devices > out 2>&1 || fail "devices: $(cat -v out)"
  check out "devices"
  "$GPUSIZER" devices --json > out 2>&1 || fail "devices --json: $(cat -v out)"
  check out "devices json"
  "$GPUSIZER" monitor --format prometheus --interval 1s --duration 1s > out 2>&1 || fail "monitor prometheus: $(cat -v out)"
  check out "monitor prometheus"
  "$GPUSIZER" monitor --format emf --interval 1s --duration 1s > out 2>&1 || fail "monitor emf: $(cat -v out)"
  check out "monitor emf json"
fi
echo "hostile text: escaped in every output"
