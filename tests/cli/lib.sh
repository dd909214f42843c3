# Shared helpers for the CLI smoke tests. Each test: bash X.sh <gpusizer binary> <source dir>.
set -euo pipefail
GPUSIZER=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }
validate() { /usr/bin/python3 "$SRC/scripts/validate_json.py" "$SRC/reports/schema/$1" "${@:2}"; }
