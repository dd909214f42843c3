# --imds asks the EC2 metadata service (IMDSv2) for the instance type; here a fake service on the
# loopback interface answers. Without --imds nothing is asked; an unreachable service is a note,
# not a failure.
source "$(dirname "$0")/lib.sh"
cat > server.py <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def answer(self, code, body):
        self.send_response(code); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body.encode())
    def do_PUT(self):
        ok = self.path == "/latest/api/token" and self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
        self.answer(200 if ok else 400, "TOKEN123" if ok else "")
    def do_GET(self):
        ok = self.path == "/latest/meta-data/instance-type" and self.headers.get("X-aws-ec2-metadata-token") == "TOKEN123"
        self.answer(200 if ok else 401, "p5.48xlarge" if ok else "")
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open("port", "w").write(str(s.server_address[1]))
s.timeout = 20
for _ in range(4): s.handle_request()
PY
/usr/bin/python3 server.py &
server=$!
for _ in $(seq 1 100); do [ -s port ] && break; sleep 0.05; done
port=$(cat port)
GPUSIZER_IMDS_ENDPOINT=127.0.0.1:$port "$GPUSIZER" run --tiny --imds --filter stream_triad --no-progress -o r.json > /dev/null 2>&1 || fail "run --imds"
kill $server 2>/dev/null || true
/usr/bin/python3 -c '
import json; it = json.load(open("r.json"))["host"]["instance_type"]
assert it == {"value": "p5.48xlarge", "source": "EC2 instance metadata (IMDSv2, --imds)"}, it' || fail "instance type"
# Unreachable service: the run still succeeds and says why on stderr.
GPUSIZER_IMDS_ENDPOINT=127.0.0.1:1 "$GPUSIZER" run --tiny --imds --filter stream_triad --no-progress -o u.json > /dev/null 2> err.txt || fail "run with unreachable IMDS"
grep -q "instance type not recorded" err.txt || fail "no note: $(cat err.txt)"
echo "imds: ok"
