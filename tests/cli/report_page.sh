# `show --format html` rendered in a real browser (headless Chromium, Debian's `chromium`):
# no console error, no network request, every chart drawn with the number of marks the report
# implies (counted here from the report's JSON, independently of the page's code), the summary
# and the flag legend present. The screenshot is kept as a test artifact.
source "$(dirname "$0")/lib.sh"
ARTIFACTS=${GPUSIZER_TEST_ARTIFACTS:-$WORK}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: headless Chromium not installed (scripts/setup.sh installs it with the tests)"
  exit 77
fi
for report in "$SRC/reports/examples/h200-quick.json" "$SRC/reports/examples/cpu-amd-epyc-2vcpu-quick.json"; do
  name=$(basename "$report" .json)
  "$GPUSIZER" show "$report" --format html > "$name.html" || fail "show --format html $name"
  # The file itself asks for nothing outside it.
  if grep -Eo '(src|href)="[^"]*"' "$name.html" | grep -v '^href="#' | grep -q .; then
    fail "$name.html refers to an outside resource: $(grep -Eo '(src|href)="[^"]*"' "$name.html" | head -3)"
  fi
  grep -qi "<script" "$name.html" && fail "$name.html has a script"
  # Render: the DOM after load, the console, and a screenshot. --host-resolver-rules makes any
  # network attempt fail loudly in the log instead of leaving the machine.
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions --hide-scrollbars \
    --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
    --dump-dom "file://$WORK/$name.html" > "$name.dom.html" 2> "$name.console.txt" \
    || fail "chromium could not render $name.html"
  if grep -E "CONSOLE|Uncaught|ERR_NAME_NOT_RESOLVED|net::ERR" "$name.console.txt"; then
    fail "console errors or network requests rendering $name.html"
  fi
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-extensions --hide-scrollbars \
    --window-size=1000,2400 --screenshot="$ARTIFACTS/$name.png" "file://$WORK/$name.html" \
    > /dev/null 2>&1 || fail "screenshot of $name.html"
  [ -s "$ARTIFACTS/$name.png" ] || fail "empty screenshot for $name"
  /usr/bin/python3 - "$report" "$name.dom.html" <<'PY' || fail "page content of $name"
import json, re, sys
r = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
measured = [x for x in r["records"] if x["status"] in ("ok", "failed") and x["metrics"]]
def link(x):
    return x["family"] == "memory" and x["target"] != "cpu" and any(
        k in x["operation"] for k in ("h2d", "d2h", "bidirectional"))
# Bars: one per measured record in its family chart (GEMM always bars; memory, I/O and P2P as
# bars when no operation has 3 sizes or more), plus one per record with a board-power reading.
by_op = {}
for x in measured:
    by_op.setdefault((x["family"], x["operation"], x["target"]), []).append(x)
bar_records = [x for x in measured if x["family"] == "gemm" or
               (x["family"] != "collectives" and
                all(len(v) < 3 for k, v in by_op.items() if k[0] == x["family"]))]
powered = [x for x in measured if (x.get("telemetry") or {}).get("power_mean_watts") is not None]
bars = len(re.findall(r'<rect class="bar[" ]', dom))
assert bars == len(bar_records) + len(powered), (bars, len(bar_records), len(powered))
peaks = len(re.findall(r'<line class="peak"', dom))
with_peak = [x for x in bar_records if any(m["name"] == "fraction_of_peak" for m in x["metrics"])]
assert peaks == len(with_peak), (peaks, len(with_peak))
charts = len(re.findall(r"<svg ", dom))
families = {x["family"] + ("/link" if link(x) else "") for x in measured}
assert charts == len(families) + (1 if powered else 0), (charts, families)
for text in ("Status", "GPUs", "Report file", "SHA-256", r["suite"]):
    assert text in dom, text
flags = {f for x in r["records"] for f in x.get("flags", [])}
if flags:
    assert "<h3>Flags</h3>" in dom
    for f in flags:
        assert "<code>%s</code>" % f in dom, f
# Every measured record has a row, and a blank power cell says why.
assert dom.count("<tr><td>") >= len(r["records"]) + len(r["targets"])
if any(x not in powered for x in measured):
    assert "No power figure:" in dom
print(f"{sys.argv[1].split('/')[-1]}: {bars} bars, {peaks} peak ticks, {charts} charts")
PY
done
echo "screenshots in $ARTIFACTS"
