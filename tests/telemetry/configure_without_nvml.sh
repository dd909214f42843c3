#!/usr/bin/env bash
# NVML's header is never fatal at configure time. With nvml.h made unfindable (an empty
# GPUSIZER_NVML_INCLUDE_DIR, the only folder searched when it is set) the configure succeeds and
# says GPU telemetry is off; the telemetry library builds without the header (warnings as errors)
# and a small program checks that a GPU record's telemetry, idle power, the inventory and
# `monitor` give the reason. GPUSIZER_WITH_NVML=OFF does the same by switch (configure only).
# Usage: configure_without_nvml.sh <cmake> <generator> <source dir> <scratch dir>
set -euo pipefail
cmake=$1 generator=$2 src=$3 work=$4
fail() { echo "configure_without_nvml: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/empty-include"

"$cmake" -S "$src" -B "$work/build" -G "$generator" -DCMAKE_BUILD_TYPE=Debug \
  -DGPUSIZER_ENABLE_CUDA=OFF -DGPUSIZER_WERROR=ON \
  -DGPUSIZER_NVML_INCLUDE_DIR="$work/empty-include" > "$work/configure.log" 2>&1 ||
  { tail -30 "$work/configure.log" >&2; fail "configure without nvml.h failed"; }
expected="GPU telemetry: OFF (built without nvml.h: not found in GPUSIZER_NVML_INCLUDE_DIR=$work/empty-include)"
grep -qF "$expected" "$work/configure.log" ||
  { cat "$work/configure.log" >&2; fail "configure did not say: $expected"; }
"$cmake" --build "$work/build" --target gpusizer_nvml_absent_check -j 2 > "$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log" >&2; fail "the telemetry library does not build without nvml.h"; }
"$work/build/tests/telemetry/gpusizer_nvml_absent_check" || fail "a reason is missing (above)"

"$cmake" -S "$src" -B "$work/build-off" -G "$generator" -DGPUSIZER_ENABLE_CUDA=OFF \
  -DGPUSIZER_BUILD_TESTS=OFF -DGPUSIZER_WITH_NVML=OFF > "$work/configure-off.log" 2>&1 ||
  { tail -30 "$work/configure-off.log" >&2; fail "configure with GPUSIZER_WITH_NVML=OFF failed"; }
grep -qF "GPU telemetry: OFF (built without nvml.h: GPUSIZER_WITH_NVML=OFF)" \
  "$work/configure-off.log" || fail "GPUSIZER_WITH_NVML=OFF: telemetry not said to be off"
rm -rf "$work"
echo "configure_without_nvml: ok"
