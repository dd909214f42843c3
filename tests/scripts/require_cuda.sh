#!/usr/bin/env bash
# GPUSIZER_REQUIRE_CUDA=ON where no CUDA compiler can be found (nvcc not on PATH, CUDACXX unset):
# configure fails with a message naming the option, instead of quietly building the CPU backend.
set -uo pipefail
root="$1"
cmake="$2"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
log=$(env -u CUDACXX PATH=/usr/bin:/bin "$cmake" -S "$root" -B "$build" -G Ninja \
  -DGPUSIZER_BUILD_TESTS=OFF -DGPUSIZER_REQUIRE_CUDA=ON 2>&1)
rc=$?
[ "$rc" -ne 0 ] || { echo "FAIL: configure succeeded without a CUDA compiler"; echo "$log"; exit 1; }
echo "$log" | grep -q "GPUSIZER_REQUIRE_CUDA is ON but no CUDA compiler was found" \
  || { echo "FAIL: the error does not name GPUSIZER_REQUIRE_CUDA"; echo "$log"; exit 1; }
echo "ok: configure refused"
