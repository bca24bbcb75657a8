#!/usr/bin/env bash
# On the H200, with build/dev built there (dev preset): issue 31's targets, in stages that each fit
# a command limited to 10 minutes. Keep OUTDIR between stages: `report` reads every stage's runs.
#
#   scripts/lease/intervals-benchmark.sh OUTDIR STAGE
#
# Stages, in the order to run them (expected H200 time in brackets):
#   day48        10 back-to-back runs of day 48 in each of hot, cold and hot-gated mode, at the
#                defaults, plots drawn as a student's run draws them (about 5 min: 30 runs of 8 to 11 s)
#   others       6 runs of fusion-verdicts and 6 of day 20, at the defaults (about 1.5 min)
#   build-old    the previous code's labrun (OLD_SRC, see below) built in OLD_BUILD, Release, this
#                GPU's architecture, no tests (about 3 min on 16 cores; the only stage that builds)
#   continuity   the previous code against this one, side by side, cold, turn about: day 48 3 runs
#                each, fusion-verdicts 2 each; every case at n >= 2^24 within 1%
#                (scripts/diagnostics/timing-side-by-side.sh; about 2 min)
#   evidence     one run of each lab into evidence/<lab>/nvidia-h200 (day 48 hot, hot-gated and cold;
#                fusion-verdicts; day 20), each checked by `labrun validate` and against the 2 MB rule
#                (about 1 min): the runs issue 31's item 3 commits, once the tree is final
#   report       scripts/diagnostics/verdict-stability.py over day48 and others (OUTDIR/report.md and
#                .json), the continuity and evidence summaries, and a short table last (seconds)
#
# Every run's process wall time (the whole `labrun run`, plots included) is written beside its
# transcript as process_wall_seconds, which verdict-stability.py reads for the cost target.
#
# The previous code, for build-old and continuity: main at the commit issue 31 branched from. On the
# machine that carries the tree, from the repository root:
#   rm -rf build/labrun-old && mkdir -p build &&
#   git archive --prefix=labrun-old/ fec3133 -- src labs cmake CMakeLists.txt CMakePresets.json \
#     scripts evidence/schema tests | tar -x -C build
# and carry build/labrun-old (4.6 MB) beside .deps. OLD_SRC defaults to build/labrun-old and
# OLD_BUILD to build/labrun-old-build (outside OLD_SRC, so carrying OLD_SRC again leaves it).
#
# Environment: LABRUN (default build/dev/labrun); OLD_SRC; OLD_BUILD; COPY_TO (a folder that each
# stage copies its reports and a .tar.gz of its transcripts into: the device tool's $OUT).
# Exit status: 0; 1 a run, build or check failed; 2 usage.
set -uo pipefail
usage="usage: intervals-benchmark.sh OUTDIR day48|others|build-old|continuity|evidence|report"
out=${1:?$usage}
stage=${2:?$usage}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
labrun=${LABRUN:-$PWD/build/dev/labrun}
old_src=${OLD_SRC:-$PWD/build/labrun-old}
old_build=${OLD_BUILD:-$PWD/build/labrun-old-build}
analyse="python3 $PWD/scripts/diagnostics/verdict-stability.py"
evidence_limit=$((2 * 1024 * 1024))
status=0

need_labrun() {
  [ -x "$labrun" ] || { echo "intervals-benchmark: $labrun is not built (cmake --preset dev and its build)" >&2; exit 2; }
}

# Runs `PROGRAM ARGS...` into OUTDIR/NAME, records its process wall time there, and says how it went
# (on stdout and in OUTDIR/runs.txt).
run_into() {
  local name=$1 program=$2; shift 2
  mkdir -p "$out/$name"
  local begin end code
  begin=$(date +%s.%N)
  "$program" "$@" --out "$out/$name" --quiet >/dev/null 2>>"$out/$name.log"
  code=$?
  end=$(date +%s.%N)
  awk "BEGIN{printf \"%.3f\n\", $end - $begin}" >"$out/$name/process_wall_seconds"
  echo "$name: exit $code, $(cat "$out/$name/process_wall_seconds") s" | tee -a "$out/runs.txt"
  [ "$code" -eq 0 ] || status=1
}

