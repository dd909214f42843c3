# The revision a report is stamped with is the checkout the binary was built from, also after a
# commit made since configuring (it is generated at build time, not at configure time).
source "$(dirname "$0")/lib.sh"
git -C "$SRC" rev-parse HEAD >/dev/null 2>&1 || { echo "not a git checkout: nothing to compare"; exit 0; }
head=$(git -C "$SRC" rev-parse --short=12 HEAD)
version=$("$GPUSIZER" --version)
case "$version" in
  *"($head)"* | *"($head-dirty)"*) ;;
  *) fail "gpusizer --version says '$version', the checkout is at $head" ;;
esac
if [ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
  case "$version" in *-dirty*) fail "clean checkout, but the binary says dirty: $version" ;; esac
fi
"$GPUSIZER" run --tiny --no-progress --filter stream_triad -o r.json >/dev/null 2>&1 \
  || fail "tiny run failed"
python3 - "$head" <<'PY'
import json, sys
rev = json.load(open("r.json"))["tool"]["git_revision"]
assert rev.split("-")[0] == sys.argv[1], (rev, sys.argv[1])
PY
echo "git revision stamped: $version"
