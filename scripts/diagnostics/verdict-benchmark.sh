#!/usr/bin/env bash
# On a GPU machine, in one lease: the measurements of issue 22 (reproducible verdicts), in stages, so
# that each stage fits a command limited to 10 minutes on an H200. Every run's files go under OUTDIR,
# one folder per stage and setting (keep OUTDIR between stages: `report` reads them all). Never locks
# clocks.
#
#   scripts/diagnostics/verdict-benchmark.sh OUTDIR STAGE [ARG]
#
# Stages, in the order to run them (each writes OUTDIR/<stage>*.log and a line per run on stdout):
#   build              the dev preset's labrun (build/dev/labrun) and GPU tests, and the GPU tests of
#                      rounds ("[rounds]")
#   build-old          the previous code's labrun, for the continuity check: OLD_SRC names its source
#                      folder; built in OLD_BUILD (Release, this GPU's architecture, no tests)
#   stability [R]      10 runs of day 48 in each of hot, cold and hot-gated, and 5 of fusion-verdicts,
#                      back to back at --rounds R (default: labrun's default); verdict-stability.py
#                      over them (OUTDIR/stability-R.md and .json)
#   rounds R           the same 30 day-48 runs at --rounds R: 1 (the cost baseline: one round is the
#                      sampling before rounds), 3 and 8, for choosing the default
#   options MODE       5 day-48 runs in MODE with each small-n precision option alone:
#                      --small-case-batch 8, --pin-cpu 2, --device-warmup 2, and none (the control)
#   continuity         scripts/diagnostics/timing-side-by-side.sh, the previous code's labrun against this one
#                      (cold, 3 runs each, n >= 2^24 within 1%)
#   report             verdict-stability.py over every stage's runs, one report per stage and
#                      setting (OUTDIR/report.md)
#
# Environment: LABRUN (default build/dev/labrun); OLD_SRC (the previous code: a source tree, e.g.
# `git archive --prefix=labrun-old/ 185c534 -- src labs cmake CMakeLists.txt CMakePresets.json
# scripts evidence/schema tests | tar -x -C build`, carried with .deps); OLD_BUILD (its build folder,
# default build/labrun-old-build: outside OLD_SRC, so carrying OLD_SRC again leaves it); COPY_TO (a
# folder that each stage copies its reports and a .tar.gz of its transcripts into: the device tool's
# $OUT).
# Exit status: 0; 1 a run or build failed; 2 usage.
set -uo pipefail
[ -n "${1:-}" ] || { echo "usage: verdict-benchmark.sh OUTDIR STAGE [ARG]" >&2; exit 2; }
out=$1
[ -n "${2:-}" ] || { echo "usage: verdict-benchmark.sh OUTDIR STAGE [ARG]" >&2; exit 2; }
stage=$2
arg=${3:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
labrun=${LABRUN:-$PWD/build/dev/labrun}
old_build=${OLD_BUILD:-$PWD/build/labrun-old-build}
analyse="python3 $PWD/scripts/diagnostics/verdict-stability.py"
status=0

# Runs labrun with ARGS into folder OUTDIR/NAME and prints its exit status and wall time.
run_into() {
  local name=$1; shift
  mkdir -p "$out/$name"
  local begin; begin=$(date +%s.%N)
  "$labrun" "$@" --out "$out/$name" --quiet >/dev/null 2>>"$out/$name.log"
  local code=$?
  echo "$name: labrun $* -> exit $code, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $begin}") s"
  [ "$code" -eq 0 ] || status=1
}

day48_runs() {  # PREFIX RUNS [labrun options...]
  local prefix=$1 runs=$2; shift 2
  for mode in hot cold hot-gated; do
    for i in $(seq 1 "$runs"); do
      run_into "$prefix/day48-$mode/run-$i" run day48-fusion --timing "$mode" "$@"
    done
  done
}

