# `run` checks every flag before it writes anything: a rejected flag (gpusizer's or Google
# Benchmark's, including the values Google Benchmark would end the process for) exits 2 with one
# line and leaves no report and no lock file, and a resumed report untouched.
# --benchmark_list_tests lists like --list. Progress and the final table give each figure in the
# same unit.
source "$(dirname "$0")/lib.sh"
tiny=(run --tiny --no-progress --no-telemetry --no-gpu)
for flag in --benchmark_format=xml --benchmark_color= --benchmark_time_unit=h \
  --benchmark_counters_tabular=maybe --benchmark_nonsense=1 --benchmark_out_format=csv \
  --benchmark_repetitions=0 --v=abc --benchmark_filter='((' "--filter=((" --mig-mode=all \
  --format=xml --telemetry-period=-1s; do
  run_rc "${tiny[@]}" "$flag" -o r.json
  [ "$rc" = 2 ] || fail "$flag: exited $rc, expected 2: $(cat err.txt)"
  one_line err.txt
  grep -q "^gpusizer: " err.txt || fail "$flag: message: $(cat err.txt)"
  left=$(ls -A | grep -v -x -e out.txt -e err.txt || true)
  [ -z "$left" ] || fail "$flag left files behind: $left"
done

# A resumed report is not touched by a rejected flag either.
run_rc "${tiny[@]}" --filter "^memory/memcpy/" -o r.json
[ "$rc" = 0 ] || fail "first run exited $rc: $(cat err.txt)"
sum=$(sha256sum < r.json)
run_rc "${tiny[@]}" --resume r.json --benchmark_format=xml
[ "$rc" = 2 ] || fail "--resume with a bad flag exited $rc, expected 2"
grep -q "^gpusizer: --benchmark_format: expected one of console, json, csv, got \"xml\"$" err.txt \
  || fail "message: $(cat err.txt)"
[ "$(sha256sum < r.json)" = "$sum" ] || fail "the resumed report was changed"
[ ! -e .r.json.lock ] || fail "lock file left behind"
rm -f r.json

# --benchmark_list_tests is --list: the same ids, nothing written.
run_rc "${tiny[@]}" --list -o l.json
[ "$rc" = 0 ] || fail "--list exited $rc: $(cat err.txt)"
mv out.txt list.txt
[ "$(wc -l < list.txt)" -gt 5 ] || fail "--list printed too little: $(cat list.txt)"
for flag in --benchmark_list_tests --benchmark_list_tests=true; do
  run_rc "${tiny[@]}" "$flag" -o l.json
  [ "$rc" = 0 ] || fail "$flag exited $rc: $(cat err.txt)"
  cmp -s out.txt list.txt || fail "$flag printed other ids than --list: $(diff out.txt list.txt)"
done
[ ! -e l.json ] && [ ! -e .l.json.lock ] || fail "a listing wrote a file"

# One unit per figure: the summary progress prints for each record is the table's result cell.
run_rc run --tiny --progress --no-telemetry --no-gpu --filter "^(gemm/fp32/cpu/|memory/memcpy/)" \
  -o u.json
[ "$rc" = 0 ] || fail "run exited $rc: $(cat err.txt)"
figures=$(sed -n 's/^  ok \(.*\), verification .*$/\1/p' err.txt)
[ "$(echo "$figures" | grep -c 'FLOP/s')" -ge 1 ] || fail "no FLOP/s figure in progress: $(cat err.txt)"
[ "$(echo "$figures" | grep -c 'B/s')" -ge 1 ] || fail "no B/s figure in progress: $(cat err.txt)"
while read -r figure; do
  grep -qF "  $figure  " out.txt || fail "progress said \"$figure\"; the table: $(cat out.txt)"
done <<< "$figures"
echo "run_flags: ok"
