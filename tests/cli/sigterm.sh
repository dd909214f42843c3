# SIGTERM (a spot interruption notice, the end of a capacity block) mid-suite: the case in flight
# finishes, the rest is recorded as not run with the reason, the report is complete and valid.
source "$(dirname "$0")/lib.sh"
"$GPUSIZER" run --suite quick --no-gpu --filter "memory/" -o r.json --no-progress > /dev/null 2>&1 &
pid=$!
count() { /usr/bin/python3 -c 'import json; print(len(json.load(open("r.json"))["records"]))' 2>/dev/null || echo 0; }
for _ in $(seq 1 600); do
  [ "$(count)" -ge 1 ] && break
  sleep 0.1
done
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ "$rc" = 0 ] || fail "exit code $rc after SIGTERM, expected 0 (nothing failed)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "content"
import json
r = json.load(open("r.json"))
assert r["status"] == "stopped", r["status"]
assert r["finished_at"], "no finish time"
assert r["not_run"], "nothing listed as not run"
assert all(n["reason"] == "interrupted by signal SIGTERM" for n in r["not_run"]), r["not_run"]
assert any("run stopped: interrupted by signal SIGTERM" in w for w in r["warnings"])
assert all(x["status"] == "ok" for x in r["records"]), [x["status"] for x in r["records"]]
PY
echo "sigterm: ok"
