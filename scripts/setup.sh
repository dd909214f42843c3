#!/usr/bin/env bash
# Installs what gpusizer needs (Debian packages; NVIDIA's nvml.h from the nvidia-nvml-dev wheel),
# then configures and builds (Release). Idempotent: when everything is there it only rebuilds.
#   scripts/setup.sh [--preset NAME] [--no-install] [--build-dir DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=default
install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    *) echo "setup.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

apt_packages=(cmake ninja-build g++ pkg-config libbenchmark-dev libgtest-dev libgmock-dev
  nlohmann-json3-dev libcli11-dev libopenblas-dev liburing-dev libssl-dev python3-jsonschema
  clang-format)
# What only some tests need (a real browser for the HTML pages, MPI and Slurm for the multi-node
# tests): installed too, but a machine that cannot get them still builds and tests; those tests
# then skip and say why.
apt_test_packages=(chromium python3-yaml libopenmpi-dev openmpi-bin slurm-wlm munge)
# The packages of the list given that are not installed.
not_installed() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
if [ "$install" = 1 ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd=sudo
  mapfile -t missing < <(not_installed "${apt_packages[@]}")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  mapfile -t missing < <(not_installed "${apt_test_packages[@]}")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing for the tests: ${missing[*]}" >&2
    if ! { $sudo_cmd apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null; }; then
      echo "setup: could not install ${missing[*]}; the tests that need them will be skipped" >&2
    fi
  fi
fi

# nvml.h: the CUDA toolkit's if it has one, else NVIDIA's nvidia-nvml-dev wheel, unpacked into
# .deps/nvml (header only; libnvidia-ml.so.1 is loaded at run time from the driver).
nvml_dir=.deps/nvml/include
if [ ! -f "$nvml_dir/nvml.h" ] && [ ! -f /usr/local/cuda/include/nvml.h ]; then
  if [ "$install" = 1 ]; then
    echo "setup: fetching nvml.h from the nvidia-nvml-dev wheel (PyPI)" >&2
    tmp=$(mktemp -d)
    python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "nvidia-nvml-dev-cu12==12.9.79"
    mkdir -p "$nvml_dir"
    python3 - "$tmp" "$nvml_dir" <<'PY'
import glob, sys, zipfile
whl = glob.glob(sys.argv[1] + "/*.whl")[0]
with zipfile.ZipFile(whl) as z:
    data = z.read("nvidia/nvml_dev/include/nvml.h")
open(sys.argv[2] + "/nvml.h", "wb").write(data)
PY
    rm -rf "$tmp"
  else
    echo "setup: nvml.h missing; run without --no-install or pass it with GPUSIZER_NVML_INCLUDE_DIR" >&2
    exit 1
  fi
fi

# Make nvcc visible where the CUDA toolkit is installed but not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# On a rented GPU machine every minute is paid for: compile the CUDA code for the GPUs present only
# (e.g. 90 on an H100/H200) instead of every architecture AWS rents. GPUSIZER_CUDA_ARCHS overrides.
cuda_args=()
if [ -n "${GPUSIZER_CUDA_ARCHS:-}" ]; then
  cuda_args=(-DCMAKE_CUDA_ARCHITECTURES="$GPUSIZER_CUDA_ARCHS")
elif [ "$preset" = default ] && command -v nvidia-smi >/dev/null 2>&1; then
  archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '.' | sort -u | paste -sd';')
  [ -n "$archs" ] && cuda_args=(-DCMAKE_CUDA_ARCHITECTURES="$archs") && echo "setup: building CUDA code for sm_${archs//;/, sm_}" >&2
fi

cmake --preset "$preset" "${cuda_args[@]}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