case "$stage" in
  build)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv || true
    { cmake --preset dev && cmake --build --preset dev -j "$(nproc)" --target labrun labrun_gpu_tests; } \
      >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    "$labrun" --version
    # The GPU tests of rounds, the buffers' renewal and --small-case-batch (tests/gpu/rounds_gpu_test.cpp).
    build/dev/tests/labrun_gpu_tests "[rounds]" >"$out/rounds-gpu-tests.log" 2>&1 || status=1
    tail -3 "$out/rounds-gpu-tests.log"
    ;;
  build-old)
    [ -n "${OLD_SRC:-}" ] || { echo "build-old needs OLD_SRC" >&2; exit 2; }
    valijson=$PWD/.deps/valijson/usr/include
    { cmake -S "$OLD_SRC" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=native -DLABRUN_BUILD_TESTS=OFF -DLABRUN_VALIJSON_INCLUDE_DIR="$valijson" &&
      cmake --build "$old_build" -j "$(nproc)" --target labrun; } >"$out/build-old.log" 2>&1 ||
      { tail -30 "$out/build-old.log"; exit 1; }
    "$old_build/labrun" --version
    ;;
  stability)
    rounds=${arg:-default}
    extra=(); [ "$rounds" != default ] && extra=(--rounds "$rounds")
    day48_runs "stability-$rounds" 10 "${extra[@]}"
    for i in 1 2 3 4 5; do
      run_into "stability-$rounds/verdicts-hot/run-$i" run fusion-verdicts "${extra[@]}"
    done
    $analyse "$out/stability-$rounds" --json "$out/stability-$rounds.json" >"$out/stability-$rounds.md" || status=1
    grep -E "^## |coverage|Targets missed" "$out/stability-$rounds.md"
    ;;
  rounds)
    [ -n "$arg" ] || { echo "rounds needs R" >&2; exit 2; }
    day48_runs "rounds-$arg" 10 --rounds "$arg"
    $analyse "$out/rounds-$arg" --json "$out/rounds-$arg.json" >"$out/rounds-$arg.md" || status=1
    grep -E "^## |coverage|Targets missed" "$out/rounds-$arg.md"
    ;;
  options)
    mode=${arg:-hot}
    for option in none "--small-case-batch 8" "--pin-cpu 2" "--device-warmup 2"; do
      name="options-$mode/$(echo "$option" | tr -d ' -')"
      for i in 1 2 3 4 5; do
        if [ "$option" = none ]; then
          run_into "$name/run-$i" run day48-fusion --timing "$mode"
        else
          # shellcheck disable=SC2086  # the option and its value, split on purpose
          run_into "$name/run-$i" run day48-fusion --timing "$mode" $option
        fi
      done
      $analyse "$out/$name" >"$out/$name.md" || status=1
    done
    ;;
  continuity)
    if [ ! -x "$old_build/labrun" ]; then
      echo "continuity needs the previous code's labrun in $old_build (stage build-old)" >&2
      exit 2
    fi
    scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity" 3 0.01 \
      | tee "$out/continuity.txt" || status=1
    ;;
  report)
    : >"$out/report.md"
    for folder in "$out"/stability-* "$out"/rounds-* "$out"/options-*/*; do
      [ -d "$folder" ] || continue
      echo "# ${folder#"$out"/}" >>"$out/report.md"
      $analyse "$folder" --json "$folder.json" >>"$out/report.md" || status=1
      echo >>"$out/report.md"
    done
    [ -f "$out/continuity.txt" ] && { echo "# continuity"; tail -1 "$out/continuity.txt"; } >>"$out/report.md"
    grep -E "^# |^## |coverage|Wall seconds|Targets missed" "$out/report.md"
    ;;
  *)
    echo "unknown stage '$stage' (build, build-old, stability, rounds, options, continuity, report)" >&2
    exit 2
    ;;
esac
# What comes back from the device: the stage's reports and logs, and its transcripts packed.
if [ -n "${COPY_TO:-}" ]; then
  mkdir -p "$COPY_TO"
  cp "$out"/*.md "$out"/*.json "$out"/*.txt "$out"/*.log "$COPY_TO"/ 2>/dev/null
  for folder in "$out"/stability-* "$out"/rounds-* "$out"/options-* "$out"/continuity; do
    [ -d "$folder" ] || continue
    tar -czf "$COPY_TO/$(basename "$folder").tar.gz" -C "$out" --exclude='*.svg' "$(basename "$folder")"
  done
fi
exit "$status"
