#!/usr/bin/env bash
# Run HERE (a Debian 12 machine with apt and internet): downloads the Debian packages that
# gpu-check.sh needs on a GPU machine that has the CUDA toolkit, CMake and ninja but no internet
# and no Debian packages. The .deb files go to .gpu-deps/ (gitignored); carry that folder with the
# working tree (the device tool's `carry: [".gpu-deps"]`). Nothing is installed here.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$root/.gpu-deps}"
mkdir -p "$dest"
packages=(
  libbenchmark-dev libbenchmark1debian          # Google Benchmark 1.7
  libgtest-dev libgmock-dev googletest          # GoogleTest (static libs in -dev; sources in googletest)
  nlohmann-json3-dev libcli11-dev               # header-only
  libopenblas-dev libopenblas-pthread-dev libopenblas0-pthread libgfortran5 libquadmath0
  liburing-dev liburing2                        # optional (io_uring reader)
  libssl-dev                                    # optional (verify's identity signature check)
  pkgconf pkgconf-bin libpkgconf3               # find_package(PkgConfig) needs a pkg-config
)
cd "$dest"
apt-get download "${packages[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 "$dest"/*.deb | wc -l | xargs echo "debs in $dest:"
