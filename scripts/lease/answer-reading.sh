#!/usr/bin/env bash
# One device command for the answer memory (src/exercise/child_session.hpp, ChildSession::answer):
# the dev preset of this tree and a Release build of the previous code (PATCH, default
# build/labrun-pre-answers.patch from `scripts/lease/previous-code.sh pack COMMIT PATCH`, carried),
# built side by side; then
#   1. with each build, the hostile submission scripts/diagnostics/answer-reading/reads_the_reference.cu
#      (synthetic): the distance from x to the reference is measured on this card with that build's
#      grading child under cuda_malloc_log.c, as a student could on their own card, compiled into the
#      submission, which `labrun grade` then grades;
#   2. with this tree, the corpus's barrier-in-divergent-branch and a copy that takes its clean path
#      where n is the sanitizer's small size (and in every later call of that process): what the
#      sanitizer's runs still let a submission tell apart (not fixed by this change; docs/grading.md's
#      threat model says so);
#   3. every GPU test of this tree (`ctest --preset dev -L gpu`: the grading corpora among them), the
#      reports kept under OUTDIR/grades, for at most LEASE_GPU_TESTS_S seconds (default 300).
# The table is printed last. Logs go to OUTDIR as each step writes them (give the device tool's $OUT,
# so that a run cut off at its limit still brings them back). About 5.5 minutes on an H100 (2026-12-07:
# the builds 97 to 105 s side by side, the GPU tests 207 to 228 s).
#
#   scripts/lease/answer-reading.sh OUTDIR
#
# Exit status: 0 every step ran and the GPU tests passed; 1 otherwise; 2 usage.
set -uo pipefail
out=${1:?usage: scripts/lease/answer-reading.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
patch=${PATCH:-build/labrun-pre-answers.patch}
kit=$PWD/scripts/diagnostics/answer-reading
old_src=$PWD/build/old-src
old_build=$PWD/build/old-release
export PATH=$PATH:/usr/local/cuda/bin
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
. scripts/lib/lease-steps.sh  # score_of, run_gpu_tests, gpu_test_failures
eval "$(scripts/lease/tree-commit.sh env)"
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/card.txt"
rm -rf "$old_src"
if ! scripts/lease/previous-code.sh unpack "$old_src" "$patch" >"$out/unpack.log" 2>&1; then
  cat "$out/unpack.log"; exit 1
fi
old_commit=$(scripts/lease/previous-code.sh commit "$patch")
begin=$(date +%s)
{ cmake --preset dev && cmake --build --preset dev -j 12; } >"$out/build.log" 2>&1 &
new_pid=$!
{ cmake -S "$old_src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DLABRUN_BUILD_TESTS=OFF -DLABRUN_VALIJSON_INCLUDE_DIR="$PWD/.deps/valijson/usr/include" &&
  cmake --build "$old_build" -j 6 --target labrun labrun-grade-child labrun-contain; } >"$out/build-old.log" 2>&1 &
old_pid=$!
wait "$new_pid" || { tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1; }
wait "$old_pid" || { tail -20 "$out/build-old.log"; echo "OLD BUILD FAILED"; exit 1; }
builds_s=$(( $(date +%s) - begin ))
build/dev/labrun --version | head -2 | tee "$out/version.txt"
warnings=$(grep -c "warning" "$out/build.log")



# Step 1 with one build (its folder): the distance measured, then one grade.
l2=$(python3 -c "import ctypes; c = ctypes.CDLL('/usr/local/cuda/lib64/libcudart.so'); v = ctypes.c_int(); c.cudaDeviceGetAttribute(ctypes.byref(v), 38, 0); print(v.value)")
card_elements=1
while [ $(( card_elements * 4 )) -lt $(( l2 * 8 )) ]; do card_elements=$(( card_elements * 2 )); done
gcc -shared -fPIC -o "$out/cuda_malloc_log.so" "$kit/cuda_malloc_log.c" -ldl
attack() {
  local side=$1 folder=$2 work="$out/attack-$1"
  mkdir -p "$work/submission" "$work/measure"
  python3 - labs/fusion-verdicts/grading/corpus/correct/sum_of_squares.json "$work/submission/sum_of_squares.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["student_id"] = "reads-the-reference"
manifest["kernels"]["sum_of_squares_partials"].update(threads_per_block=1024, elements_per_thread=64)
json.dump(manifest, open(sys.argv[2], "w"), indent=2)
PY
  nvcc -cubin -std=c++17 -O3 -arch=sm_90 -o "$work/measure/image.cubin" "$kit/reads_the_reference.cu" &&
  cat >"$work/measure/request.json" <<JSON
{"lab": "fusion-verdicts", "exercise": "sum-of-squares", "mode": "grade", "image": "image.cubin",
 "results": "results.json", "phase": "phase.txt", "seed": 7, "odd_elements": 1049187,
 "card_elements": $card_elements, "sanitize_elements": 4099,
 "shapes": [{"threads_per_block": 1024, "elements_per_thread": 64}, {"threads_per_block": 256, "elements_per_thread": 1}],
 "kernel_time_limit_s": 2, "timing_limit_s": 15, "timing_samples": 30, "wait_for_timing_turn": false,
 "turn_wait_limit_s": 60, "lab_times": null, "image_globals": [{"name": "under_the_sanitizer", "bytes": 4}]}
JSON
  (cd "$work/measure" && LD_PRELOAD="$out/cuda_malloc_log.so" timeout 60 "$folder/labrun-grade-child" --request request.json \
     >/dev/null 2>allocations.log)
  local offset
  offset=$(python3 "$kit/find_reference_offset.py" "$work/measure/allocations.log") || offset=""
  echo "$side: reference at x + ${offset:-?} bytes" >"$work/offset.txt"
  sed "s/^#define READ_AT 0$/#define READ_AT (${offset:-0}LL)/" "$kit/reads_the_reference.cu" >"$work/submission/sum_of_squares.cu"
  timeout 120 "$folder/labrun" grade "$work/submission/sum_of_squares.cu" --out "$work/grade" --force \
    >"$work/grade.log" 2>&1
  printf '| %s (%s) | %s | %s |\n' "$side" "$3" "${offset:-not found}" "$(score_of "$work/grade/report.json")" \
    | tee -a "$out/attack-table.md"
}
: >"$out/attack-table.md"
attack previous "$old_build" "$old_commit"
attack this "$PWD/build/dev" "${LABRUN_GIT_COMMIT:-unknown}"

# Step 2: the sanitizer's runs told apart by their size (this tree).
divergent=labs/day48-fusion/grading/corpus/barrier-in-divergent-branch
hidden="$out/sanitizer-hide/submission"
mkdir -p "$hidden"
sed 's/"barrier-in-divergent-branch"/"sanitizer-hide"/' "$divergent/manifest.json" >"$hidden/manifest.json"
sed -e 's/^extern "C" __global__ void halfway_stages_1_2/__device__ int seen_small_size;\n&/' \
    -e 's/  if (threadIdx.x < blockDim.x \/ 2) {/  if (n == 4099) seen_small_size = 1;\n  if (!(n == 4099 || seen_small_size) \&\& threadIdx.x < blockDim.x \/ 2) {/' \
    "$divergent/halfway.cu" >"$hidden/halfway.cu"
timeout 150 build/dev/labrun grade "$divergent/halfway.cu" --out "$out/sanitizer-hide/as-is" --force >"$out/sanitizer-hide/as-is.log" 2>&1
timeout 150 build/dev/labrun grade "$hidden/halfway.cu" --out "$out/sanitizer-hide/hiding" --force >"$out/sanitizer-hide/hiding.log" 2>&1

# Step 3: the GPU tests, for at most LEASE_GPU_TESTS_S seconds.
run_gpu_tests "$out" || status=1

echo
echo "card: $(cat "$out/card.txt"); tree ${LABRUN_GIT_COMMIT:-unknown} (dirty ${LABRUN_GIT_DIRTY:-unknown}); previous code $old_commit"
echo "builds: ${builds_s} s side by side, warnings in the dev build: $warnings"
echo "GPU tests: ${gpu_line:-no result} (${gpu_s} s)"
gpu_test_failures "$out"
echo
echo "| reads the reference: build | distance found | score, mistakes |"
echo "| --- | --- | --- |"
cat "$out/attack-table.md"
echo
echo "| sanitizer runs told apart by size (this tree) | score, mistakes |"
echo "| --- | --- |"
echo "| barrier-in-divergent-branch as in the corpus | $(score_of "$out/sanitizer-hide/as-is/report.json") |"
echo "| the same, clean where n = 4099 and after it | $(score_of "$out/sanitizer-hide/hiding/report.json") |"
rm -f "$out/cuda_malloc_log.so" "$out"/attack-*/measure/image.cubin
exit "$status"
