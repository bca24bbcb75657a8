# shellcheck shell=bash
# Steps the grading lease scripts share (scripts/lease/answer-reading.sh, sanitizer-cost.sh); sourced
# from the repository's root, with the dev preset built.

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
