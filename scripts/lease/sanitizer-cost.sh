#!/usr/bin/env bash
# One device command that sizes what compute-sanitizer would cost at the graded large size, the
# unknown that a change closing the sanitizer's size signal (docs/grading.md, "What is left") waits
# on; then every GPU test of this tree. It builds the dev preset (incrementally where build/dev has one), then
#   1. compiles the corpus's correct submissions that use shared memory and barriers, and plain ones,
#      to cubins for this card (as the grader does, without its sandbox), and runs the grading child
#      in its sanitize mode under memcheck, racecheck and synccheck, each once as labrun runs it today
#      (n = the exercise's small sanitizer size, then its odd size) and once with the small size
#      replaced by the card-scaled size the timed calls use (n = card, then the odd size): exact
#      buffers of n elements, as today; the requests are written here, not by labrun; each run's wall
#      seconds, exit status and error summary go to OUTDIR/sanitizer-cost.md, the runs stop once
#      LEASE_SANITIZER_S seconds (default 150) have gone, and each run has at most 120 s;
#   2. grades the corpus's barrier-in-divergent-branch, its divergent-barrier-behind-a-flag, and a
#      copy of the first that takes the divergent barrier only where n is a power of two (where the
#      timed calls run, and compute-sanitizer never does): what the sanitizer's runs let a
#      submission tell apart, OUTDIR/told-apart.md;
#   3. every GPU test (`ctest --preset dev -L gpu`: the grading corpora among them), the reports kept
#      under OUTDIR/grades, for at most LEASE_GPU_TESTS_S seconds (default 300).
# Logs go to OUTDIR as each step writes them (give the device tool's $OUT, so that a run cut off at
# its limit still brings them back). The table is printed last.
#
#   scripts/lease/sanitizer-cost.sh OUTDIR
#
# Exit status: 0 every step ran and the GPU tests passed; 1 otherwise; 2 usage.
set -uo pipefail
out=${1:?usage: scripts/lease/sanitizer-cost.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
export PATH=$PATH:/usr/local/cuda/bin
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
. scripts/lib/lease-steps.sh  # score_of, run_gpu_tests, gpu_test_failures
eval "$(scripts/lease/tree-commit.sh env)"
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/card.txt"
begin=$(date +%s)
{ cmake --preset dev && cmake --build --preset dev -j 16; } >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1; }
build_s=$(( $(date +%s) - begin ))
build/dev/labrun --version | head -2 | tee "$out/version.txt"

# The card-scaled size as the grader computes it for a 4-byte element: the smallest power of two
# whose buffer holds 8 x L2.
l2=$(python3 -c "import ctypes; c = ctypes.CDLL('/usr/local/cuda/lib64/libcudart.so'); v = ctypes.c_int(); c.cudaDeviceGetAttribute(ctypes.byref(v), 38, 0); print(v.value)")
card=1
while [ $(( card * 4 )) -lt $(( l2 * 8 )) ]; do card=$(( card * 2 )); done
child=$PWD/build/dev/labrun-grade-child
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')

