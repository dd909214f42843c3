#!/usr/bin/env bash
# One command for a freshly started GPU machine (CUDA toolkit, CMake, ninja; no internet, no
# Debian packages). It never reports success without GPU results:
#   0. checks what it needs before anything else (GPU, nvcc, the carried .deb files or installed
#      packages, nvml.h) and says in one line what is missing;
#   1. machine facts (nvidia-smi) and the PyTorch reference first, so even a failed build returns
#      useful numbers;
#   2. builds only the CLI and the GPU test binary, with CUDA required (GPUSIZER_REQUIRE_CUDA);
#   3. runs the `gpu` tests: no test found, a failed test or a skipped test is a failure;
#   4. runs the quick suite on the GPU only (nvidia-smi dmon beside it) and checks the report
#      (scripts/check_gpu_report.py: a GPU target, a verified record per family);
#   5. if time is left, probes the driver's NVML counters under load (scripts/nvml_probe.py).
# Writes at most 8 files under $OUT (or the folder given as $1). Budget: a 330 s total; each step
# has its own timeout (timeout -k) cut to what is left, so the script ends within 6 minutes.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-${OUT:-$root/out/gpu-check}}"
mkdir -p "$out"
log="$out/gpu-check.log"
exec > >(tee -a "$log") 2>&1
start=$(date +%s)
budget=${GPU_CHECK_BUDGET_S:-330}
step() { echo "== [$(($(date +%s) - start))s] $*"; }
fail() {
  echo "gpu-check: FAILED: $*"
  exit 1
}
cap() { # cap SECONDS -> the smaller of SECONDS and the seconds left (at least 1)
  local left=$((budget - ($(date +%s) - start)))
  ((left < $1)) && set -- "$left"
  (($1 < 1)) && set -- 1
  echo "$1"
}
run_capped() { # run_capped SECONDS cmd... : timeout with a KILL 5 s after TERM
  local s
  s=$(cap "$1")
  shift
  timeout -k 5 "$s" "$@"
}

# 0. What the call needs, checked before it starts.
step "preflight"
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
  [ -x "$d/nvcc" ] && {
    export PATH="$d:$PATH"
    break
  }
