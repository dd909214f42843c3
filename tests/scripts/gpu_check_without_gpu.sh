#!/usr/bin/env bash
# gpu-check.sh on a machine without a GPU: exits non-zero with a one-line reason, never "OK".
set -uo pipefail
root="$1"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A PATH without nvidia-smi (as on CI); a stand-in that lists no GPU where one is installed.
fake=$(mktemp -d)
trap 'rm -rf "$out" "$fake"' EXIT
printf '#!/bin/sh\necho "No devices were found" >&2\nexit 6\n' > "$fake/nvidia-smi"
chmod +x "$fake/nvidia-smi"
for path in "/usr/bin:/bin" "$fake:/usr/bin:/bin"; do
  log=$(PATH="$path" bash "$root/scripts/gpu-check.sh" "$out" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "FAIL: gpu-check exited 0 without a GPU (PATH=$path)"; echo "$log"; exit 1
  fi
  if echo "$log" | grep -q "gpu-check: OK"; then
    echo "FAIL: gpu-check printed OK without a GPU"; echo "$log"; exit 1
  fi
  reason=$(echo "$log" | grep "^gpu-check: FAILED:")
  if [ "$(echo "$reason" | grep -c .)" -ne 1 ] || ! echo "$reason" | grep -q "GPU"; then
    echo "FAIL: expected one 'gpu-check: FAILED: ...' line naming the GPU, got:"; echo "$log"; exit 1
  fi
  # It stops before building anything.
  if echo "$log" | grep -q "== .* configure"; then
    echo "FAIL: gpu-check went on to configure without a GPU"; echo "$log"; exit 1
  fi
  echo "ok (PATH=$path): $reason"
done
