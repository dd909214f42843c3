# gpusizer verify: a report measured with --imds (a fake IMDS serves an identity document signed
# by a test CA made here with the openssl CLI) verifies; an edited figure, a swapped instance
# type, a signature by another region's key, a truncated signature, an unlisted region, a forged
# chain over an implausible figure and a merge of an edited report each fail with their own line
# and exit code 5. Skipped (77) without the openssl CLI or when gpusizer was built without OpenSSL.
source "$(dirname "$0")/lib.sh"
command -v openssl > /dev/null || { echo "SKIP: no openssl command"; exit 77; }
# Two "regions", each with its own self-signed certificate, as AWS has.
for region in us-east-1 eu-west-1; do
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$region.key" -out "$region.pem" -days 2 \
    -subj "/O=gpusizer test CA/CN=$region" 2> /dev/null || fail "openssl req ($region)"
done
/usr/bin/python3 - <<'PY'
import json
pem = lambda r: open(r + ".pem").read()
json.dump({"kind": "gpusizer.identity-certificates", "source": {"page": "made by verify.sh"},
           "retrieved": "2026-01-01",
           "certificates": [{"regions": ["us-east-1"], "pem": pem("us-east-1")},
                            {"regions": ["eu-west-1"], "pem": pem("eu-west-1")}]},
          open("certs.json", "w"))
PY
# sign <document> <key region> <out>: PKCS7 as IMDS serves it (base64 DER, no PEM armour).
sign() {
  openssl smime -sign -binary -nodetach -in "$1" -signer "$2.pem" -inkey "$2.key" -outform PEM \
    2> /dev/null | grep -v -- '-----' | tr -d '\n' > "$3" || fail "openssl smime -sign"
}
printf '{\n  "accountId" : "123456789012",\n  "instanceId" : "i-0abc",\n  "instanceType" : "p5.48xlarge",\n  "pendingTime" : "2020-01-01T00:00:00Z",\n  "region" : "us-east-1"\n}' > document
sign document us-east-1 pkcs7
/usr/bin/python3 - <<'PY'
import json
json.dump({"/latest/meta-data/instance-type": "p5.48xlarge",
           "/latest/dynamic/instance-identity/document": open("document").read(),
           "/latest/dynamic/instance-identity/pkcs7": open("pkcs7").read()}, open("answers.json", "w"))
PY
start_fake_imds answers.json
GPUSIZER_IMDS_ENDPOINT=$imds_endpoint "$GPUSIZER" run --tiny --imds --filter stream_triad \
  --no-progress --no-telemetry -o r.json > /dev/null 2> err.txt || fail "run --imds: $(cat err.txt)"
kill $imds_pid 2> /dev/null || true
validate report.schema.json r.json || fail "the report with an identity does not validate"
/usr/bin/python3 -c '
import json; it = json.load(open("r.json"))["host"]["instance_type"]
assert it["identity"]["document"] == open("document").read(), it
assert it["identity"]["pkcs7"] == open("pkcs7").read(), it' || fail "identity not embedded as served"

# verify_rc <report> [args]: runs verify with the test certificates; sets rc, output in out.txt.
verify_rc() { run_rc verify --certificates certs.json "$@"; }
verify_rc r.json
grep -q "signature checking was not built" out.txt && { echo "SKIP: built without OpenSSL"; exit 77; }
[ "$rc" = 0 ] || fail "honest report: exit $rc: $(cat out.txt err.txt)"
grep -qx "r.json: verified" out.txt || fail "honest report: $(cat out.txt)"
grep -q "^r.json: ok: identity: signed by the AWS certificate for us-east-1: p5.48xlarge i-0abc in us-east-1, account 123456789012" out.txt \
  || fail "identity line: $(cat out.txt)"
grep -q "^r.json: ok: record chain: [0-9]* targets and [1-9][0-9]* records as gpusizer wrote them" out.txt \
  || fail "chain line: $(cat out.txt)"
! grep -q FAILED out.txt || fail "honest report has a failed finding: $(cat out.txt)"

