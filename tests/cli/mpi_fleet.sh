# mpirun -np 4 on this machine (CPU only, --oversubscribe): one schema-valid fleet report with the
# MPI host collectives (busbw per size, exact verification); SIGTERM to one rank stops every rank
# at the same boundary with the finished records kept; --resume continues that fleet report (and
# is refused with other ranks); a rank killed outright does not hang the others.
# usage: bash mpi_fleet.sh <gpusizer> <source dir> <ON|OFF: built with MPI>
source "$(dirname "$0")/lib.sh"
# Under the sanitizer preset: OpenMPI's own start-up allocations (libmpi, PMIx, and MCA plugins
# it has already unloaded, so they cannot be named in a suppression) are reported as leaks when a
# rank exits. Leak checking of gpusizer's own code is done by every non-MPI test; here ASan keeps
# checking memory errors only.
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
if [ "$3" != ON ]; then echo "SKIP: gpusizer was built without MPI (install libopenmpi-dev)"; exit 77; fi
command -v mpirun > /dev/null || { echo "SKIP: mpirun not found (install openmpi-bin)"; exit 77; }
mpid=""
# A failed check never leaves ranks behind: mpirun is told to end its job.
trap 'if [ -n "$mpid" ]; then kill -TERM $mpid 2> /dev/null || true; fi; rm -rf "$WORK"' EXIT
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4 --bind-to none)
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none
# 1. A complete run: rank 0 (local rank 0) measures the CPU, all four the host collectives.
"${MPIRUN[@]}" "$GPUSIZER" run --tiny --no-gpu --no-telemetry --filter "^memory/memcpy/" \
  --no-progress -o fleet.json > out.txt 2> err.txt || fail "mpirun exited $?: $(tail -5 err.txt)"
validate report.schema.json fleet.json || fail "the fleet report does not validate"
/usr/bin/python3 - <<'PY' || fail "fleet content"
import json, socket
f = json.load(open("fleet.json"))
assert f["status"] == "complete", (f["status"], f["warnings"])
assert len(f["hosts"]) == 1 and f["hosts"][0]["ranks"] == [0, 1, 2, 3], f["hosts"]
host = f["hosts"][0]["id"]
assert [t["id"] for t in f["targets"]] == [host + ":cpu"], f["targets"]
assert f["settings"]["fleet"]["how"] == "mpi" and f["settings"]["fleet"]["world_size"] == 4
local = [r for r in f["records"] if r["id"].startswith("memory/memcpy/")]
assert local and all(r["target"] == host + ":cpu" for r in local), [r["id"] for r in local]
coll = [r for r in f["records"] if r["family"] == "collectives"]
factor = {"all_reduce": 2 * 3 / 4, "all_gather": 3 / 4, "all_to_all": 3 / 4}
assert sorted({r["operation"] for r in coll}) == sorted(factor), coll
assert sorted({r["parameters"]["bytes"] for r in coll}) == [4096, 262144], coll
assert len(coll) == 6
for r in coll:
    assert r["status"] == "ok" and r["verification"]["status"] == "passed", r["verification"]
    assert r["verification"]["detail"].startswith("0 wrong"), r["verification"]
    assert r["parameters"]["ranks"] == 4 and r["parameters"]["backend"] == "mpi"
    m = {x["name"]: x["value"] for x in r["metrics"]}
    algbw = r["parameters"]["bytes"] / r["timing"]["seconds_per_op"]["median"]
    assert abs(m["bandwidth"] - algbw) <= 1e-9 * algbw, (m, algbw)
    assert abs(m["busbw"] - algbw * factor[r["operation"]]) <= 1e-9 * algbw, (r["id"], m)
PY
"$GPUSIZER" show fleet.json > show.txt || fail "show fleet"
grep -q "collectives/all_to_all" show.txt || fail "show lacks the host collectives"

# 2. SIGTERM to rank 2 (waiting at a boundary while rank 0 measures): every rank stops at the
# next boundary, the report says why, and what was finished is kept.
ranks_of() {  # pid of the given rank among mpirun's children
  for p in $(pgrep -P "$1"); do
    if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then echo $p; fi
  done
}
records() { /usr/bin/python3 -c 'import json; print(len(json.load(open("'$1'"))["records"]))' 2>/dev/null || echo 0; }
"${MPIRUN[@]}" "$GPUSIZER" run --tiny --no-gpu --no-telemetry --filter "^memory/" \
  --no-progress -o stopped.json > /dev/null 2> err2.txt &
