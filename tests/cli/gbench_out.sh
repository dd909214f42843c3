# --benchmark_out: the file gpusizer writes has Google Benchmark 1.7.1's own JSON layout (keys of
# the context, of iteration runs and of aggregates, as in a real 1.7.1 output), one entry per
# repetition plus mean/median/stddev/cv, and its numbers agree with the gpusizer report: the
# iteration time is the median per-op time, and bytes_per_second = bytes per op / that time.
source "$(dirname "$0")/lib.sh"
"$GPUSIZER" run --tiny --no-progress --filter 'memory/(memcpy|stream_triad)' -o r.json \
  --benchmark_repetitions=2 --benchmark_out=gb.json > /dev/null 2>&1 || fail "run"
/usr/bin/python3 - "$SRC/tests/golden/gbench-1.7.1-manual-time.json" <<'PY' || fail "layout/values"
import json, sys
golden = json.load(open(sys.argv[1]))
ours = json.load(open("gb.json"))
report = json.load(open("r.json"))
assert set(ours["context"]) == set(golden["context"]), (set(ours["context"]) ^ set(golden["context"]))
def keys(doc, run_type):
    return {frozenset(b) for b in doc["benchmarks"] if b["run_type"] == run_type}
g_iter, g_agg = keys(golden, "iteration"), keys(golden, "aggregate")
for b in ours["benchmarks"]:
    k = frozenset(b)
    ref = g_iter if b["run_type"] == "iteration" else g_agg
    assert any(k == r for r in ref), (b["name"], sorted(k ^ next(iter(ref))))
records = {r["id"]: r for r in report["records"]}
assert len(records) == 2, list(records)
for rid, rec in records.items():
    runs = [b for b in ours["benchmarks"] if b["run_name"].startswith(rid + "/")]
    iters = [b for b in runs if b["run_type"] == "iteration"]
    aggs = sorted(b["aggregate_name"] for b in runs if b["run_type"] == "aggregate")
    assert len(iters) == 2 and aggs == ["cv", "mean", "median", "stddev"], (rid, len(iters), aggs)
    assert rec["repetitions"] == 2
    for b in iters:
        assert b["name"].endswith("/manual_time") and b["time_unit"] == "ms", b["name"]
        seconds = b["real_time"] / 1e3
        assert abs(b["bytes_per_second"] * seconds - rec["bytes_per_op"]) <= 1e-6 * rec["bytes_per_op"], b
    # Every per-repetition median lies within the record's samples.
    lo, hi = min(rec["timing"]["samples_seconds"]), max(rec["timing"]["samples_seconds"])
    for b in iters:
        assert lo * (1 - 1e-9) <= b["real_time"] / 1e3 <= hi * (1 + 1e-9), (b["real_time"], lo, hi)
PY
echo "gbench_out: ok"
