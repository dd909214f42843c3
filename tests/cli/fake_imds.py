# A fake EC2 instance metadata service (IMDSv2) on the loopback interface, for the CLI tests.
# PUT /latest/api/token with the TTL header gives the token TOKEN123; a GET with that token is
# answered from the JSON map given (path -> body), else 401 (no or another token) or 404.
# usage: fake_imds.py <answers.json> <port file> <requests to serve>
import http.server
import json
import sys

answers = json.load(open(sys.argv[1]))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_PUT(self):
        ok = self.path == "/latest/api/token" and self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
        self.answer(200 if ok else 400, "TOKEN123" if ok else "")

    def do_GET(self):
        if self.headers.get("X-aws-ec2-metadata-token") != "TOKEN123":
            self.answer(401, "")
        elif self.path not in answers:
            self.answer(404, "")
        else:
            self.answer(200, answers[self.path])


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
open(sys.argv[2], "w").write(str(server.server_address[1]))
server.timeout = 20
for _ in range(int(sys.argv[3])):
    server.handle_request()
