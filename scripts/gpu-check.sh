#!/usr/bin/env bash
# On a machine with a CUDA GPU: build the dev preset, run every test (GPU tests included), run
# the day-48 lab once for evidence (timed from process start to the last file written), and run
# the smoke configuration under compute-sanitizer where it exists. Logs and evidence go to OUTDIR.
#
#   scripts/gpu-check.sh OUTDIR [labrun run options...]
set -uo pipefail
out=${1:?usage: scripts/gpu-check.sh OUTDIR [labrun run options...]}
shift
mkdir -p "$out"
cd "$(dirname "$0")/.."
status=0

echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv || true
echo "== configure and build (dev preset)"
start=$(date +%s.%N)
if ! { cmake --preset dev && cmake --build --preset dev -j "$(nproc)"; } >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
echo "build: $(awk "BEGIN{print $(date +%s.%N) - $start}") s"
grep -E "Compiling entry|Used [0-9]+ registers" "$out/build.log" | grep -A1 "sm_90" | head -60 >"$out/ptxas.txt" || true

echo "== tests (dev preset)"
mkdir -p "$out/grades"
LABRUN_GRADE_OUT="$out/grades" ctest --preset dev --output-on-failure >"$out/ctest.log" 2>&1 || status=1
[ -f "$out/grades/summary.md" ] && cat "$out/grades/summary.md"
tail -25 "$out/ctest.log"

echo "== the lab, timed end to end"
marker=$(mktemp)
start=$(date +%s.%N)
./build/dev/labrun run day48-fusion "$@" >"$out/lab-stdout.md" 2>"$out/lab-stderr.log"
lab_status=$?
end=$(date +%s.%N)
echo "labrun exit status ${lab_status}; wall time from process start to last file: $(awk "BEGIN{print $end - $start}") s"
[ "$lab_status" -eq 0 ] || status=1
tail -5 "$out/lab-stderr.log"
# Only the files this run wrote; the Markdown it printed must equal the Markdown it wrote.
while IFS= read -r f; do
  cp "$f" "$out/" && echo "evidence: $f"
  case "$f" in
    *.md) cmp -s "$f" "$out/lab-stdout.md" && echo "printed Markdown identical to $f" ;;
    *.json) ./build/dev/labrun report "$f" | cmp -s - "${f%.json}.md" && echo "labrun report $f reproduces its Markdown" ;;
  esac
done < <(find evidence -type f -newer "$marker" \( -name '*.json' -o -name '*.md' \) | sort)
rm -f "$out/lab-stdout.md" "$marker"

echo "== grading one submission, timed end to end (compile included)"
start=$(date +%s.%N)
./build/dev/labrun grade tests/grading/corpus/correct/halfway.cu --out "$out/grade-correct" --force \
  >"$out/grade-correct.md" 2>"$out/grade-correct.log" || status=1
echo "labrun grade: $(awk "BEGIN{print $(date +%s.%N) - $start}") s"; head -3 "$out/grade-correct.md"

if command -v compute-sanitizer >/dev/null 2>&1; then
  echo "== compute-sanitizer (memcheck, smoke configuration)"
  tmp=$(mktemp -d)
  compute-sanitizer --tool memcheck --error-exitcode 99 ./build/dev/labrun run day48-fusion --smoke --quiet \
    --out "$tmp" >/dev/null 2>"$out/sanitizer.log"
  echo "memcheck exit status $?"; tail -3 "$out/sanitizer.log"
  rm -rf "$tmp"
fi
exit "$status"
