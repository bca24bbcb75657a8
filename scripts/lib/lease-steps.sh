# shellcheck shell=bash
# Steps the lease scripts share (scripts/lease/answer-reading.sh, sanitizer-cost.sh,
# sanitizer-replica.sh, session-lease.sh); sourced from the repository's root. labrun_alone needs
# nothing built; the other steps need the dev preset built.

# A labrun alone (labrun, labrun-grade-child, labrun-contain; no tests), Release, for the card found,
# from SOURCE into BUILD, as the side-by-side checks run it:
#   labrun_alone SOURCE BUILD [PATCH]
# With PATCH (scripts/lease/previous-code.sh pack), its transcripts name the commit PATCH reverses the
# tree to (previous-code.sh unpack checked the files against it), not the copy's stale .git; without
# one (a folder of its own), the build falls back to git. Runs in a subshell: it exports nothing.
labrun_alone() (
  named=(env)
  if [ -n "${3:-}" ]; then
    commit=$(scripts/lease/previous-code.sh commit "$3") || exit 1
    named+=(LABRUN_GIT_COMMIT="$commit" LABRUN_GIT_DIRTY=false)
  fi
  "${named[@]}" cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DLABRUN_BUILD_TESTS=OFF -DLABRUN_WARNINGS_AS_ERRORS=OFF \
    -DLABRUN_VALIJSON_INCLUDE_DIR="$PWD/.deps/valijson/usr/include" &&
    "${named[@]}" cmake --build "$2" -j 6 --target labrun labrun-grade-child labrun-contain
)

# The score and mistakes of a report.json, on one line ("no report ..." where there is none).
score_of() {
  python3 - "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    print(r["score"], ",".join(m["id"] for m in r["mistakes"]) or "-")
except Exception as error:
    print("no report", type(error).__name__)
PY
}

# Every GPU test (`ctest --preset dev -L gpu`: the grading corpora among them), the reports kept
# under OUTDIR/grades, the log in OUTDIR/ctest-gpu.log, for at most LEASE_GPU_TESTS_S seconds
# (default 300). Sets gpu_s (wall seconds) and gpu_line (ctest's "tests passed" line); returns 1
# where a test failed or the run was cut off.
# shellcheck disable=SC2034  # gpu_s and gpu_line are for the sourcing script
run_gpu_tests() {
  local out=$1 begin result=0
  begin=$(date +%s)
  mkdir -p "$out/grades"
  LABRUN_GRADE_OUT="$out/grades" timeout "${LEASE_GPU_TESTS_S:-300}" ctest --preset dev -L gpu --output-on-failure \
    >"$out/ctest-gpu.log" 2>&1 || result=1
  gpu_s=$(( $(date +%s) - begin ))
  gpu_line=$(grep -E "tests passed" "$out/ctest-gpu.log" | tail -1)
  return "$result"
}

# The GPU tests that failed, were cut off or did not run, at most ten lines.
gpu_test_failures() {
  grep -E "\(Failed\)|\*\*\*Failed|Timeout|Not Run" "$1/ctest-gpu.log" | head -10
}