done
missing=()
command -v nvidia-smi > /dev/null || missing+=("nvidia-smi (no NVIDIA driver)")
nvcc_path=$(command -v nvcc || true)
[ -n "$nvcc_path" ] || missing+=("nvcc (no CUDA toolkit on PATH or in /usr/local/cuda*/bin)")
command -v cmake > /dev/null || missing+=("cmake")
command -v ninja > /dev/null || missing+=("ninja")
have_debs=0
ls "$root"/.gpu-deps/*.deb > /dev/null 2>&1 && have_debs=1
if [ "$have_debs" = 0 ] && ! [ -f /usr/include/benchmark/benchmark.h ]; then
  missing+=("Debian packages: neither .gpu-deps/*.deb (scripts/pack-gpu-deps.sh, carry .gpu-deps) nor installed libbenchmark-dev")
fi
nvml_dir=""
for d in "$root/.deps/nvml/include" /usr/local/cuda/include /usr/local/cuda/targets/x86_64-linux/include; do
  [ -f "$d/nvml.h" ] && {
    nvml_dir=$d
    break
  }
done
[ -n "$nvml_dir" ] || echo "gpu-check: note: no nvml.h (carry .deps/nvml): the build runs with telemetry off"
if ! nvidia-smi -L > /dev/null 2>&1; then
  missing+=("a GPU (nvidia-smi -L found none)")
fi
((${#missing[@]} == 0)) || fail "missing: $(
  IFS=';'
  echo "${missing[*]}"
)"

step "machine"
nvidia-smi --query-gpu=name,uuid,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,mig.mode.current,persistence_mode --format=csv || true
nvidia-smi topo -m 2> /dev/null | head -5 || true
nvcc --version | tail -2
cmake --version | head -1
echo "cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"

# 1. PyTorch reference on the same GPU in the same session (the image's python3 holds torch).
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2> /dev/null; then
  step "pytorch reference"
  run_capped 60 python3 "$root/scripts/torch_reference.py" measure > "$out/torch_reference.json" \
    || echo "gpu-check: pytorch reference failed"
  python3 -c 'import json,sys; [print(f"  {r[\"name\"]}: {r.get(\"flop_per_second\") or r.get(\"bytes_per_second\") or r.get(\"bytes_per_second_counted_once\"):.4g}") for r in json.load(open(sys.argv[1]))["results"]]' "$out/torch_reference.json" 2> /dev/null || true
fi

# 2. Dependencies (carried .deb files, extracted) and build of the two targets needed.
prefix="$root/.gpu-deps/prefix"
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=ON -DGPUSIZER_REQUIRE_CUDA=ON
  "-DCMAKE_CUDA_COMPILER=$nvcc_path")
if [ "$have_debs" = 1 ]; then
  step "extracting $(ls "$root"/.gpu-deps/*.deb | wc -l) .deb files into $prefix"
  "$root/scripts/extract-debs.sh" "$root/.gpu-deps" "$prefix" || fail "extracting .gpu-deps"
  multiarch="$prefix/usr/lib/x86_64-linux-gnu"
  cmake_args+=("-DCMAKE_PREFIX_PATH=$prefix/usr;$multiarch/cmake;$prefix/usr/share/cmake"
    "-DOpenBLAS_DIR=$multiarch/openblas-pthread/cmake/openblas")
  command -v pkg-config > /dev/null || cmake_args+=("-DPKG_CONFIG_EXECUTABLE=$prefix/usr/bin/pkgconf")
  export PKG_CONFIG_LIBDIR="$multiarch/pkgconfig:$prefix/usr/share/pkgconfig"
  export LD_LIBRARY_PATH="$multiarch:$multiarch/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -1 | tr -d '.')
cmake_args+=("-DCMAKE_CUDA_ARCHITECTURES=${arch:-90}")
[ -n "$nvml_dir" ] && cmake_args+=("-DGPUSIZER_NVML_INCLUDE_DIR=$nvml_dir")
# NCCL: the toolkit's, else the one in the image's Python (nvidia-nccl wheel).
if ! [ -f "$(dirname "$nvcc_path")/../include/nccl.h" ]; then
  nccl_root=$(python3 -c 'import nvidia.nccl, os; print(list(nvidia.nccl.__path__)[0])' 2> /dev/null || true)
  if [ -n "$nccl_root" ] && [ -f "$nccl_root/include/nccl.h" ]; then
    lib=$(ls "$nccl_root"/lib/libnccl.so* 2> /dev/null | head -1)
    [ -n "$lib" ] && cmake_args+=("-DGPUSIZER_NCCL_INCLUDE_DIR=$nccl_root/include" "-DGPUSIZER_NCCL_LIBRARY=$lib")
    export LD_LIBRARY_PATH="$nccl_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
fi
build="$root/build-gpu"
step "configure"
# Configure and build share one log: $OUT brings back at most 8 files.
run_capped 90 cmake -S "$root" -B "$build" "${cmake_args[@]}" > "$out/build.log" 2>&1 \
  || {
    tail -30 "$out/build.log"
    fail "configure (log: build.log)"
  }
grep -E "gpusizer:" "$out/build.log" || true
step "build (gpusizer, cuda_gpu_test) on $(nproc) cores"
run_capped 200 cmake --build "$build" -j "$(nproc)" --target gpusizer cuda_gpu_test >> "$out/build.log" 2>&1 \
  || {
    grep -E "error|Error" "$out/build.log" | head -30
    fail "build (log: build.log)"
  }
[ -x "$build/gpusizer" ] || fail "$build/gpusizer was not built"
"$build/gpusizer" devices || true

# The STREAM test first, alone and briefly: it runs the bulk-copy (TMA) kernels, the newest code
# here; if it hangs or fails, those kernels are switched off for the rest of the call (the log
# says so) rather than losing the suite behind them.
if ! timeout -k 5 "$(cap 40)" "$build/tests/cuda/cuda_gpu_test" --gtest_filter='*Stream*' > /dev/null 2>&1; then
  export GPUSIZER_NO_TMA=1
  echo "gpu-check: the STREAM smoke test failed or hung: GPUSIZER_NO_TMA=1 for the rest of the call"
fi

# 3. GPU tests: none found, any failed or any skipped is a failure here. Tests named
# *WhenTwoGpus need two GPUs: on a one-GPU machine they are left out, and the log says so.
step "gpu tests"
ngpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU ')
exclude=()
if [ "${ngpus:-0}" -lt 2 ]; then
  exclude=(-E 'WhenTwoGpus$')
  echo "gpu-check: $ngpus GPU: the *WhenTwoGpus tests are not run"
fi
run_capped 120 ctest --test-dir "$build" -L gpu "${exclude[@]}" --no-tests=error --output-on-failure \
  --output-junit "$out/gpu-tests.xml" > "$out/gpu-tests.log" 2>&1
gpu_rc=$?
tail -25 "$out/gpu-tests.log"
skipped=$(grep -c '(Skipped)' "$out/gpu-tests.log")
if [ "$gpu_rc" -eq 0 ] && [ "${skipped:-0}" -gt 0 ]; then
  echo "gpu-check: $skipped gpu tests were skipped on a GPU machine (skipped is not passed)"
  gpu_rc=1
fi

# 4. Quick suite on the GPU only, and its report checked.
step "quick suite (GPU only)"
suite_s=$(cap 170)
# The suite's own budget leaves it 20 s to write its report before the timeout.
suite_budget=$((suite_s > 40 ? suite_s - 20 : 20))
# nvidia-smi's own 1 s readings of power and clocks beside gpusizer's (cross-check, issue 14).
nvidia-smi dmon -s pc -d 1 -o T > "$out/dmon.log" 2>&1 &
dmon_pid=$!
timeout -k 10 "$suite_s" "$build/gpusizer" run --suite quick --no-cpu --time-budget "${suite_budget}s" \
  --io-dir "$out" --progress --force --out "$out/report.json" > "$out/quick.log" 2>&1
quick_rc=$?
# 3: stopped by the suite's own budget, the report written (the report check judges what it holds).
[ "$quick_rc" -eq 3 ] && quick_rc=0
kill "$dmon_pid" 2> /dev/null
tail -60 "$out/quick.log"
rm -f "$out"/*.io "$out"/gpusizer-io* 2> /dev/null
report_rc=1
if [ -s "$out/report.json" ]; then
  step "report check"
  python3 "$root/scripts/check_gpu_report.py" "$out/report.json"
  report_rc=$?
  if [ -s "$out/torch_reference.json" ]; then
    step "gpusizer vs pytorch"
    python3 "$root/scripts/torch_reference.py" compare "$out/torch_reference.json" "$out/report.json" || true
  fi
else
  echo "gpu-check: no report written"
fi
# 5. How the driver's NVML counters behave under load (energy counter cadence, call latency).
if [ "$(cap 30)" -ge 15 ] && python3 -c 'import pynvml, torch' 2> /dev/null; then
  step "nvml probe"
  run_capped 20 python3 "$root/scripts/nvml_probe.py" 2 || echo "gpu-check: nvml probe failed"
fi
step "done: gpu tests rc=$gpu_rc, quick suite rc=$quick_rc, report check rc=$report_rc; outputs in $out"
[ "$gpu_rc" -eq 0 ] && [ "$quick_rc" -eq 0 ] && [ "$report_rc" -eq 0 ] || fail "see above"
echo "gpu-check: OK"