# lab exercise corpus-case source odd-size small-size
cases=(
  "day48-fusion halfway-pair correct-shared-tile halfway.cu 1049187 4099"
  "day48-fusion halfway-pair correct halfway.cu 1049187 4099"
  "fusion-verdicts sum-of-squares correct-warp-shuffle sum_of_squares.cu 1049187 4099"
  "fusion-verdicts sum-of-squares correct-cub-block-reduce sum_of_squares.cu 1049187 4099"
  "fusion-verdicts sum-of-squares correct sum_of_squares.cu 1049187 4099"
  "day20-sobel-threshold sobel-threshold correct-shared-tile sobel_threshold.cu 1048047 4087"
)
limit_s=${LEASE_SANITIZER_S:-150}
sanitize_begin=$(date +%s)
{
  echo "card-scaled size here: $card elements (L2 $l2 bytes); sm_$arch"
  echo
  echo "| submission | tool | small size | wall s | exit | summary |"
  echo "| --- | --- | --- | --- | --- | --- |"
} >"$out/sanitizer-cost.md"
for entry in "${cases[@]}"; do
  read -r lab exercise name source odd small <<<"$entry"
  work="$out/sanitize/$lab-$name"
  mkdir -p "$work"
  dir=labs/$lab/grading/corpus/$name
  if ! nvcc -cubin -std=c++17 -O3 -arch="sm_$arch" -I "labs/$lab" -o "$work/image.cubin" "$dir/$source" \
      >"$work/nvcc.log" 2>&1; then
    echo "| $lab/$name | - | - | - | - | nvcc failed |" >>"$out/sanitizer-cost.md"
    continue
  fi
  manifest=
  for candidate in "$dir"/*.json; do
    [ "$(basename "$candidate")" = expected.json ] || manifest=$candidate
  done
  for small_label in today card; do
    first=$small
    [ "$small_label" = card ] && first=$card
    python3 - "$manifest" "$work/request-$small_label.json" "$lab" "$exercise" "$odd" "$card" "$first" <<'PY'
import json, sys
manifest, target, lab, exercise, odd, card, first = sys.argv[1:]
kernels = json.load(open(manifest))["kernels"]
shapes = [{k: v for k, v in shape.items() if k in ("threads_per_block", "elements_per_thread", "grid_stride")}
          for shape in kernels.values()]
request = {"lab": lab, "exercise": exercise, "mode": "sanitize", "image": "image.cubin",
           "results": "results.json", "phase": "phase.txt", "seed": 7, "odd_elements": int(odd),
           "card_elements": int(card), "sanitize_elements": int(first), "shapes": shapes,
           "kernel_time_limit_s": 110, "timing_limit_s": 15, "timing_samples": 30,
           "wait_for_timing_turn": False, "turn_wait_limit_s": 60, "lab_times": None, "image_globals": []}
json.dump(request, open(target, "w"), indent=1)
PY
    for tool in memcheck racecheck synccheck; do
      if [ $(( $(date +%s) - sanitize_begin )) -ge "$limit_s" ]; then
        echo "| $lab/$name | $tool | $small_label | - | - | not run: LEASE_SANITIZER_S spent |" >>"$out/sanitizer-cost.md"
        continue
      fi
      log="sanitizer-$tool-$small_label.log"
      t0=$(date +%s%N)
      (cd "$work" && timeout 120 compute-sanitizer --tool "$tool" --log-file "$log" --error-exitcode 99 --nvtx yes \
         --report-api-errors no --print-limit 20 "$child" \
         --request "request-$small_label.json" >"run-$tool-$small_label.out" 2>&1)
      rc=$?
      t1=$(date +%s%N)
      summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|No hazards" "$work/$log" | tail -1 | tr -d '=' | sed 's/^ *//')
      printf '| %s/%s | %s | %s | %s | %s | %s |\n' "$lab" "$name" "$tool" \
        "$([ "$small_label" = card ] && echo "$card" || echo "$small")" \
        "$(( (t1 - t0) / 1000000000 )).$(( (t1 - t0) / 100000000 % 10 ))" "$rc" \
        "${summary:-no summary}" >>"$out/sanitizer-cost.md"
    done
  done
done
sanitize_s=$(( $(date +%s) - sanitize_begin ))

# The sanitizer's runs told apart (docs/grading.md, "What is left"): the corpus's divergent barrier
# as it is; behind a flag set at the sanitizer's small size (closed: global variables are set back
# before every call); and clean wherever n is not a power of two (the sanitizer's sizes, 4099 and
# the odd size, never are; the card-scaled size, where the timed calls run, always is: still open).
corpus=labs/day48-fusion/grading/corpus
sized="$out/told-apart/clean-off-powers-of-two"
mkdir -p "$sized"
sed 's/"barrier-in-divergent-branch"/"clean-off-powers-of-two"/' "$corpus/barrier-in-divergent-branch/manifest.json" \
  >"$sized/manifest.json"
sed 's/  if (threadIdx.x < blockDim.x \/ 2) {/  if ((n \& (n - 1)) == 0 \&\& threadIdx.x < blockDim.x \/ 2) {/' \
  "$corpus/barrier-in-divergent-branch/halfway.cu" >"$sized/halfway.cu"
grep -q 'n & (n - 1)' "$sized/halfway.cu" || echo "the size trick's edit did not apply" >>"$out/told-apart.md"
{
  echo "| submission | score, mistakes |"
  echo "| --- | --- |"
} >>"$out/told-apart.md"
for submission in "$corpus/barrier-in-divergent-branch" "$corpus/divergent-barrier-behind-a-flag" "$sized"; do
  name=$(basename "$submission")
  timeout 150 build/dev/labrun grade "$submission/halfway.cu" --out "$out/told-apart/$name-grade" --force \
    >"$out/told-apart/$name.log" 2>&1
  echo "| $name | $(score_of "$out/told-apart/$name-grade/report.json") |" >>"$out/told-apart.md"
done

run_gpu_tests "$out" || status=1

echo
echo "card: $(cat "$out/card.txt"); tree ${LABRUN_GIT_COMMIT:-unknown} (dirty ${LABRUN_GIT_DIRTY:-unknown})"
echo "build: ${build_s} s; sanitizer runs: ${sanitize_s} s; GPU tests: ${gpu_line:-no result} (${gpu_s} s)"
gpu_test_failures "$out"
echo
cat "$out/sanitizer-cost.md"
echo
cat "$out/told-apart.md"
exit "$status"
