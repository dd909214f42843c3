# A report of a two-GPU machine (every family a backend can write, P2P and collectives included;
# written by the real writer code through gpusizer_write_multi_gpu_report) validates against the
# schema and is accepted by show, compare, recommend and run --resume.
# usage: bash multi_gpu_report.sh <gpusizer> <source dir> <gpusizer_write_multi_gpu_report>
WRITER=$3
source "$(dirname "$0")/lib.sh"
"$WRITER" r.json || fail "the fixture writer failed"
validate report.schema.json r.json || fail "the multi-GPU report does not validate"
/usr/bin/python3 - <<'PY' || fail "report content"
import json
r = json.load(open("r.json"))
families = {x["family"] for x in r["records"]}
assert {"p2p", "collectives"} <= families, families
assert any("+" in x["target"] and x["status"] == "ok" for x in r["records"]), "no multi-GPU record"
PY
for format in table md csv json html; do
  "$GPUSIZER" show r.json --format "$format" > "show.$format" 2> err.txt || fail "show --format $format: $(cat err.txt)"
done
grep -q "p2p/p2p_ce_write" show.table || fail "show table lacks the P2P records"
grep -q "collectives/all_reduce" show.md || fail "show md lacks the collectives records"
cp r.json r2.json
"$GPUSIZER" compare r.json r2.json > compare.txt 2> err.txt || fail "compare: $(cat err.txt)"
grep -q "ratio 2/1" compare.txt || fail "compare printed no ratio"
grep -q "p2p/" compare.txt || fail "compare lacks the P2P records"
"$GPUSIZER" recommend --workload "$SRC/examples/workloads/llm-inference.json" r.json --format md \
  --out plan.json > plan.md 2> err.txt || fail "recommend: $(cat err.txt)"
validate plan.schema.json plan.json || fail "the plan does not validate"
# --resume loads the report, plans this machine's CPU cases (all already recorded: nothing runs),
# keeps every GPU record and writes a report that still validates.
cp r.json resumed.json
"$GPUSIZER" run --resume resumed.json --no-gpu --filter "^memory/memcpy/cpu/" --no-progress \
  > /dev/null 2> err.txt || fail "run --resume: $(cat err.txt)"
validate report.schema.json resumed.json || fail "the resumed report does not validate"
/usr/bin/python3 - <<'PY' || fail "resumed content"
import json
before = {x["id"]: x for x in json.load(open("r.json"))["records"]}
after = {x["id"]: x for x in json.load(open("resumed.json"))["records"]}
assert before == after, sorted(set(before) ^ set(after))
PY
echo "multi_gpu_report: ok"
