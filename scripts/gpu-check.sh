#!/usr/bin/env bash
# On a machine with a CUDA GPU: build the dev preset, run every test (GPU tests included), run each
# registered lab once for evidence (timed from process start to the last file written), the day-48
# lab again in cold and hot-gated mode and under `labrun profile`, `labrun aggregate` over the
# evidence (committed and new), the installed copy's --version, and the smoke configurations under
# compute-sanitizer where it exists. Logs go to OUTDIR; the evidence each run wrote is copied to
# OUTDIR/evidence and OUTDIR/profiles, the aggregate to OUTDIR/aggregate.
#
#   scripts/gpu-check.sh OUTDIR [--quick]
#
# --quick leaves out the grading corpus (about three minutes) and the sanitizer runs.
set -uo pipefail
out=${1:?usage: scripts/gpu-check.sh OUTDIR [--quick]}
quick=${2:-}
mkdir -p "$out/evidence" "$out/profiles"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
status=0
labrun=./build/dev/labrun

. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one (the lent H200s)
echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv || true
echo "== configure and build (dev preset)"
# The commit the tree was sent from, where build/tree-commit.txt is carried (scripts/lease/tree-commit.sh):
# the copy's .git may be an earlier session's, and the transcripts name what the build records.
eval "$(scripts/lease/tree-commit.sh env)"
start=$(date +%s.%N)
if ! { cmake --preset dev && cmake --build --preset dev -j "$(nproc)"; } >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
echo "build: $(awk "BEGIN{print $(date +%s.%N) - $start}") s"
"$labrun" --version
grep -E "Compiling entry|Used [0-9]+ registers" "$out/build.log" | grep -A1 "sm_90" | head -80 >"$out/ptxas.txt" || true

echo "== tests (dev preset)"
mkdir -p "$out/grades"
exclude=()
[ "$quick" = "--quick" ] && exclude=(-E corpus)
LABRUN_GRADE_OUT="$out/grades" ctest --preset dev "${exclude[@]}" --output-on-failure >"$out/ctest.log" 2>&1 || status=1
[ -f "$out/grades/summary.md" ] && cat "$out/grades/summary.md"
grep -E "tests passed|Failed|\*\*\*|Skipped|Not Run" "$out/ctest.log" | tail -20

# Runs `labrun ARGS...`, times it end to end, copies what it wrote and checks `labrun report`.
run_timed() {
  local name=$1; shift
  local marker; marker=$(mktemp)
  sleep 1
  local begin; begin=$(date +%s.%N)
  "$labrun" "$@" >"$out/$name.stdout.md" 2>"$out/$name.log"
  local code=$?
  echo "$name: labrun $* -> exit ${code}; wall time from process start to last file: $(awk "BEGIN{print $(date +%s.%N) - $begin}") s"
  [ "$code" -eq 0 ] || status=1
  grep -E "plots not drawn|no DRAM counts|INCORRECT|error" "$out/$name.log" | head -5
  while IFS= read -r f; do
    case "$f" in
      evidence/*) mkdir -p "$out/$(dirname "$f")"; cp "$f" "$out/$f" ;;
      profiles/*) mkdir -p "$out/$(dirname "$f")"; cp "$f" "$out/$f" ;;
    esac
    case "$f" in
      *.md) cmp -s "$f" "$out/$name.stdout.md" && echo "  printed Markdown identical to $f" ;;
      *.json) "$labrun" report "$f" | cmp -s - "${f%.json}.md" && echo "  labrun report $f reproduces its Markdown" ;;
    esac
  done < <(find evidence profiles -type f -newer "$marker" 2>/dev/null | sort)
  rm -f "$out/$name.stdout.md" "$marker"
}

echo "== the labs, timed end to end"
run_timed day48-hot run day48-fusion
run_timed day48-cold run day48-fusion --timing cold
run_timed day48-gated run day48-fusion --timing hot-gated
run_timed verdicts run fusion-verdicts
echo "== labrun profile (Nsight Compute)"
run_timed day48-profile profile day48-fusion
rep=$(ls -t profiles/day48-fusion/*/*.ncu-rep 2>/dev/null | head -1)
if [ -n "$rep" ]; then
  ncu --import "$rep" --csv --page raw --metrics dram__bytes_read.sum,dram__bytes_write.sum --print-units base \
    >"$out/ncu-raw.csv" 2>&1
  head -c 1500 "$out/ncu-raw.csv"; echo
fi

echo "== labrun aggregate over the evidence, and the installed copy"
"$labrun" aggregate evidence --out "$out/aggregate" --force >/dev/null 2>"$out/aggregate.log" || status=1
grep -E "left out|aggregated|error" "$out/aggregate.log"
head -30 "$out/aggregate/aggregate.md" | grep -E "^\| (card|NVIDIA|Tesla)"
if cmake --install build/dev --prefix "$out/prefix" >"$out/install.log" 2>&1; then
  "$out/prefix/bin/labrun" --version
else
  echo "INSTALL FAILED"; tail -5 "$out/install.log"; status=1
fi

if [ "$quick" != "--quick" ]; then
  echo "== grading one submission, timed end to end (compile included)"
  start=$(date +%s.%N)
  "$labrun" grade labs/day48-fusion/grading/corpus/correct/halfway.cu --out "$out/grade-correct" --force \
    >"$out/grade-correct.md" 2>"$out/grade-correct.log" || status=1
  echo "labrun grade: $(awk "BEGIN{print $(date +%s.%N) - $start}") s"; head -3 "$out/grade-correct.md"
  if command -v compute-sanitizer >/dev/null 2>&1; then
    echo "== compute-sanitizer (memcheck, smoke configurations)"
    for lab in day48-fusion fusion-verdicts; do
      tmp=$(mktemp -d)
      compute-sanitizer --tool memcheck --error-exitcode 99 "$labrun" run "$lab" --smoke --quiet \
        --out "$tmp" >/dev/null 2>"$out/sanitizer-$lab.log"
      echo "memcheck $lab exit status $?"; tail -2 "$out/sanitizer-$lab.log"
      rm -rf "$tmp"
    done
  fi
fi
exit "$status"