case "$stage" in
  day48)
    need_labrun
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv || true
    for mode in hot cold hot-gated; do
      for i in $(seq 1 10); do
        run_into "day48/$mode/run-$i" "$labrun" run day48-fusion --timing "$mode"
      done
    done
    $analyse "$out/day48" --json "$out/day48.json" >"$out/day48.md" || status=1
    sed -n '/^## Summary/,$p' "$out/day48.md"
    ;;
  others)
    need_labrun
    for i in $(seq 1 6); do
      run_into "others/fusion-verdicts/run-$i" "$labrun" run fusion-verdicts
    done
    for i in $(seq 1 6); do
      run_into "others/day20/run-$i" "$labrun" run day20-sobel-threshold
    done
    $analyse "$out/others" --json "$out/others.json" >"$out/others.md" || status=1
    sed -n '/^## Summary/,$p' "$out/others.md"
    ;;
  build-old)
    [ -f "$old_src/CMakeLists.txt" ] || { echo "build-old: no previous code in $old_src (see this script's header)" >&2; exit 2; }
    valijson=$PWD/.deps/valijson/usr/include
    begin=$(date +%s)
    { cmake -S "$old_src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=native -DLABRUN_BUILD_TESTS=OFF -DLABRUN_VALIJSON_INCLUDE_DIR="$valijson" &&
      cmake --build "$old_build" -j "$(nproc)" --target labrun; } >"$out/build-old.log" 2>&1 ||
      { tail -30 "$out/build-old.log"; exit 1; }
    "$old_build/labrun" --version
    echo "build-old: $(( $(date +%s) - begin )) s"
    ;;
  continuity)
    need_labrun
    [ -x "$old_build/labrun" ] || { echo "continuity needs the previous code's labrun in $old_build (stage build-old)" >&2; exit 2; }
    scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity/day48" 3 0.01 \
      day48-fusion >"$out/continuity-day48.txt" || status=1
    scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity/verdicts" 2 0.01 \
      fusion-verdicts >"$out/continuity-verdicts.txt" || status=1
    tail -1 "$out/continuity-day48.txt" "$out/continuity-verdicts.txt"
    ;;
  evidence)
    need_labrun
    : >"$out/evidence.txt"
    for spec in "day48-fusion hot" "day48-fusion hot-gated" "day48-fusion cold" "fusion-verdicts hot" \
                "day20-sobel-threshold hot"; do
      read -r lab mode <<<"$spec"
      folder=evidence/$lab/nvidia-h200
      mkdir -p "$folder"
      before=$(ls "$folder")
      "$labrun" run "$lab" --timing "$mode" --out "$folder" --quiet >/dev/null 2>>"$out/evidence.log" || status=1
      written=$(comm -13 <(echo "$before") <(ls "$folder") | grep '\.json$' | grep -v '\.trace\.json$' | head -1)
      if [ -z "$written" ]; then
        echo "$lab $mode: no transcript written" | tee -a "$out/evidence.txt"; status=1; continue
      fi
      bytes=$(stat -c %s "$folder/$written")
      if "$labrun" validate "$folder/$written" >>"$out/evidence.log" 2>&1; then valid=valid; else valid=INVALID; status=1; fi
      if [ "$bytes" -le "$evidence_limit" ]; then size="under 2 MB"; else size="OVER 2 MB"; status=1; fi
      echo "$lab $mode: $folder/$written, $bytes bytes ($size), $valid" | tee -a "$out/evidence.txt"
    done
    ;;
  report)
    folders=()
    for part in day48 others; do
      [ -d "$out/$part" ] && folders+=("$out/$part")
    done
    [ "${#folders[@]}" -gt 0 ] || { echo "report: no runs under $out (stages day48 and others)" >&2; exit 2; }
    $analyse "${folders[@]}" --json "$out/report.json" >"$out/report.md" || status=1
    for file in continuity-day48.txt continuity-verdicts.txt evidence.txt; do
      [ -f "$out/$file" ] && { echo "## $file"; echo; cat "$out/$file"; echo; } >>"$out/report.md"
    done
    for file in continuity-day48.txt continuity-verdicts.txt; do
      [ -f "$out/$file" ] && echo "$file: $(tail -1 "$out/$file")"
    done
    [ -f "$out/evidence.txt" ] && cat "$out/evidence.txt"
    echo
    $analyse "${folders[@]}" | sed -n '/^## Summary/,$p'
    ;;
  *)
    echo "unknown stage '$stage' ($usage)" >&2
    exit 2
    ;;
esac
# What comes back from the device: the stage's reports and logs, and its transcripts packed.
if [ -n "${COPY_TO:-}" ]; then
  mkdir -p "$COPY_TO"
  cp "$out"/*.md "$out"/*.json "$out"/*.txt "$out"/*.log "$COPY_TO"/ 2>/dev/null
  for folder in day48 others continuity; do
    [ -d "$out/$folder" ] && [ "$stage" = "$folder" ] &&
      tar -czf "$COPY_TO/$folder.tar.gz" -C "$out" --exclude='*.svg' "$folder"
  done
fi
exit "$status"