mpid=$!
for _ in $(seq 1 600); do [ "$(records stopped.json)" -ge 1 ] && break; sleep 0.1; done
[ "$(records stopped.json)" -ge 1 ] || fail "no record checkpointed: $(tail -5 err2.txt)"
victim=$(ranks_of $mpid 2)
[ -n "$victim" ] || fail "rank 2 not found among mpirun's children"
kill -TERM "$victim"
set +e; wait $mpid; rc=$?; set -e
# Every rank exits 3 (stopped; README "Exit codes"), and so does mpirun.
[ "$rc" = 3 ] || fail "mpirun exited $rc after SIGTERM to rank 2, expected 3: $(tail -5 err2.txt)"
validate report.schema.json stopped.json || fail "the stopped fleet report does not validate"
/usr/bin/python3 - <<'PY' || fail "stopped content"
import json
f = json.load(open("stopped.json"))
assert f["status"] == "stopped", f["status"]
assert f["records"] and all(r["status"] == "ok" for r in f["records"])
assert f["not_run"], "nothing recorded as not run"
assert all(n["reason"] == "interrupted by signal SIGTERM on MPI rank 2" for n in f["not_run"]), f["not_run"]
assert any("SIGTERM on MPI rank 2" in w for w in f["warnings"]), f["warnings"]
PY

# 3. --resume of the stopped fleet run: rank 0 reads it, each rank resumes its own part. What was
# finished is kept as it was (measured once), the rest is measured, and the history lists both
# runs, each with the records it measured.
cp stopped.json stopped-before.json
"$GPUSIZER" run --resume stopped.json --no-gpu > /dev/null 2> plain.txt && fail "a plain run resumed a fleet report"
grep -q "continued only by the MPI run that wrote it" plain.txt || fail "plain resume: $(cat plain.txt)"
cmp -s stopped.json stopped-before.json || fail "a refused resume changed the report"
set +e
mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to none "$GPUSIZER" run --resume stopped.json \
  --no-gpu --no-telemetry --no-progress > /dev/null 2> np2.txt
rc=$?
set -e
[ "$rc" = 2 ] || fail "resume with 2 ranks of a 4-rank fleet exited $rc, expected 2: $(tail -3 np2.txt)"
grep -q "ranks 0,1,2,3) differ from this run's .* (ranks 0,1); resume it with the same hosts" np2.txt ||
  fail "no reason for the refused resume: $(cat np2.txt)"
cmp -s stopped.json stopped-before.json || fail "a refused resume changed the report"
"${MPIRUN[@]}" "$GPUSIZER" run --resume stopped.json --no-gpu --no-telemetry --no-progress \
  > /dev/null 2> err4.txt || fail "resumed fleet run exited $?: $(tail -5 err4.txt)"
"$GPUSIZER" run --list --tiny --no-gpu --filter "^memory/" > planned.txt
validate report.schema.json stopped.json || fail "the resumed fleet report does not validate"
/usr/bin/python3 - <<'PY' || fail "resumed content"
import json
before, after = json.load(open("stopped-before.json")), json.load(open("stopped.json"))
host = after["hosts"][0]["id"]
ids = [r["id"] for r in after["records"]]
assert len(ids) == len(set(ids)), "a record measured twice"
by_id = {r["id"]: r for r in after["records"]}
for r in before["records"]:
    assert by_id.get(r["id"]) == r, ("changed or lost", r["id"])
planned = {l.strip().replace("/cpu/", "/" + host + ":cpu/") for l in open("planned.txt") if l.strip()}
local = {i for i in ids if i.startswith("memory/")}
assert local == planned, (sorted(local ^ planned))
assert len([i for i in ids if "/backend=mpi/" in i]) == 6, ids
assert after["status"] == "complete" and not after["not_run"], (after["status"], after["not_run"])
assert after["hosts"][0]["ranks"] == [0, 1, 2, 3]
h = after["history"]
assert [s["status"] for s in h] == ["stopped", "complete"], h
assert set(h[0]["records"]) == {r["id"] for r in before["records"]}, h[0]["records"]
assert set(h[1]["records"]) == set(ids) - set(h[0]["records"]), h[1]["records"]
assert h[0]["stop_reason"] == "interrupted by signal SIGTERM on MPI rank 2", h[0]
PY

# 4. Rank 1 killed outright: the others do not hang (mpirun ends them), and the report written
# at the last boundary is still a valid report with its finished records.
"${MPIRUN[@]}" "$GPUSIZER" run --tiny --no-gpu --no-telemetry --filter "^memory/" \
  --no-progress -o killed.json > /dev/null 2> err3.txt &
mpid=$!
for _ in $(seq 1 600); do [ "$(records killed.json)" -ge 1 ] && break; sleep 0.1; done
victim=$(ranks_of $mpid 1)
[ -n "$victim" ] || fail "rank 1 not found among mpirun's children"
kill -KILL "$victim"
for _ in $(seq 1 600); do kill -0 $mpid 2> /dev/null || break; sleep 0.1; done
if kill -0 $mpid 2> /dev/null; then kill -KILL $mpid; fail "mpirun still running 60 s after a rank was killed"; fi
set +e; wait $mpid; set -e
validate report.schema.json killed.json || fail "the report after a killed rank does not validate"
[ "$(records killed.json)" -ge 1 ] || fail "finished records lost after a killed rank"
echo "mpi_fleet: ok"
