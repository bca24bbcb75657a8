#!/usr/bin/env bash
# compute-sanitizer's replica of a timed call and its bounds (docs/grading.md, "What is left"), told
# apart from the code before them on the device, in one device command (about 6 min on an H100):
#   1. builds this tree's dev preset (labrun, its grading child and labrun-contain, the GPU tests) and,
#      side by side, the previous code's labrun, grading child and labrun-contain into OLD_BUILD
#      (default build/old-dev) from PATCH (default build/labrun-pre-bounds.patch: packed on the
#      carrying machine with `scripts/lease/previous-code.sh pack b872075 build/labrun-pre-bounds.patch`,
#      the commit before the replica's bounds, and carried; the replica itself was told apart from
#      4fe02e1, the commit before it, on 2026-12-07:
#      scripts/diagnostics/benchmarks/2026-12-07T14-30Z-h100-sanitizer-replica/); a build already
#      there is built incrementally;
#   2. grades, with each labrun, single `labrun grade` runs of:
#      - the corpus's barrier-in-divergent-branch (a divergent barrier everywhere: 35 with both);
#      - divergent-barrier-at-powers-of-two and divergent-barrier-beside-guards (the same barrier
#        taken only at the timed calls' size, or only in a graded call's buffers: 35 with both, the
#        replica's);
#      - read-past-n-at-powers-of-two (x[n], the guard's first word, read at the timed calls' size
#        only: 100 with the previous code, whose memcheck saw the read inside x's allocation, and 35
#        with the bounds);
#      - correct and correct-shared-tile (100 with both), and fusion-verdicts' correct (85 with both:
#        slow, as its corpus says), whose kernels use shared memory per element (racecheck's dearest
#        case), for what the replica costs: each report's seconds of sanitizing per tool;
#      each grade at most 150 s, the table in OUTDIR/told-apart.md;
#   3. the GPU test that grades every exercise's corpus (at most LEASE_CORPUS_S seconds, default 170),
#      its log in OUTDIR/ctest-corpus.log and the reports under OUTDIR/grades.
# Logs go to OUTDIR as each step writes them (give the device tool's $OUT). The table is printed last.
#
#   scripts/lease/sanitizer-replica.sh OUTDIR
#
# Exit status: 0 both builds built, every grade gave the score the list above expects of it and the
# corpus test passed; 1 otherwise; 2 usage.
set -uo pipefail
out=${1:?usage: scripts/lease/sanitizer-replica.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
export PATH=$PATH:/usr/local/cuda/bin
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
. scripts/lib/lease-steps.sh  # score_of, labrun_alone
old_build=${OLD_BUILD:-build/old-dev}
patch=${PATCH:-build/labrun-pre-bounds.patch}
new=build/dev/labrun
old=$old_build/labrun
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/card.txt"

begin=$(date +%s)
eval "$(scripts/lease/tree-commit.sh env)"
{ cmake --preset dev -DLABRUN_WARNINGS_AS_ERRORS=OFF -DLABRUN_REQUIRE_ZLIB=ON &&
  cmake --build --preset dev -j 10 --target labrun labrun-grade-child labrun-contain labrun_gpu_tests; } \
  >"$out/build.log" 2>&1 &
dev=$!
old_src=build/pre-bounds-src
{ { [ -d "$old_src" ] || scripts/lease/previous-code.sh unpack "$old_src" "$patch"; } &&
  labrun_alone "$old_src" "$old_build" "$patch"; } >"$out/build-old.log" 2>&1 &
previous=$!
wait "$dev" || { tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1; }
wait "$previous" || { tail -30 "$out/build-old.log"; echo "THE PREVIOUS CODE'S BUILD FAILED"; exit 1; }
build_s=$(( $(date +%s) - begin ))

# Each tool's seconds of sanitizing in a report, "memcheck 0.6 · racecheck 1.2 · synccheck 0.5".
sanitizing_of() {
  python3 - "$1" <<'PY'
import json, sys
try:
    phases = json.load(open(sys.argv[1])).get("phase_seconds", {})
    print(" · ".join(f"{k.split(': ')[1]} {v:.1f}" for k, v in phases.items() if k.startswith("sanitizing: ")) or "-")
except Exception as error:
    print("no report", type(error).__name__)
PY
}

# lab/submission, then the score each labrun must give (previous, new).
cases=(
  "day48-fusion/barrier-in-divergent-branch 35 35"
  "day48-fusion/divergent-barrier-at-powers-of-two 35 35"
  "day48-fusion/divergent-barrier-beside-guards 35 35"
  "day48-fusion/read-past-n-at-powers-of-two 100 35"
  "day48-fusion/correct 100 100"
  "day48-fusion/correct-shared-tile 100 100"
  "fusion-verdicts/correct 85 85"
)
mkdir -p "$out/told-apart"
{
  echo "| submission | previous code: score, mistakes | sanitizing s | this tree: score, mistakes | sanitizing s |"
  echo "| --- | --- | --- | --- | --- |"
} >"$out/told-apart.md"
for entry in "${cases[@]}"; do
  read -r path want_old want_new <<<"$entry"
  lab=${path%%/*}
  name=${path#*/}
  folder=labs/$lab/grading/corpus/$name
  source=$(find "$folder" -maxdepth 1 -name '*.cu' | head -1)
  row="| $path"
  for side in old new; do
    program=$old; want=$want_old
    [ "$side" = new ] && { program=$new; want=$want_new; }
    grade=$out/told-apart/$side-$lab-$name
    # The previous code has no copy of the new corpus cases: they are graded from this tree's folder.
    timeout 150 "$program" grade "$source" --out "$grade" --force >"$grade.log" 2>&1
    score=$(score_of "$grade/report.json")
    case "$score" in
      "$want "* | "$want.0 "*) ;;
      *) status=1; score="$score (expected $want)" ;;
    esac
    row+=" | $score | $(sanitizing_of "$grade/report.json")"
  done
  echo "$row |" >>"$out/told-apart.md"
done

told_s=$(( $(date +%s) - begin - build_s ))

begin=$(date +%s)
mkdir -p "$out/grades"
LABRUN_GRADE_OUT="$out/grades" timeout "${LEASE_CORPUS_S:-170}" \
  ctest --preset dev -R "corpus its expected verdict" --output-on-failure >"$out/ctest-corpus.log" 2>&1 || status=1
corpus_s=$(( $(date +%s) - begin ))

echo
echo "card: $(cat "$out/card.txt"); tree ${LABRUN_GIT_COMMIT:-unknown} (dirty ${LABRUN_GIT_DIRTY:-unknown});" \
  "previous code $(scripts/lease/previous-code.sh commit "$patch" 2>/dev/null || echo unknown)"
echo "builds: ${build_s} s; told apart: ${told_s} s; corpus test: ${corpus_s} s," \
  "$(grep -E "tests passed" "$out/ctest-corpus.log" | tail -1 || echo "no result")"
grep -E "REQUIRE|CHECK\(|with expansion|FAILED" "$out/ctest-corpus.log" | head -12
cat "$out/told-apart.md"
exit "$status"
