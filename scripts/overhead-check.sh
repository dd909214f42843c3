#!/usr/bin/env bash
# Harness overhead: CPU memcpy bandwidth as gpusizer reports it vs a plain timed memcpy loop
# (tools/memcpy_baseline, no gpusizer code) of the same size, alternated N times on the same
# machine. Prints both medians and their ratio; exits 1 when they differ by more than 5 %.
#   scripts/overhead-check.sh [BUILD_DIR=build] [PAIRS=5]
set -euo pipefail
build=${1:-build}
pairs=${2:-5}
bin=$build/gpusizer
base=$build/tools/memcpy_baseline/gpusizer_memcpy_baseline
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$pairs"); do
  "$base" --bytes 268435456 | python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes_per_second"])' >> "$tmp/base"
  "$bin" run --no-gpu --no-telemetry --filter 'memory/memcpy' --no-progress -o "$tmp/r$i.json" > /dev/null 2>&1
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["records"][0]["metrics"][0]["value"])' "$tmp/r$i.json" >> "$tmp/gpusizer"
done
python3 - "$tmp/base" "$tmp/gpusizer" <<'PY'
import statistics, sys
base = [float(x) for x in open(sys.argv[1])]
ours = [float(x) for x in open(sys.argv[2])]
mb, mo = statistics.median(base), statistics.median(ours)
print(f"plain memcpy loop : median {mb/1e9:.2f} GB/s  ({', '.join(f'{x/1e9:.2f}' for x in base)})")
print(f"gpusizer memcpy   : median {mo/1e9:.2f} GB/s  ({', '.join(f'{x/1e9:.2f}' for x in ours)})")
ratio = mo / mb
print(f"ratio gpusizer/plain = {ratio:.3f} ({'within' if abs(ratio - 1) <= 0.05 else 'OUTSIDE'} 5 %)")
sys.exit(0 if abs(ratio - 1) <= 0.05 else 1)
PY
