# The signal handler and the report skeleton come first: a SIGTERM in the first seconds (here
# while the metadata service keeps the run waiting) leaves a valid "stopped" report listing every
# planned benchmark as not run, and exit 3.
source "$(dirname "$0")/lib.sh"
cat > silent.py <<'PY'
import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
open("port", "w").write(str(s.getsockname()[1]))
conns = []
s.settimeout(15)
end = time.time() + 15
while time.time() < end:  # accept, never answer
    try:
        conns.append(s.accept()[0])
    except OSError:
        break
PY
/usr/bin/python3 silent.py &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$WORK"' EXIT
wait_for '[ -s port ]' || fail "no server"
args=(run --tiny --imds --no-progress --no-telemetry --filter stream_triad -o r.json)
"$GPUSIZER" "${args[@]}" --list > planned.txt 2>/dev/null
GPUSIZER_IMDS_ENDPOINT=127.0.0.1:$(cat port) "$GPUSIZER" "${args[@]}" > /dev/null 2> err.txt &
pid=$!
wait_for '[ -s r.json ]' || fail "no report skeleton while the run waits for the metadata service"
term_wait $pid
[ "$rc" = 3 ] || fail "exit code $rc after an early SIGTERM, expected 3: $(cat err.txt)"
validate report.schema.json r.json || fail "schema"
/usr/bin/python3 - <<'PY' || fail "content"
import json
r = json.load(open("r.json"))
planned = open("planned.txt").read().split()
assert r["status"] == "stopped", r["status"]
assert not r["records"], r["records"]
assert sorted(n["id"] for n in r["not_run"]) == sorted(planned), (r["not_run"], planned)
assert all(n["reason"] == "interrupted by signal SIGTERM" for n in r["not_run"]), r["not_run"]
assert "run stopped: interrupted by signal SIGTERM" in r["warnings"], r["warnings"]
PY
echo "early_sigterm: ok"
