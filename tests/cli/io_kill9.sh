# kill -9 in the middle of the I/O benchmark leaves no scratch file in the I/O folder: the file is
# unlinked right after it is created (kernels/io_file.cpp) and lives on only through the
# benchmark's descriptor, which dies with the process.
source "$(dirname "$0")/lib.sh"
mkdir io out
"$GPUSIZER" run --tiny --no-progress --no-telemetry --filter "^io/" --io-dir io \
  --benchmark_repetitions=200 -o out/r.json > /dev/null 2>&1 &
pid=$!
io=$(cd io && pwd -P)
# In the benchmark: the process holds a descriptor on a deleted file of the I/O folder.
open_scratch() { ls -l /proc/$pid/fd 2>/dev/null | grep -q "$io/.*(deleted)"; }
wait_for open_scratch || fail "the I/O benchmark never held its scratch file"
[ -z "$(ls -A io)" ] || fail "the scratch file is visible while in use: $(ls -A io)"
kill -9 $pid
wait $pid 2>/dev/null || true
[ -z "$(ls -A io)" ] || fail "left in the I/O folder after kill -9: $(ls -A io)"
echo "io_kill9: ok"
