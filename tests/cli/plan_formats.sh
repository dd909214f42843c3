# `recommend` in every format (table, md, json, csv, html) on the 14-day training example with a
# Capacity Block offering added for p5en.48xlarge: each format states the break-even busy
# fraction, the window costs, the Capacity Block's start and end and the 30-minute early
# termination. Expected figures are computed here from the catalog prices and the counts, not
# read from the plan's own text; the CSV is read back with python's csv module.
source "$(dirname "$0")/lib.sh"
/usr/bin/python3 - "$SRC/data/catalog/aws-us-east-1.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for t in c["instances"]:
    if t["type"] == "p5en.48xlarge":
        # 336 h, 33 instances, $498,960 upfront: $45.00 per instance-hour.
        t["prices"]["capacity_block"] = {
            "usd_per_hour": 45.0, "as_of": "2026-11-20",
            "source": "test: a Capacity Block offering",
            "offering": {"id": "cbro-0123456789abcdef0", "availability_zone": "us-east-1a",
                         "start_date": "2026-12-03T11:30:00Z", "end_date": "2026-12-17T11:30:00Z",
                         "instance_count": 33, "duration_hours": 336, "upfront_fee_usd": 498960}}
json.dump(c, open("catalog.json", "w"))
PY
for f in table md json csv html; do
  "$GPUSIZER" recommend --today 2026-11-30 --catalog catalog.json --format $f \
    -w "$SRC/examples/workloads/training-run.json" "$SRC/reports/examples/h200-quick.json" \
    > "plan.$f" || fail "recommend --format $f"
done
validate plan.schema.json plan.json > /dev/null || fail "plan.json does not match the schema"
/usr/bin/python3 - "$SRC/data/catalog/aws-us-east-1.json" <<'PY' || fail "plan formats"
import csv, html, json, re, sys
catalog = json.load(open(sys.argv[1]))
od = next(t for t in catalog["instances"] if t["type"] == "p5en.48xlarge")["prices"]["on_demand"]
od_hourly = od["usd_per_hour"]
plan = json.load(open("plan.json"))
cb = [o for o in plan["options"] if o["cost"]["option"] == "capacity_block"]
assert len(cb) == 1, [o["cost"]["option"] for o in plan["options"]]
n = cb[0]["cost"]["instances"]
days, busy = 14, 0.9
break_even = 45.0 / od_hourly
window = n * 45.0 * days * 24
od_window = n * od_hourly * days * 24 * busy


def usd(v):  # "$1,234.56", as people read money
    return "${:,.2f}".format(v)


def four(v):  # four significant digits, no exponent
    return "{:.4g}".format(v)


texts = {f: open("plan." + f).read() for f in ("table", "md", "html")}
texts["html"] = html.unescape(re.sub(r"<[^>]+>", " ", texts["html"]))
for f, t in texts.items():
    for want in ("break-even busy fraction " + four(break_even), usd(window), usd(od_window),
                 "starts 2026-12-03T11:30:00Z", "ends 2026-12-17T11:30:00Z",
                 "termination starts 2026-12-17T11:00:00Z", "30 minutes before the end",
                 "ends at 11:30 UTC", "400,000 tokens/s"):
        assert want in t, (f, want)
    assert not re.search(r"\b\d(\.\d+)?e[+-]\d\d\b", t), (f, re.findall(r"\S*\de[+-]\d\d\S*", t))
# JSON: the same facts as numbers and fields.
c = cb[0]["cost"]
assert abs(c["break_even_busy_fraction"] - break_even) < 1e-12
assert abs(c["window_usd"] - window) < 1e-6 and abs(c["on_demand_window_usd"] - od_window) < 1e-6
s = c["capacity_block_schedule"]
assert s["start"] == "2026-12-03T11:30:00Z" and s["end"] == "2026-12-17T11:30:00Z", s
assert s["termination_starts"] == "2026-12-17T11:00:00Z", s
assert s["ends_at_utc"] == "11:30" and s["termination_starts_minutes_before_end"] == 30, s
assert s["billed_hours"] == 336 and s["usable_hours"] == 335.5, s
# Markdown starts with the header a request needs.
md = texts["md"]
assert md.startswith("# gpusizer plan\n"), md[:80]
head = md[: md.index("## Sizing plan")]
for key in ("| date ", "| tool version ", "| host ", "| instance type ", "| suite ", "| measured "):
    assert key in head, key
assert "| 2026-11-30" in head and "gpusizer " + plan["tool_version"] in head
assert "| quick" in head and plan["reports"][0]["sha256"] in head
# Excluded options folded by family: one g4dn line for its seven sizes.
table = texts["table"]
g4dn = [l for l in table.splitlines() if l.strip().startswith("- g4dn")]
assert len(g4dn) == 1 and g4dn[0].count("xlarge") == 6, g4dn
# CSV: one row per ranked option, numbers as numbers.
rows = list(csv.DictReader(open("plan.csv", newline="")))
assert len(rows) == len(plan["options"]), (len(rows), len(plan["options"]))
for row, opt in zip(rows, plan["options"]):
    assert row["instance_type"] == opt["instance_type"] and row["option"] == opt["cost"]["option"]
    k = int(row["instances"])
    price = float(row["price_usd_per_hour"])
    assert abs(float(row["usd_per_hour"]) - k * price) < 1e-9 * k * price, row
    assert abs(float(row["window_usd"]) - float(opt["cost"]["window_usd"])) < 1e-6
    for col in ("usd_per_hour", "usd_per_month", "window_usd", "units_per_dollar"):
        assert re.fullmatch(r"-?\d+(\.\d+)?", row[col]), (col, row[col])
cbrow = next(r for r in rows if r["option"] == "capacity_block")
assert abs(float(cbrow["break_even_busy_fraction"]) - break_even) < 1e-12
assert abs(float(cbrow["window_usd"]) - window) < 1e-6
assert abs(float(cbrow["on_demand_window_usd"]) - od_window) < 1e-6
assert cbrow["block_start"] == "2026-12-03T11:30:00Z" and cbrow["block_end"] == "2026-12-17T11:30:00Z"
assert cbrow["block_ends_at_utc"] == "11:30" and cbrow["termination_minutes_before_end"] == "30"
assert float(cbrow["block_usable_hours"]) == 335.5 and cbrow["unit"] == "tokens"
print("instances", n, "break-even", four(break_even), "window", usd(window), "rows", len(rows))
PY
# A format recommend does not write is exit 2 with one line.
run_rc recommend --format xml -w "$SRC/examples/workloads/training-run.json"
[ "$rc" = 2 ] || fail "--format xml: exit $rc"
one_line err.txt
