# gpusizer merge: two hosts' reports (the two-GPU fixture, as if measured on two p5 instances)
# become one schema-valid fleet report that show, compare and recommend accept; mixed suites,
# mixed versions and a duplicate host are refused with one line and exit code 2.
# usage: bash merge.sh <gpusizer> <source dir> <gpusizer_write_multi_gpu_report>
WRITER=$3
source "$(dirname "$0")/lib.sh"
"$WRITER" a.json || fail "the fixture writer failed"
/usr/bin/python3 - <<'PY'
import json
a = json.load(open("a.json"))
a["host"]["hostname"] = "ip-10-0-0-1"
a["host"]["instance_type"] = {"value": "p5.48xlarge", "source": "--instance-type"}
json.dump(a, open("a.json", "w"))
b = dict(a, host=dict(a["host"], hostname="ip-10-0-0-2"))
json.dump(b, open("b.json", "w"))
json.dump(dict(b, suite="standard"), open("standard.json", "w"))
json.dump(dict(b, tool=dict(b["tool"], version="0.0.1")), open("old.json", "w"))
PY
"$GPUSIZER" merge a.json b.json -o fleet.json 2> err.txt || fail "merge: $(cat err.txt)"
validate report.schema.json fleet.json || fail "the fleet report does not validate"
/usr/bin/python3 - <<'PY' || fail "fleet content"
import json
a, f = json.load(open("a.json")), json.load(open("fleet.json"))
assert [h["id"] for h in f["hosts"]] == ["ip-10-0-0-1", "ip-10-0-0-2"], f["hosts"]
assert all(h["instance_type"]["value"] == "p5.48xlarge" for h in f["hosts"])
want = sorted(f"{h}:{t['id']}" for h in ("ip-10-0-0-1", "ip-10-0-0-2") for t in a["targets"])
assert sorted(t["id"] for t in f["targets"]) == want, [t["id"] for t in f["targets"]]
assert all(t["host"] == t["id"].split(":")[0] for t in f["targets"])
assert len(f["records"]) == 2 * len(a["records"])
for r in a["records"]:  # every record once per host, its target renamed
    for h in ("ip-10-0-0-1", "ip-10-0-0-2"):
        t = "+".join(f"{h}:{x}" for x in r["target"].split("+"))
        ids = [x["id"] for x in f["records"] if x["target"] == t and x["operation"] == r["operation"]
               and x["parameters"] == r["parameters"]]
        assert len(ids) == 1 and f"/{t}/" in ids[0], (r["id"], h, ids)
assert f["settings"]["fleet"]["how"] == "merge"
assert f["command_line"][1:4] == ["merge", "a.json", "b.json"], f["command_line"]
PY
"$GPUSIZER" show fleet.json > show.txt 2> err.txt || fail "show: $(cat err.txt)"
grep -q "fleet: 2 hosts: ip-10-0-0-1 (p5.48xlarge" show.txt || fail "show does not name the hosts"
grep -q "ip-10-0-0-2:gpu0+ip-10-0-0-2:gpu1" show.txt || fail "show lacks the second host's records"
"$GPUSIZER" compare a.json fleet.json > compare.txt 2> err.txt || fail "compare: $(cat err.txt)"
"$GPUSIZER" recommend --workload "$SRC/examples/workloads/llm-inference.json" fleet.json \
  --out plan.json > plan.txt 2> err.txt || fail "recommend: $(cat err.txt)"
validate plan.schema.json plan.json || fail "the plan from a fleet report does not validate"
# Refusals: one line naming the file, exit code 2, nothing written.
refuse() {
  local expected=$1; shift
  set +e
  "$GPUSIZER" merge "$@" -o refused.json > /dev/null 2> err.txt
  local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "merge $* exited $rc, expected 2"
  [ "$(wc -l < err.txt)" = 1 ] || fail "merge $*: not one line: $(cat err.txt)"
  grep -qF "$expected" err.txt || fail "merge $*: expected \"$expected\", got: $(cat err.txt)"
  [ ! -e refused.json ] || fail "merge $* wrote a report"
}
refuse 'standard.json: suite "standard" differs from a.json'"'"'s "quick"' a.json standard.json
refuse 'old.json: gpusizer version "0.0.1" differs from a.json' a.json old.json
refuse 'b.json: host "ip-10-0-0-2" is already in the fleet (from b.json)' a.json b.json b.json
refuse 'fleet.json: host "ip-10-0-0-1" is already in the fleet (from a.json)' a.json fleet.json
refuse 'merge: give at least two reports' a.json
echo '{"schema_version": 1' > broken.json
refuse 'broken.json' a.json broken.json
echo "merge: ok"
