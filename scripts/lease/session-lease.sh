#!/usr/bin/env bash
# One lease on the H200 for a tree that merges several issues' GPU steps (here 30, 31 and 34), in
# parts that each fit a device command's 10 minutes, run back to back so that the machine stays warm
# and build/dev is built once:
#
#   scripts/lease/session-lease.sh OUTDIR build    the dev preset of this tree and the previous
#                                                  code's labrun (OLD_SRC, default
#                                                  build/labrun-pre-session), side by side (~3 min);
#                                                  where BASELINE_PATCH (default
#                                                  build/labrun-baseline.patch) is carried, the
#                                                  baseline's labrun too (build/baseline-dev: the
#                                                  code an issue measured its figures with,
#                                                  intervals-benchmark.sh's baseline stage)
#   scripts/lease/session-lease.sh OUTDIR labrun   this tree's labrun alone (dev preset, its
#                                                  helpers and data files; no tests, no previous
#                                                  code: about 1 min), for a lease that only writes
#                                                  evidence (intervals-lease.sh OUTDIR evidence)
#   scripts/lease/session-lease.sh OUTDIR pace     grading-pace.sh: the honest batch, OLD's rate,
#                                                  fault injection, every corpus, one grade, the
#                                                  jobs sweep (about 9 min in all, more than one
#                                                  device command: PACE_STEPS="1 2", then a second
#                                                  command with PACE_STEPS="3 4 5 6" on the same
#                                                  machine, about 2 and 6 min)
#   scripts/lease/session-lease.sh OUTDIR timing   intervals-benchmark.sh day48 others (~6 min)
#   scripts/lease/session-lease.sh OUTDIR rest     intervals-benchmark.sh continuity evidence report;
#                                                  exercises.sh's day-48 reports OLD against NEW (on
#                                                  the pace part's corpus reports); every other GPU
#                                                  test (~7 min)
#   scripts/lease/session-lease.sh OUTDIR checks   the GPU tests the timing stages do not cover (as
#                                                  rest's last step) and grading-pace.sh's fault
#                                                  injection and corpora (PACE_STEPS="3 4"); a
#                                                  table last (~7 min)
#   scripts/lease/session-lease.sh OUTDIR all-gpu-tests
#                                                  every GPU test, the grading corpus, the skeleton
#                                                  and the batch beside hostile ones among them (the
#                                                  other parts leave those three to grading-pace.sh);
#                                                  its log comes back as ctest-gpu-all.log (~5 min)
#   scripts/lease/session-lease.sh OUTDIR state    where a context's offset lives
#                                                  (docs/measurement.md): context-state-probe.sh,
#                                                  and 4 runs of day 48 in hot-gated timing with
#                                                  one hardware queue (CUDA_DEVICE_MAX_CONNECTIONS=1)
#                                                  read by verdict-stability.py, to set beside the
#                                                  day48 stage's runs (~1.5 min)
#
# The previous code, carried beside .deps as a patch (under 100 KB; the tree that travels, tracked files
# and what is carried, may not exceed 64 MiB, and the tracked files alone were 57.7 MiB on
# 2026-12-05): on the carrying machine, at the commit that travels,
#   scripts/lease/previous-code.sh pack COMMIT      # writes build/labrun-pre-session.patch
# and carry build/labrun-pre-session.patch, beside .deps (valijson, the bubblewrap package and zlib's
# headers and static library in .deps/zlib: docs/installing.md); a baseline's patch is packed the same
# way (previous-code.sh pack COMMIT build/labrun-baseline.patch) and carried beside them, for the
# build to make build/baseline-dev from it. scripts/lease/prepare-carry.sh COMMIT
# makes and checks all of it, and prints the carry argument. The build part unpacks it into
# OLD_SRC when that folder does not exist (a folder of the previous code's sources carried as OLD_SRC
# is used as it is).
#
# COPY_TO (the device tool's $OUT) receives each part's logs and tables and its packed outputs; the
# evidence the runs wrote under evidence/ comes back packed as written, to commit unedited.
# Exit status: 0; 1 a step failed; 2 usage.
set -uo pipefail
usage="usage: session-lease.sh OUTDIR build|labrun|pace|timing|rest|checks|all-gpu-tests|state"
[ -n "${1:-}" ] || { echo "$usage" >&2; exit 2; }
out=$1
[ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
part=$2
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
copy_to=${COPY_TO:-$out/copy}
mkdir -p "$copy_to"
old_src=${OLD_SRC:-$PWD/build/labrun-pre-session}
export OLD_BUILD=$PWD/build/old-dev
baseline_patch=${BASELINE_PATCH:-$PWD/build/labrun-baseline.patch}
baseline_src=$PWD/build/labrun-baseline
export BASELINE_BUILD=$PWD/build/baseline-dev
status=0
step() { echo "== [$(date -u +%H:%M:%S)] $*"; }
# ctest_summary LOG LINES: the last LINES of a ctest log's verdict lines (passed share, failures,
# time-outs, tests not run, total time).
ctest_summary() {
  grep -E "tests passed|\(Failed\)|\(Timeout\)|\*\*\*Failed|Not Run|Total Test time" "$1" | tail -n "$2"
}

# dev_build_commit: the commit this tree was sent from, for its transcripts (a carried
# build/tree-commit.txt, scripts/lease/tree-commit.sh), as shell assignments to eval before the dev
# build (none where it is missing: the build then names the git HEAD of the copy, which may be an
# earlier session's); what it found is said on stderr.
dev_build_commit() {
  local assignments
  assignments=$(scripts/lease/tree-commit.sh env) || assignments=""
  if [ -n "$assignments" ]; then
    echo "dev build's commit, from build/tree-commit.txt: ${assignments//$'\n'/; }" >&2
  else
    echo "no build/tree-commit.txt: the dev build names the git HEAD of the copy" >&2
  fi
  printf '%s\n' "$assignments"
}

# configure_dev: configure this tree's dev preset as every lease builds it. g++ 13 warns where g++ 12
# does not (-Wdangling-reference), so the lease's build does not stop there. LABRUN_REQUIRE_ZLIB: the
# committed transcripts the evidence stage reads are gzip-compressed; where the machine has no
# zlib1g-dev, CMake takes the one carried in .deps/zlib (docs/installing.md).
configure_dev() {
  cmake --preset dev -DLABRUN_WARNINGS_AS_ERRORS=OFF -DLABRUN_REQUIRE_ZLIB=ON
}

. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
. scripts/lib/lease-steps.sh  # labrun_alone

case "$part" in
  build)
    step "build dev and the previous code's labrun, side by side"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
    if [ ! -d "$old_src" ]; then
      scripts/lease/previous-code.sh unpack "$old_src" || { echo "NO PREVIOUS CODE"; exit 1; }
    fi
    begin=$(date +%s)
    baseline=""
    if [ -f "$baseline_patch" ]; then
      if [ -d "$baseline_src" ] || scripts/lease/previous-code.sh unpack "$baseline_src" "$baseline_patch"; then
        labrun_alone "$baseline_src" "$BASELINE_BUILD" "$baseline_patch" >"$out/build-baseline.log" 2>&1 &
        baseline=$!
      else
        echo "NO BASELINE CODE ($baseline_patch)"; status=1
      fi
    fi
    tree_commit=$(dev_build_commit)
    { eval "$tree_commit"
      configure_dev && cmake --build --preset dev -j 12; } >"$out/build.log" 2>&1 &
    dev=$!
    # The patch the previous code came from, unless OLD_SRC names a folder of its own.
    old_patch=$PWD/build/labrun-pre-session.patch
    [ -z "${OLD_SRC:-}" ] || old_patch=""
    labrun_alone "$old_src" "$OLD_BUILD" "$old_patch" >"$out/build-old.log" 2>&1 &
    old=$!
    wait "$dev" || { tail -40 "$out/build.log"; cp "$out/build.log" "$copy_to/"; echo "BUILD FAILED"; status=1; }
    echo "dev build: $(( $(date +%s) - begin )) s"
    wait "$old" || { tail -20 "$out/build-old.log"; cp "$out/build-old.log" "$copy_to/"; echo "OLD BUILD FAILED"; status=1; }
    if [ -n "$baseline" ]; then
      wait "$baseline" || { tail -20 "$out/build-baseline.log"; cp "$out/build-baseline.log" "$copy_to/"; echo "BASELINE BUILD FAILED"; status=1; }
    fi
    echo "all builds: $(( $(date +%s) - begin )) s"
    grep -c "warning:" "$out/build.log" | sed 's/^/dev build warnings: /'
    grep "warning:" "$out/build.log" | sort -u | head -10 >"$copy_to/build-warnings.txt"
    build/dev/labrun --version
    ;;
  labrun)
    step "build this tree's labrun alone (dev preset)"
    nvidia-smi --query-gpu=name,driver_version --format=csv || true
    begin=$(date +%s)
    tree_commit=$(dev_build_commit)
    { eval "$tree_commit"
      configure_dev && cmake --build --preset dev -j 16 --target labrun; } >"$out/build.log" 2>&1 ||
      { tail -40 "$out/build.log"; echo "BUILD FAILED"; status=1; }
    cp "$out/build.log" "$copy_to/"
    echo "labrun build: $(( $(date +%s) - begin )) s, $(grep -c "warning:" "$out/build.log") warnings"
    build/dev/labrun --version || status=1
    ;;
  pace)
    step "grading-pace.sh"
    scripts/lease/grading-pace.sh "$out/pace" || status=1
    cp "$out/pace/grading-pace.tar.gz" "$copy_to/" 2>/dev/null
    ;;
  timing)
    step "intervals-benchmark.sh day48 others"
    COPY_TO=$copy_to scripts/lease/intervals-benchmark.sh "$out/intervals" day48 others || status=1
    ;;
  rest)
    marker=$out/rest-began
    touch "$marker"
    # REST_STAGES: the intervals-benchmark.sh stages to run (default continuity evidence report; report
    # needs the timing part's runs on the same machine).
    stages=${REST_STAGES:-continuity evidence report}
    step "intervals-benchmark.sh $stages"
    # shellcheck disable=SC2086 # the stages are words
    COPY_TO=$copy_to scripts/lease/intervals-benchmark.sh "$out/intervals" $stages || status=1
    # REST_EXERCISES=0 leaves out exercises.sh (a lease whose pace part comes after this one).
    if [ "${REST_EXERCISES:-1}" != 0 ]; then
      step "exercises.sh: day 48's reports, OLD against NEW (NEW: the pace part's corpus reports)"
      NEW_GRADES=${NEW_GRADES:-$out/pace/grades} SKIP_RATE=1 scripts/lease/exercises.sh "$out/exercises" || status=1
    fi
    step "every other GPU test"
    # REST_TESTS: a regular expression of the GPU tests to run (default every one the other parts
    # did not run), for a lease with less time left.
    timeout 200 ctest --preset dev -L gpu ${REST_TESTS:+-R "$REST_TESTS"} -E 'corpus|skeleton a student|beside hostile ones' \
      --output-on-failure >"$out/ctest-gpu.log" 2>&1 || status=1
    ctest_summary "$out/ctest-gpu.log" 20
    cp "$out/ctest-gpu.log" "$copy_to/"
    tar -czf "$copy_to/exercises.tar.gz" --dereference --exclude='*.svg' -C "$out" exercises 2>/dev/null
    ;;
  checks)
    step "the GPU tests"
    timeout 200 ctest --preset dev -L gpu -E 'corpus|skeleton a student|beside hostile ones' \
      --output-on-failure >"$out/ctest-gpu.log" 2>&1 || status=1
    cp "$out/ctest-gpu.log" "$copy_to/"
    step "grading-pace.sh: fault injection and every corpus"
    PACE_STEPS="3 4" PACE_SWEEP=0 scripts/lease/grading-pace.sh "$out/pace" >"$out/pace.log" 2>&1 || status=1
    cp "$out/pace.log" "$copy_to/"
    cp "$out/pace/grading-pace.tar.gz" "$copy_to/" 2>/dev/null
    step "summary"
    ctest_summary "$out/ctest-gpu.log" 12
    tail -n 12 "$out/pace.log"
    ;;
  all-gpu-tests)
    step "every GPU test"
    ctest --preset dev -L gpu --output-on-failure >"$out/ctest-gpu-all.log" 2>&1 || status=1
    cp "$out/ctest-gpu-all.log" "$copy_to/"
    ctest_summary "$out/ctest-gpu-all.log" 20
    ;;
  state)
    step "context-state probe"
    scripts/diagnostics/context-state-probe.sh "$out/state-probe" >"$out/state-probe.log" 2>&1 || status=1
    mkdir -p "$copy_to/state"
    cp "$out/state-probe.log" "$out"/state-probe/*.csv "$out"/state-probe/*.md "$copy_to/state/" 2>/dev/null
    step "day 48, hot-gated, one hardware queue: 4 runs"
    for i in 1 2 3 4; do
      dir=$out/one-queue/run-$i
      mkdir -p "$dir"
      CUDA_DEVICE_MAX_CONNECTIONS=1 build/dev/labrun run day48-fusion --timing hot-gated --out "$dir" --quiet \
        >/dev/null 2>"$dir.log" || { echo "one-queue run $i: exit $?"; status=1; }
    done
    python3 scripts/diagnostics/verdict-stability.py "$out/one-queue" >"$out/one-queue.md" || status=1
    cp "$out/one-queue.md" "$copy_to/state/"
    tar -czf "$copy_to/state/one-queue.tar.gz" --exclude='*.svg' -C "$out" one-queue
    step "summary"
    grep -A8 "^| workload" "$out"/state-probe/queues-*.md
    grep -o "Process component.*" "$out/one-queue.md"
    ;;
  *)
    echo "unknown part '$part' ($usage)" >&2
    exit 2
    ;;
esac
exit "$status"
