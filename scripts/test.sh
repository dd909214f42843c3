#!/usr/bin/env bash
# Builds (CI preset: warnings as errors, CUDA compiled when nvcc is present) and runs every test.
# GPU tests skip with their reason on machines without a GPU and are reported as skipped.
#   scripts/test.sh            configure + build + ctest (preset "ci")
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${GPUSIZER_TEST_PRESET:-ci}
./scripts/setup.sh --preset "$preset"
ctest --preset "$preset" -j "$(nproc)"
