#!/usr/bin/env bash
# One command for a freshly started GPU machine (CUDA toolkit, CMake, ninja; no internet, no
# Debian packages): unpacks the .deb files that scripts/pack-gpu-deps.sh fetched into .gpu-deps/
# into a local prefix, builds gpusizer for the local GPU's architecture, runs the `gpu` tests and
# the quick suite, and writes the log and the report under $OUT (or the folder given as $1).
# Budget: ends within 8 minutes on one H200 (each step has its own timeout).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-${OUT:-$root/out/gpu-check}}"
mkdir -p "$out"
log="$out/gpu-check.log"
exec > >(tee -a "$log") 2>&1
start=$(date +%s)
step() { echo "== [$(( $(date +%s) - start ))s] $*"; }
# The step timeouts below add up to more than 8 minutes; each is cut to what is left of a 470 s
# total, so the script ends within 8 minutes whatever step runs long.
budget=470
cap() {  # cap SECONDS -> the smaller of SECONDS and the seconds left (at least 1)
  local left=$(( budget - ($(date +%s) - start) ))
  (( left < $1 )) && set -- "$left"
  (( $1 < 1 )) && set -- 1
  echo "$1"
}

step "machine"
nvidia-smi --query-gpu=name,uuid,driver_version,memory.total,clocks.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current --format=csv || true
nvcc --version | tail -2 || true
cmake --version | head -1 || true

# 1. Dependencies: prefer what the machine has; else the carried .deb files, extracted.
prefix="$root/.gpu-deps/prefix"
if [ -d "$root/.gpu-deps" ] && ls "$root"/.gpu-deps/*.deb > /dev/null 2>&1; then
  step "extracting $(ls "$root"/.gpu-deps/*.deb | wc -l) .deb files into $prefix"
  "$root/scripts/extract-debs.sh" "$root/.gpu-deps" "$prefix"
fi
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=ON)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
cmake_args+=("-DCMAKE_CUDA_ARCHITECTURES=${arch:-90}")
if [ -d "$prefix/usr" ]; then
  multiarch="$prefix/usr/lib/x86_64-linux-gnu"
  cmake_args+=("-DCMAKE_PREFIX_PATH=$prefix/usr;$multiarch/cmake;$prefix/usr/share/cmake"
               "-DOpenBLAS_DIR=$multiarch/openblas-pthread/cmake/openblas")
  if ! command -v pkg-config > /dev/null; then
    cmake_args+=("-DPKG_CONFIG_EXECUTABLE=$prefix/usr/bin/pkgconf")
  fi
  export PKG_CONFIG_LIBDIR="$multiarch/pkgconfig:$prefix/usr/share/pkgconfig"
  export LD_LIBRARY_PATH="$multiarch:$multiarch/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
[ -d "$root/.deps/nvml/include" ] && cmake_args+=("-DGPUSIZER_NVML_INCLUDE_DIR=$root/.deps/nvml/include")

# 2. Build (all cores of the GPU machine).
build="$root/build-gpu"
step "configure"
# Configure and build share one log: $OUT brings back at most 8 files.
timeout "$(cap 120)" cmake -S "$root" -B "$build" "${cmake_args[@]}" > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; echo "gpu-check: configure failed"; exit 1; }
step "build"
timeout "$(cap 240)" cmake --build "$build" -j "$(nproc)" >> "$out/build.log" 2>&1 \
  || { grep -E "error|Error" "$out/build.log" | head -30; echo "gpu-check: build failed (log: build.log)"; }

# 3. GPU tests (a skipped test is reported as skipped, never as passed).
step "gpu tests"
timeout "$(cap 150)" ctest --test-dir "$build" -L gpu --output-on-failure --output-junit "$out/gpu-tests.xml" \
  > "$out/gpu-tests.log" 2>&1
gpu_rc=$?
tail -25 "$out/gpu-tests.log"

# 4. PyTorch reference on the same GPU in the same session (the image's python3 holds torch).
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2> /dev/null; then
  step "pytorch reference"
  timeout "$(cap 60)" python3 "$root/scripts/torch_reference.py" measure > "$out/torch_reference.json" \
    || echo "gpu-check: pytorch reference failed"
fi

# 5. Quick suite.
step "quick suite"
if [ -x "$build/gpusizer" ]; then
  suite_s=$(cap 210)
  # The suite's own budget leaves it 20 s to write its report before the timeout.
  suite_budget=$(( suite_s > 40 ? suite_s - 20 : 20 ))
  (( suite_budget > 180 )) && suite_budget=180
  timeout "$suite_s" "$build/gpusizer" run --suite quick --time-budget "${suite_budget}s" \
    --io-dir "$out" --progress \
    --out "$out/report.json" > "$out/quick.log" 2>&1
  quick_rc=$?
  tail -40 "$out/quick.log"
else
  echo "gpu-check: $build/gpusizer was not built"; quick_rc=1
fi
if [ -s "$out/torch_reference.json" ] && [ -s "$out/report.json" ]; then
  step "gpusizer vs pytorch"
  python3 "$root/scripts/torch_reference.py" compare "$out/torch_reference.json" "$out/report.json" || true
fi
step "done: gpu tests rc=$gpu_rc, quick suite rc=$quick_rc; outputs in $out"
[ "$gpu_rc" -eq 0 ] && [ "$quick_rc" -eq 0 ]
