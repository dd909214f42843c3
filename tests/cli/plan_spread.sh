# Plans with error bars through the real CLI: the committed H200 report with the samples of its
# device-memory records spread +-10% (noisy), and again with every sample equal (noiseless), sized
# on a catalog of p5en.48xlarge and a made-up 4-GPU H200 type at 0.7 x its price (spread_inputs.py).
# Noisy: 8272 tokens/s per replica at the point, about 7590 at p5 and 9090 at p95; 39000 tokens/s
# at utilization 0.6 need 8 replicas at the point and at p95 (p5en: 1 + 1 = 2 instances; the
# 4-GPU type: 2 + 1 = 3) and 9 at p5 (3 and 4). At the point 2 x p5en (2 x 63.296) is cheaper than
# 3 x 4-GPU (3 x 44.3072); at p5 4 x 4-GPU (177.23) is cheaper than 3 x p5en (189.89): the order
# flips inside the measurement, so the two are indistinguishable. Noiseless: no range, no tie.
# usage: bash plan_spread.sh <gpusizer> <source dir>
source "$(dirname "$0")/lib.sh"
/usr/bin/python3 "$SRC/tests/cli/spread_inputs.py" "$SRC"
plan() {  # plan <report> <format>: the plan on stdout
  "$GPUSIZER" recommend --today 2026-11-30 --catalog catalog.json --workload w.json \
    --format "$2" "$1" 2> err.txt || fail "recommend $1 $2: $(cat err.txt)"
}
plan noisy.json table > noisy.txt
plan noisy.json json > noisy-plan.json
plan exact.json json > exact-plan.json
validate plan.schema.json noisy-plan.json || fail "the noisy plan does not validate"
validate plan.schema.json exact-plan.json || fail "the noiseless plan does not validate"
grep -q "Measurement spread (p5-p95 of the samples)" noisy.txt || fail "no spread section: $(cat noisy.txt)"
grep -q "#1 p5en.48xlarge on_demand: .* 2 instance(s) (3 at p5, 2 at p95)" noisy.txt ||
  fail "no count range: $(cat noisy.txt)"
grep -q "2 instances; 3 if the rate is at the low end of what was measured (p5)" noisy.txt ||
  fail "no count note: $(cat noisy.txt)"
grep -q "indistinguishable within the measurement from #2" noisy.txt || fail "no tie: $(cat noisy.txt)"
grep -q "the top plan is indistinguishable within the measurement" noisy.txt ||
  fail "the summary does not say the top plan ties: $(cat noisy.txt)"
/usr/bin/python3 - <<'PY' || fail "plan spread content"
import json
noisy = json.load(open("noisy-plan.json"))["options"]
assert [o["instance_type"] for o in noisy] == ["p5en.48xlarge", "p5h.24xlarge"], noisy
top, other = noisy[0]["measurement_spread"], noisy[1]["measurement_spread"]
rate = noisy[0]["units_per_second_per_replica"]
r = top["units_per_second_per_replica"]
assert r["low"] < 0.95 * rate < 1.05 * rate < r["high"], (r, rate)
assert top["instances"] == {"at_low_rate": 3, "at_high_rate": 2}, top["instances"]
assert other["instances"] == {"at_low_rate": 4, "at_high_rate": 3}, other["instances"]
assert top["indistinguishable_from"] == [2] and other["indistinguishable_from"] == [1]
exact = json.load(open("exact-plan.json"))["options"]
for o in exact:
    s = o["measurement_spread"]
    assert s["available"], s
    for key in ("units_per_second_per_replica", "usd_per_month", "units_per_dollar", "rank_usd"):
        assert s[key]["low"] == s[key]["high"], (key, s[key])
    assert s["indistinguishable_from"] == [], s
PY
echo "plan spread ok"
