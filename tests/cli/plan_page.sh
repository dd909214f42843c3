# `recommend --format html` rendered in headless Chromium: the answer first, the perf/$ chart
# with one bar per ranked option (estimates in their own colour), the break-even chart for a
# reservation window with the break-even marked, excluded options folded by family; no console
# error, no network request. Inputs: the committed H200 report, the shipped catalog with a
# Capacity Block price added for p5en.48xlarge (H200), the example training workload (every option
# estimated: each says it has no measured spread). Then the measurement spread (docs/sizing.md
# step 11) on the noisy inputs of plan_spread.sh (spread_inputs.py): the p5-p95 ranges under the
# figures, the count note and the ties, with the figures plan_spread.sh derives.
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
# render <page.html> <screenshot.png> <height>: the DOM to <page>.dom.html (no console error, no
# network request), then a screenshot 1000 px wide.
render() {
  local chromium=(timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage
    --no-first-run --disable-extensions --hide-scrollbars)
  if grep -Eo '(src|href)="[^"]*"' "$1" | grep -q .; then fail "$1 refers to an outside resource"; fi
  grep -qi "<script" "$1" && fail "$1 has a script"
  "${chromium[@]}" --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
    --dump-dom "file://$PWD/$1" > "${1%.html}.dom.html" 2> console.txt || fail "chromium could not render $1"
  if grep -E "CONSOLE|Uncaught|net::ERR" console.txt; then fail "$1: console errors or network requests"; fi
  "${chromium[@]}" --window-size=1000,"$3" --screenshot="$2" "file://$PWD/$1" > /dev/null 2>&1 ||
    fail "screenshot of $1"
}
render plan.html "$ARTIFACTS/plan-training-run.png" 2400
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
# Every option here is estimated: the answer and each row say there is no measured spread.
assert all(not r["measurement_spread"]["available"] for r in rows)
assert "no measured spread (" + rows[0]["measurement_spread"]["why_not"] + ")" in dom[answer:]
assert dom.count('>no measured spread</span>') == len(rows), dom.count('>no measured spread</span>')
print("bars", len(bars), "estimated", estimated, "break-even", be, "families", len(families))
PY
/usr/bin/python3 "$SRC/tests/cli/spread_inputs.py" "$SRC"
"$GPUSIZER" recommend --today 2026-11-30 --catalog catalog.json --workload w.json --format html \
  -o spread-plan.json noisy.json > spread.html || fail "recommend --format html (noisy)"
render spread.html "$ARTIFACTS/plan-spread.png" 1400
/usr/bin/python3 - <<'PY' || fail "plan page spread"
import json, re
plan = json.load(open("spread-plan.json"))
dom = open("spread.dom.html").read()
def money(v):
    return "${:,.2f}".format(v)
# plan_spread.sh: 2 x p5en.48xlarge ($63.296/h) at the point and at p95, 3 at p5; 3 x p5h.24xlarge
# ($44.3072/h) at the point and at p95, 4 at p5; 730 h/month; the two tie.
p5en, p5h, hours = 63.296, 63.296 * 0.7, 730
answer = dom[dom.index('class="answer"'):dom.index("</dl>")]
assert "<dt>Count</dt><dd>2 instances; 3 if the rate is at the low end of what was measured (p5)</dd>" \
    in answer, answer
assert "(%s-%s at p5-p95)" % (money(2 * p5en * hours), money(3 * p5en * hours)) in answer, answer
assert re.search(r"indistinguishable within the measurement</b> from #2 3 × p5h\.24xlarge on_demand",
                 answer), answer
table = dom[dom.index("<h3>Ranked options</h3>"):dom.index("<h3>Evidence</h3>")]
trs = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]
assert len(trs) == 2, len(trs)
def number(text):
    return float(text.replace(",", "").replace("$", ""))
for tr, option, count, (n_low, n_high), price, tie in (
        (trs[0], plan["options"][0], 2, (3, 2), p5en, "#2"),
        (trs[1], plan["options"][1], 3, (4, 3), p5h, "#1")):
    cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
    rank, name, basis, per_hour, per_month, per_dollar = cells[:6]
    assert re.search(r'<span class="tie"[^>]*>≈ %s</span>' % tie, rank), rank
    assert "%d at p5, %d at p95" % (n_low, n_high) in name, name
    assert "no measured spread" not in basis, basis
    ranges = re.findall(r'<span class="range"[^>]*>([^<]*)</span>', per_month)
    assert ranges == ["%s-%s" % (money(count * price * hours), money(n_low * price * hours))], (
        ranges, per_month)
    # perf/$: the page's range is the plan's, in four significant digits, around the point.
    low, high = map(number, re.findall(r'<span class="range"[^>]*>([\d,.]+)-([\d,.]+)</span>',
                                        per_dollar)[0])
    spread = option["measurement_spread"]["units_per_dollar"]
    assert abs(low / spread["low"] - 1) < 1e-3 and abs(high / spread["high"] - 1) < 1e-3, (
        low, high, spread)
    assert low < option["cost"]["units_per_dollar"] < high, (low, high, option["cost"])
# Every option's spread line, folded under the table, as the text plan gives it.
assert '<details class="spread">' in table and "indistinguishable within the measurement from #2" in table
print("spread page: ranges, count note and ties shown")
PY
echo "screenshot in $ARTIFACTS"
