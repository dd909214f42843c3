# SIGKILL mid-suite, then --resume: every planned benchmark ends up recorded exactly once, and
# nothing finished before the kill is lost.
source "$(dirname "$0")/lib.sh"
args=(run --suite quick --no-gpu --filter "memory/" --benchmark_min_time=0.02 -o r.json --no-progress)
"$GPUSIZER" "${args[@]}" --list > planned.txt 2>/dev/null
sort -o planned.txt planned.txt
[ -s planned.txt ] || fail "nothing planned"
"$GPUSIZER" "${args[@]}" > /dev/null 2>&1 &
pid=$!
count() { /usr/bin/python3 -c 'import json; print(len(json.load(open("r.json"))["records"]))' 2>/dev/null || echo 0; }
for _ in $(seq 1 600); do
  [ "$(count)" -ge 2 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
before=$(count)
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
total=$(wc -l < planned.txt)
echo "killed with $before of $total recorded"
[ "$before" -ge 1 ] || fail "nothing recorded before the kill"
validate report.schema.json r.json || fail "checkpoint after SIGKILL does not validate"
cp r.json before.json
"$GPUSIZER" run --resume r.json --no-progress > /dev/null 2>&1 || fail "resume failed"
/usr/bin/python3 - <<'PY' || fail "resume content"
import json
before = json.load(open("before.json"))["records"]
after = json.load(open("r.json"))
ids = [r["id"] for r in after["records"]]
planned = open("planned.txt").read().split()
assert len(ids) == len(set(ids)), "a benchmark was recorded twice"
assert sorted(ids) == sorted(planned), (sorted(set(planned) - set(ids)), sorted(set(ids) - set(planned)))
kept = {r["id"]: r for r in after["records"]}
for r in before:  # finished results survive the kill unchanged
    assert kept[r["id"]] == r, r["id"]
assert after["status"] == "complete", after["status"]
PY
validate report.schema.json r.json || fail "resumed report does not validate"
echo "kill_resume: ok"
