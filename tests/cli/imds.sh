# --imds asks the EC2 metadata service (IMDSv2) for the instance type; here a fake service on the
# loopback interface answers. Without --imds nothing is asked; an unreachable service is a note,
# not a failure.
source "$(dirname "$0")/lib.sh"
echo '{"/latest/meta-data/instance-type": "p5.48xlarge"}' > answers.json
start_fake_imds answers.json
GPUSIZER_IMDS_ENDPOINT=$imds_endpoint "$GPUSIZER" run --tiny --imds --filter stream_triad --no-progress -o r.json > /dev/null 2> err.txt || fail "run --imds"
kill $imds_pid 2>/dev/null || true
# No signed identity served: the run says the report will not verify.
grep -q "signed instance identity not recorded (/latest/dynamic/instance-identity/document: HTTP 404)" err.txt \
  || fail "no note on the identity: $(cat err.txt)"
/usr/bin/python3 -c '
import json; it = json.load(open("r.json"))["host"]["instance_type"]
assert it == {"value": "p5.48xlarge", "source": "EC2 instance metadata (IMDSv2, --imds)"}, it' || fail "instance type"
# Unreachable service: the run still succeeds and says why on stderr.
GPUSIZER_IMDS_ENDPOINT=127.0.0.1:1 "$GPUSIZER" run --tiny --imds --filter stream_triad --no-progress -o u.json > /dev/null 2> err.txt || fail "run with unreachable IMDS"
grep -q "instance type not recorded" err.txt || fail "no note: $(cat err.txt)"

# A service that trickles its answer a byte at a time: the whole query is bounded (2 s), not each
# read, so the run goes on without the instance type instead of hanging.
cat > trickle.py <<'PY'
import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
open("tport", "w").write(str(s.getsockname()[1]))
s.settimeout(20)
c = s.accept()[0]
c.recv(4096)
end = time.time() + 20
try:
    for b in b"HTTP/1.1 200 OK\r\nX-Padding: " + b"x" * 1000:
        if time.time() > end:
            break
        c.send(bytes([b])); time.sleep(0.2)
except OSError:
    pass
PY
/usr/bin/python3 trickle.py &
trickler=$!
for _ in $(seq 1 100); do [ -s tport ] && break; sleep 0.05; done
start=$(date +%s.%N)
GPUSIZER_IMDS_ENDPOINT=127.0.0.1:$(cat tport) "$GPUSIZER" run --tiny --imds --filter stream_triad --no-progress --no-telemetry -o t.json > /dev/null 2> err.txt || fail "run with a trickling IMDS: $(cat err.txt)"
end=$(date +%s.%N)
kill $trickler 2>/dev/null || true
grep -q "instance type not recorded (IMDSv2 token: no complete answer in time)" err.txt || fail "no note: $(cat err.txt)"
/usr/bin/python3 -c "import sys; e = $end - $start; sys.exit(0 if e < 10 else 'took %.1f s' % e)" || fail "the trickling service held the run"
echo "imds: ok"
