# `recommend --format html` rendered in headless Chromium: the answer first, the perf/$ chart
# with one bar per ranked option (estimates in their own colour), the break-even chart for a
# reservation window with the break-even marked, excluded options folded by family; no console
# error, no network request. Inputs: the committed H200 report, the shipped catalog with a
# Capacity Block price added for p5en.48xlarge (H200), the example training workload.
source "$(dirname "$0")/lib.sh"
ARTIFACTS=${GPUSIZER_TEST_ARTIFACTS:-$WORK}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: headless Chromium not installed (scripts/setup.sh installs it with the tests)"
  exit 77
fi
/usr/bin/python3 - "$SRC/data/catalog/aws-us-east-1.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for t in c["instances"]:
    if t["type"] == "p5en.48xlarge":
        t["prices"]["capacity_block"] = {"usd_per_hour": 45.0, "as_of": "2026-11-20",
                                         "source": "test: a Capacity Block offering"}
json.dump(c, open("catalog.json", "w"))
PY
"$GPUSIZER" recommend --today 2026-11-30 --catalog catalog.json --format html \
  -w "$SRC/examples/workloads/training-run.json" -o plan.json \
  "$SRC/reports/examples/h200-quick.json" > plan.html || fail "recommend --format html"
if grep -Eo '(src|href)="[^"]*"' plan.html | grep -q .; then fail "plan.html refers to an outside resource"; fi
grep -qi "<script" plan.html && fail "plan.html has a script"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions --hide-scrollbars \
  --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
  --dump-dom "file://$WORK/plan.html" > plan.dom.html 2> console.txt || fail "chromium could not render plan.html"
if grep -E "CONSOLE|Uncaught|net::ERR" console.txt; then fail "console errors or network requests"; fi
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions --hide-scrollbars \
  --window-size=1000,2400 --screenshot="$ARTIFACTS/plan-training-run.png" "file://$WORK/plan.html" \
  > /dev/null 2>&1 || fail "screenshot"
/usr/bin/python3 - <<'PY' || fail "plan page content"
import json, re
plan = json.load(open("plan.json"))
dom = open("plan.dom.html").read()
rows = plan["options"]
top = rows[0]
# The answer first: the top option, before any chart.
answer = dom.index('class="answer"')
assert answer < dom.index("<svg"), "answer after the charts"
want = "%d × %s" % (top["cost"]["instances"], top["instance_type"])
assert want in dom[answer:answer + 400], want
# One perf/$ bar per ranked option (up to 20), estimated ones in their own class.
bars = re.findall(r'<rect class="bar( estimated)?"', dom)
assert len(bars) == min(20, len(rows)), (len(bars), len(rows))
estimated = sum(1 for r in rows[:20] if r["label"] != "measured")
assert sum(1 for b in bars if b) == estimated, (bars, estimated)
# The reservation window chart: two lines, the break-even marked at the plan's own figure.
cb = [r for r in rows if r["cost"].get("break_even_busy_fraction") is not None]
assert cb, "no reservation option in the plan"
be = cb[0]["cost"]["break_even_busy_fraction"]
assert ("break-even %.0f %% busy" % (100 * be)) in dom, be
assert len(re.findall(r'<path class="line', dom)) == 2
# Excluded options folded by family: one <details> per family.
families = {x["instance_type"].split(".")[0] for x in plan["excluded"]}
assert len(re.findall(r"<details>", dom)) == len(families), families
# Evidence: the report's digest.
assert plan["reports"][0]["sha256"] in dom
# ...and gpusizer verify's verdict on it, as the JSON plan gives it (the example is not signed).
rep = plan["reports"][0]
assert ("not verified</b>:" in dom) == (not rep["verified"]), rep
print("bars", len(bars), "estimated", estimated, "break-even", be, "families", len(families))
PY
echo "screenshot in $ARTIFACTS"
