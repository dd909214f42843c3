# --resume of a report from another host, gpusizer version or suite is refused in one line naming
# what differs (exit 2, the report untouched); --allow-mixed-resume adds to it and the report's
# history says which run measured which record.
source "$(dirname "$0")/lib.sh"
tiny=(--no-progress --no-telemetry)
run_rc run --tiny "${tiny[@]}" --filter stream_triad -o r.json
[ "$rc" = 0 ] || fail "first run exited $rc: $(cat err.txt)"
edit() {  # edit <file> <python statement on r>
  /usr/bin/python3 -c "import json; r = json.load(open('$1')); $2; json.dump(r, open('$1', 'w'), indent=2)"
}
cp r.json host.json && edit host.json 'r["host"]["hostname"] = "ip-10-9-8-7"'
cp r.json version.json && edit version.json 'r["tool"]["version"] = "0.0.9"'
for f in host.json version.json; do
  sum=$(sha256sum < $f)
  run_rc run --resume $f "${tiny[@]}" --filter memory/
  [ "$rc" = 2 ] || fail "resume of $f exited $rc, expected 2: $(cat err.txt)"
  one_line err.txt
  [ "$(sha256sum < $f)" = "$sum" ] || fail "$f was changed by a refused resume"
  [ ! -e .$f.lock ] || fail "lock file left"
done
run_rc run --resume host.json "${tiny[@]}"
grep -q "^gpusizer: host.json: --resume: host \"ip-10-9-8-7\" (report) vs \"$(hostname)\" (here); pass --allow-mixed-resume" err.txt || fail "host message: $(cat err.txt)"
run_rc run --resume version.json "${tiny[@]}"
grep -q "^gpusizer: version.json: --resume: gpusizer 0.0.9 (.*) (report) vs gpusizer .* (here); pass --allow-mixed-resume" err.txt || fail "version message: $(cat err.txt)"
run_rc run --resume r.json --suite standard "${tiny[@]}"
[ "$rc" = 2 ] || fail "resume with another suite exited $rc"
grep -q "suite quick-tiny (report) vs standard-tiny (here)" err.txt || fail "suite message: $(cat err.txt)"

# Allowed: the records measured here are this run's, and the report says so.
run_rc run --resume host.json --allow-mixed-resume "${tiny[@]}" --filter memory/
[ "$rc" = 0 ] || fail "--allow-mixed-resume exited $rc: $(cat err.txt)"
validate report.schema.json host.json || fail "schema"
/usr/bin/python3 - "$(hostname)" <<'PY' || fail "mixed report"
import json, sys
r = json.load(open("host.json"))
h = r["history"]
assert len(h) == 2, h
assert h[1]["hostname"] == sys.argv[1] and "ip-10-9-8-7" in h[1]["differs"], h[1]
assert [x["id"] for x in r["records"]][:1] == h[0]["records"], (h[0], [x["id"] for x in r["records"]])
assert set(h[0]["records"]) | set(h[1]["records"]) == {x["id"] for x in r["records"]}
assert not set(h[0]["records"]) & set(h[1]["records"])
assert len(h[1]["records"]) >= 1, h[1]
assert any(w.startswith("resumed with --allow-mixed-resume: host") for w in r["warnings"]), r["warnings"]
assert r["host"]["hostname"] == "ip-10-9-8-7", "the report's own provenance stays the first run's"
PY
echo "foreign_resume: ok"
