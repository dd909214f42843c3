# A real one-node Slurm cluster (munged + slurmctld + slurmd on localhost, generated slurm.conf,
# free ports) runs the shipped batch script (scripts/launchers/slurm.sbatch) with 2 ranks; the
# job's single fleet report must validate and hold both ranks. The daemons are always stopped.
# usage: bash slurm_cluster.sh <gpusizer> <source dir> <ON|OFF: built with MPI>
set -euo pipefail
GPUSIZER=$1
SRC=$2
skip() { echo "SKIP: $*"; exit 77; }
[ "$3" = ON ] || skip "gpusizer was built without MPI (install libopenmpi-dev)"
[ "$(id -u)" = 0 ] || skip "a test Slurm cluster needs root (slurmd runs jobs as their user)"
for p in munged slurmctld slurmd sbatch squeue sinfo mpirun; do
  command -v "$p" > /dev/null || skip "$p not found (install slurm-wlm, munge, openmpi-bin)"
done
id munge > /dev/null 2>&1 || skip "no munge user (install munge)"
# Under ASan LeakSanitizer reports Open MPI's own allocations and aborts every rank (lessons.md):
# leak checking is off for the job's ranks (sbatch passes the environment on).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fail() { echo "FAIL: $*" >&2; for f in "$D"/log/*.log; do echo "== $f" >&2; tail -20 "$f" >&2; done; exit 1; }
D=$(mktemp -d /tmp/gpusizer-slurm.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2> /dev/null || true
  done
  rm -rf "$D"
}
trap cleanup EXIT
chmod 755 "$D"
mkdir -p "$D/munge" "$D/state" "$D/spool" "$D/log" "$D/out"
chown munge: "$D/munge"
chmod 711 "$D/munge"  # munged: the socket folder must be searchable by all
dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none
chown munge: "$D/munge/munge.key"
chmod 400 "$D/munge/munge.key"
sock="$D/munge/munge.socket"
setpriv --reuid=munge --regid=munge --init-groups munged --foreground --key-file="$D/munge/munge.key" --socket="$sock" \
  --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
  --seed-file="$D/munge/munged.seed" &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "munged did not start: $(cat "$D/munge/munged.log" 2>/dev/null)"

read -r ctl_port d_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
node=$(slurmd -C | head -1)  # NodeName=<host> CPUs=... RealMemory=...
export SLURM_CONF="$D/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=gpusizer-test
SlurmctldHost=$host
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
$node
PartitionName=debug Nodes=ALL Default=YES State=UP MaxTime=INFINITE
CONF
slurmctld -D -f "$SLURM_CONF" > "$D/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$D/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  state=$(sinfo -h -o %T 2> /dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.1
done
[ "$state" = idle ] || fail "the node is not idle after 30 s (state: '$state')"

# The shipped script, 2 ranks on the one node, the CPU-only tiny suite (no GPU here).
export GPUSIZER="$GPUSIZER" GPUSIZER_OUT_DIR="$D/out" GPUSIZER_SUITE=quick
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none
job=$(sbatch --parsable --wait --nodes=1 --ntasks-per-node=2 --time=00:05:00 \
  --output="$D/out/job.out" "$SRC/scripts/launchers/slurm.sbatch" \
  --tiny --no-gpu --no-telemetry --filter "^memory/memcpy/" --no-progress) ||
  fail "the batch job failed: $(tail -20 "$D/out/job.out")"
report="$D/out/gpusizer-fleet-$job.json"
[ -f "$report" ] || fail "no fleet report $report: $(tail -20 "$D/out/job.out")"
reports=$(ls "$D/out"/*.json | wc -l)
[ "$reports" = 1 ] || fail "$reports reports written, expected one fleet report"
/usr/bin/python3 "$SRC/scripts/validate_json.py" "$SRC/reports/schema/report.schema.json" "$report" ||
  fail "the fleet report does not validate"
/usr/bin/python3 - "$report" <<'PY' || fail "fleet report content"
import json, sys
f = json.load(open(sys.argv[1]))
assert f["status"] == "complete", (f["status"], f["warnings"])
assert f["settings"]["fleet"]["world_size"] == 2, f["settings"]["fleet"]
assert f["hosts"][0]["ranks"] == [0, 1], f["hosts"]
assert f["settings"]["deadline"], "the script passed no --deadline"
coll = [r for r in f["records"] if r["family"] == "collectives"]
assert len(coll) == 6 and all(r["verification"]["status"] == "passed" for r in coll), coll
assert any(r["id"].startswith("memory/memcpy/") for r in f["records"])
PY
echo "slurm_cluster: ok (job $job)"
