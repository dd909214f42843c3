#!/usr/bin/env bash
# EC2 user data for a rented GPU machine (Capacity Block, on-demand or spot), Ubuntu/Debian with
# the NVIDIA driver (e.g. a Deep Learning AMI). Builds gpusizer, runs it until a deadline, and
# copies the report to S3 every minute and at the end, so a reclaimed spot instance or the end of
# a capacity block loses nothing finished. Set the variables below (or in the launch template).
#
#   GPUSIZER_SRC      git URL or path of the gpusizer sources
#   GPUSIZER_S3       s3://bucket/prefix/ where reports go (needs an instance role with s3:PutObject)
#   GPUSIZER_SUITE    quick | standard | full            (default standard)
#   GPUSIZER_DEADLINE UTC time to stop by, e.g. 2026-12-01T10:55:00Z (capacity blocks end 11:30
#                     UTC and EC2 starts terminating 30 min earlier); empty = no deadline
# Not run by the project's tests (it needs EC2); shellcheck-clean.
set -euo pipefail
: "${GPUSIZER_SRC:?set GPUSIZER_SRC}" "${GPUSIZER_S3:?set GPUSIZER_S3}"
suite=${GPUSIZER_SUITE:-standard}
work=/opt/gpusizer
out=/var/lib/gpusizer
mkdir -p "$out"
if [ ! -d "$work/.git" ] && [ ! -d "$work/harness" ]; then
  git clone --depth 1 "$GPUSIZER_SRC" "$work" 2>/dev/null || cp -r "$GPUSIZER_SRC" "$work"
fi
cd "$work"
./scripts/setup.sh

report="$out/gpusizer-$(hostname)-$suite.json"
sync_report() { [ -s "$report" ] && aws s3 cp --only-show-errors "$report" "$GPUSIZER_S3" || true; }
( while sleep 60; do sync_report; done ) &
syncer=$!
trap 'kill $syncer 2>/dev/null; sync_report' EXIT

args=(run --suite "$suite" --imds --io-dir "$out" --out "$report" --progress)
[ -n "${GPUSIZER_DEADLINE:-}" ] && args+=(--deadline "$GPUSIZER_DEADLINE")
[ -s "$report" ] && args+=(--resume "$report")   # a restarted instance continues
./build/gpusizer "${args[@]}" || echo "gpusizer exited $? (3: stopped, --resume continues; the report says why)"