# edit <out> <python statement on r>: a copy of r.json with one change.
edit() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open("r.json"))
identity = r["host"]["instance_type"]["identity"]
exec(sys.argv[2])
json.dump(r, open(sys.argv[1], "w"), indent=2)
PY
}
# expect_failure <report> <line>: verify exits 5, says NOT verified and prints the line.
expect_failure() {
  verify_rc "$1"
  [ "$rc" = 5 ] || fail "$1: exit $rc, expected 5: $(cat out.txt err.txt)"
  grep -qx "$1: NOT verified" out.txt || fail "$1: no verdict: $(cat out.txt)"
  grep -qF "$1: FAILED: $2" out.txt || fail "$1: expected \"$2\", got: $(cat out.txt)"
}
id=$(/usr/bin/python3 -c 'import json; print(json.load(open("r.json"))["records"][0]["id"])')
edit figure.json 'r["records"][0]["metrics"][0]["value"] *= 1.02'
expect_failure figure.json "record chain: record $id: changed after it was written"
edit type.json 'r["host"]["instance_type"]["value"] = "p4d.24xlarge"'
expect_failure type.json "identity: instance type p4d.24xlarge in the report, p5.48xlarge in the signed identity document"
sign document eu-west-1 other-key
edit wrong-key.json 'identity["pkcs7"] = open("other-key").read()'
expect_failure wrong-key.json "identity: signature does not verify with the certificate for region us-east-1 (certs.json)"
edit truncated.json 'identity["pkcs7"] = identity["pkcs7"][: len(identity["pkcs7"]) // 2]'
expect_failure truncated.json "identity: signature unreadable: truncated or not PKCS7"
edit region.json 'identity["document"] = identity["document"].replace("us-east-1", "eu-west-1")'
expect_failure region.json "identity: signature does not verify with the certificate for region eu-west-1"
sed 's/us-east-1/ap-south-2/' document > south && sign south us-east-1 south.p7
edit unlisted.json 'identity["document"] = open("south").read(); identity["pkcs7"] = open("south.p7").read()'
expect_failure unlisted.json "identity: no certificate for region ap-south-2 in certs.json"
edit unsigned.json 'del r["host"]["instance_type"]["identity"]'
expect_failure unsigned.json "identity: no signed instance identity"
edit launched.json 'r["started_at"] = "2019-06-01T00:00:00Z"'
expect_failure launched.json "identity: the signed instance was launched at 2020-01-01T00:00:00Z, after the run started (2019-06-01T00:00:00Z)"
# A forger who recomputes the chain (written here independently of gpusizer) still meets the
# plausibility check: a figure 100 x the ceiling the report records.
edit forged.json '
import hashlib
r["records"][0]["metrics"][0]["value"] *= 100
prev, links = "gpusizer.record-chain.v1", []
for kind in ("targets", "records"):
    for item in r[kind]:
        prev = hashlib.sha256((prev + json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False)).encode()).hexdigest()
        links.append({"item": kind[:-1] + " " + item["id"], "sha256": prev})
r["integrity"] = {"algorithm": "sha256-chain-v1", "links": links, "head": prev}'
expect_failure forged.json "record $id: implausible:"
grep -q "^forged.json: ok: record chain" out.txt || fail "the independently computed chain differs: $(cat out.txt)"
# A removed record and a report without a chain.
edit removed.json 'r["records"].pop()'
expect_failure removed.json "record chain: 1 item(s) removed after the report was written"
edit nochain.json 'del r["integrity"]'
expect_failure nochain.json "record chain: no record chain"
# No certificates file: the signature cannot be checked, and says why.
run_rc verify --certificates missing.json r.json
[ "$rc" = 5 ] && grep -q "identity: signature not checked: missing.json: no such file" out.txt \
  || fail "missing certificates: $rc $(cat out.txt)"

# Merge: two honest hosts verify as a fleet (each host's identity checked); a fleet with an edited
# member does not, even though gpusizer wrote the fleet's own chain afresh.
edit b.json 'r["host"]["hostname"] = "ip-b"'
edit c.json 'r["host"]["hostname"] = "ip-c"; r["records"][0]["metrics"][0]["value"] *= 1.02'
"$GPUSIZER" merge r.json b.json -o fleet.json 2> err.txt || fail "merge: $(cat err.txt)"
verify_rc fleet.json
[ "$rc" = 0 ] || fail "honest fleet: exit $rc: $(cat out.txt)"
[ "$(grep -c "ok: host .*: signed by the AWS certificate for us-east-1" out.txt)" = 2 ] \
  || fail "fleet hosts: $(cat out.txt)"
"$GPUSIZER" merge r.json c.json -o edited-fleet.json 2> err.txt || fail "merge: $(cat err.txt)"
expect_failure edited-fleet.json "record chain: an earlier copy did not hold it: c.json: record $id: changed after it was written"
# Several reports at once: exit 5 when any fails, each with its verdict.
verify_rc r.json figure.json
[ "$rc" = 5 ] && grep -qx "r.json: verified" out.txt && grep -qx "figure.json: NOT verified" out.txt \
  || fail "two reports: $rc $(cat out.txt)"
# recommend verifies every report it reads and says which did (test certificates through
# GPUSIZER_DATA_DIR, beside the shipped catalog).
mkdir data && cp certs.json data/aws-identity-certificates.json && ln -s "$SRC/data/catalog" data/catalog
set +e
GPUSIZER_DATA_DIR=$PWD/data "$GPUSIZER" recommend --workload "$SRC/examples/workloads/llm-inference.json" \
  r.json figure.json --out plan.json > plan.txt 2> err.txt
set -e
[ -s plan.json ] || fail "recommend wrote no plan: $(cat err.txt)"
grep -qF "Reports verified (gpusizer verify): 1 of 2; not verified: figure.json: record chain: record $id: changed after it was written" plan.txt \
  || fail "plan text: $(cat plan.txt)"
/usr/bin/python3 - <<'PY' || fail "plan reports"
import json
reports = {r["file"]: r for r in json.load(open("plan.json"))["reports"]}
assert reports["r.json"]["verified"] is True and reports["r.json"]["verification"] == "verified", reports
assert reports["figure.json"]["verified"] is False, reports
assert reports["figure.json"]["verification"].startswith("record chain: record "), reports
PY
validate plan.schema.json plan.json || fail "the plan does not validate"
echo "verify: ok"
