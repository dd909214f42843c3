# compare tells noise from a difference (issue 12 §3): two runs of the same tiny CPU suite agree
# where their samples overlap, a report edited to run twice as slow is "slower (p = …)", the
# verdicts and p-values are the Mann-Whitney U test's (recomputed here, independently of the C++),
# columns are headed by short names with a legend, every record carries the load average, and
# the table fits COLUMNS.
source "$(dirname "$0")/lib.sh"
FILTER='memory/stream_(triad|copy)|gemm/fp32'
for name in a b; do
  "$GPUSIZER" run --tiny --no-gpu --no-progress --filter "$FILTER" --benchmark_repetitions=3 \
    -o $name.json > /dev/null 2> err.txt ||
    fail "run $name exited $?: $(cat err.txt)"
done
validate report.schema.json a.json || fail "a.json does not validate"
# Edited copies of a.json: every per-op time twice as long (the headline rate halved), half as
# long (doubled), and the same samples in reverse order.
/usr/bin/python3 - <<'PY' || fail "editing the reports"
import json
a = json.load(open("a.json"))
for r in a["records"]:
    assert "load_average" in r, r["id"]
    assert 0 <= r["load_average"]["start"] and 0 <= r["load_average"]["end"], r["load_average"]
def edited(factor, reverse=False):
    r = json.load(open("a.json"))
    for x in r["records"]:
        if "timing" not in x:
            continue
        s = [v * factor for v in x["timing"]["samples_seconds"]]
        x["timing"]["samples_seconds"] = s[::-1] if reverse else s
        x["metrics"][0]["value"] /= factor
    return r
json.dump(edited(2.0), open("slow.json", "w"))
json.dump(edited(0.5), open("fast.json", "w"))
json.dump(edited(1.0, reverse=True), open("same.json", "w"))
PY
for other in b slow fast same; do
  "$GPUSIZER" compare a.json $other.json > $other.txt 2> err.txt || fail "compare $other: $(cat err.txt)"
  "$GPUSIZER" compare a.json $other.json --format json > $other.out.json 2> err.txt ||
    fail "compare $other --format json: $(cat err.txt)"
done
/usr/bin/python3 - <<'PY' || fail "compare's verdicts: $(cat b.txt slow.txt)"
import json, math

def mann_whitney_p(a, b):
    # Two-sided Mann-Whitney U, normal approximation with tie and continuity corrections
    # (scipy.stats.mannwhitneyu(a, b, method="asymptotic")), written from the textbook formulas.
    values = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks, ties, i = {}, 0.0, 0
    rank_sum_a = 0.0
    while i < len(values):
        j = i
        while j < len(values) and values[j][0] == values[i][0]:
            j += 1
        mean_rank = (i + 1 + j) / 2
        rank_sum_a += mean_rank * sum(1 for k in range(i, j) if values[k][1] == 0)
        ties += (j - i) ** 3 - (j - i)
        i = j
    n1, n2 = len(a), len(b)
    u1 = rank_sum_a - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:
        return u1, 1.0
    z = (u - n1 * n2 / 2 - 0.5) / sigma
    return u1, min(1.0, math.erfc(z / math.sqrt(2)))

def smallest_p(n1, n2):
    return mann_whitney_p(list(range(n1)), list(range(n1, n1 + n2)))[1]

a = {r["id"]: r for r in json.load(open("a.json"))["records"]}
def check(name, expect):
    other = {r["id"]: r for r in json.load(open(name + ".json"))["records"]}
    rows = {row["id"]: row for row in json.load(open(name + ".out.json"))}
    text = open(name + ".txt").read()
    verdicts = []
    for rid, r in a.items():
        if r["status"] != "ok":
            continue
        x, y = r["timing"]["samples_seconds"], other[rid]["timing"]["samples_seconds"]
        got = rows[rid]["values"][1]
        if smallest_p(len(x), len(y)) >= 0.05:
            assert got["verdict"] == "too_few_samples" and got["p_value"] is None, (name, rid, got)
            continue
        u1, p = mann_whitney_p(x, y)
        assert abs(got["p_value"] - p) < 1e-9, (name, rid, got["p_value"], p)
        verdict = "same_within_noise" if p >= 0.05 else ("faster" if u1 > len(x) * len(y) / 2 else "slower")
        assert got["verdict"] == verdict, (name, rid, got, verdict)
        if expect:
            assert verdict == expect, (name, rid, verdict, p)
        shown = {"same_within_noise": "same within noise",
                 "faster": "faster (%s)", "slower": "slower (%s)"}[verdict]
        if verdict != "same_within_noise":
            shown %= "p < 0.001" if p < 0.001 else "p = %.3f" % p
        assert any(shown in l for l in text.splitlines()), (name, rid, shown, text)
        verdicts.append(verdict)
    assert verdicts, (name, "no row had enough samples to test")
    return verdicts

# Two real runs: whatever the machine did, each verdict is the test's (printed for the log).
print("a vs b:", check("b", None))
check("same", "same_within_noise")   # the same samples: nothing to tell apart
check("slow", "slower")              # twice as long per operation
check("fast", "faster")
# Short names: both runs are this host's, told apart by #1 and #2, with a legend.
host = json.load(open("a.json"))["host"]["hostname"]
text = open("slow.txt").read().splitlines()
assert text[0] == f"report 1, {host}#1: a.json", text[0]
assert text[1] == f"report 2, {host}#2: slow.json", text[1]
assert f"  {host}#1  " in text[2] and "ratio 2/1  2 vs 1" in text[2], text[2]
assert "a.json" not in text[2] and "slow.json" not in text[2], "a file name in the header: " + text[2]
# A difference between two runs of one machine is noisy: the load average of both is shown.
loads = [l for l in text if l.startswith("load: ")]
assert loads and all(f"{host}#1 " in l and f"{host}#2 " in l and "->" in l for l in loads), text
# The same samples: noisy only where a record is flagged high_variance (CV > 5 %).
flagged = sum("high_variance" in r["flags"] for r in a.values() if r["status"] == "ok")
same_loads = [l for l in open("same.txt") if l.startswith("load: ")]
assert len(same_loads) == flagged, (flagged, same_loads)
PY
# The table fits COLUMNS: the figures and verdicts stay whole, the benchmark names are cut.
COLUMNS=100 "$GPUSIZER" compare a.json slow.json > narrow.txt 2> err.txt || fail "compare with COLUMNS"
/usr/bin/python3 - <<'PY' || fail "COLUMNS=100: $(cat narrow.txt)"
lines = open("narrow.txt", encoding="utf-8").read().splitlines()
table = [l for l in lines[2:] if not l.startswith(("load: ", "* "))]
wide = [l for l in open("slow.txt", encoding="utf-8").read().splitlines()[2:]
        if not l.startswith(("load: ", "* "))]
assert max(map(len, wide)) > 100, "the table already fits: make its rows wider"
assert max(map(len, table)) <= 100, [l for l in table if len(l) > 100]
assert any("\u2026" in l for l in table), table
assert sum("slower (p " in l for l in table) == sum("slower (p " in l for l in wide)
PY
"$GPUSIZER" compare a.json slow.json --format csv | head -1 |
  grep -qx "benchmark,parameters,unit,a.json,slow.json,ratio 2/1,2 vs 1" || fail "csv header"
"$GPUSIZER" compare a.json slow.json --format md | grep -q "^- report 2, .*#2: slow.json$" ||
  fail "markdown legend"
echo "compare_noise: ok"
