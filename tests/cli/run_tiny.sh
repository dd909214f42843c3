# A tiny CPU run writes a report that validates against the schema, prints the device and result
# tables, and records every planned benchmark once.
source "$(dirname "$0")/lib.sh"
"$GPUSIZER" run --tiny --no-progress -o r.json > stdout.txt 2> stderr.txt || fail "run exited $?: $(cat stderr.txt)"
validate report.schema.json r.json || fail "report does not validate"
grep -q "^cpu  *cpu" stdout.txt || fail "no device table on stdout"
grep -q "memory/stream_triad" stdout.txt || fail "no results table on stdout"
planned=$("$GPUSIZER" run --tiny --list -o list.json 2>/dev/null | sort)
recorded=$(/usr/bin/python3 -c 'import json,sys; [print(r["id"]) for r in json.load(open("r.json"))["records"]]' | sort)
[ "$planned" = "$recorded" ] || fail "planned and recorded ids differ"
/usr/bin/python3 - <<'PY' || fail "report content"
import json
r = json.load(open("r.json"))
assert r["status"] == "complete", r["status"]
ok = [x for x in r["records"] if x["status"] == "ok"]
assert ok, "no successful record"
for x in ok:
    assert x["verification"]["status"] in ("passed", "not_applicable"), x["id"]
    assert x["metrics"][0]["unit"] in ("B/s", "FLOP/s"), x["id"]
    assert x["timing"]["samples_seconds"], x["id"]
assert any("GPUs:" in w for w in r["warnings"]) or any(t["kind"] == "gpu" for t in r["targets"])
PY
"$GPUSIZER" show r.json --format md > show.md || fail "show md"
grep -q "^| target | benchmark" show.md || fail "markdown table header"
"$GPUSIZER" show r.json --format csv | head -1 | grep -q "^target,benchmark" || fail "csv header"
"$GPUSIZER" show r.json --format json | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)' || fail "json"
"$GPUSIZER" show r.json --format html > page.html || fail "show --format html"
grep -q "<h1>gpusizer report: " page.html || fail "html"
cp r.json r2.json
"$GPUSIZER" compare r.json r2.json | grep -q "ratio 2/1" || fail "compare"
"$GPUSIZER" devices | grep -q "^cpu" || fail "devices"
"$GPUSIZER" devices --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["targets"][0]["kind"] == "cpu", d
gpus = [t for t in d["targets"] if t["kind"] == "gpu"]
# No GPU here: the reason is kept (issue 12: it was lost with --json), and NVML says why too.
assert gpus or d["gpus_unavailable_reason"], d
assert d["nvml"]["available"] or d["nvml"]["unavailable_reason"], d["nvml"]
' || fail "devices --json"
echo "run_tiny: ok"
