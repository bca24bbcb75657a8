#!/usr/bin/env bash
# On the H200, with this tree built there as build/dev (dev preset) and the previous code as
# OLD_BUILD (default build/old-dev; nothing is built here): issue 31's targets, and the evidence it
# commits, in stages that each fit a command limited to 10 minutes. Keep OUTDIR between stages:
# `report` reads every stage's runs. Several stages may be given at once; they run in order.
#
#   scripts/lease/intervals-benchmark.sh OUTDIR STAGE...
#
# Stages, in the order to run them (expected H200 time in brackets; about 9.5 minutes in all):
#   day48        10 back-to-back runs of day 48 in each of hot, cold and hot-gated mode (DAY48_MODES,
#                the modes to run, for a lease that splits them between commands), at the
#                defaults (the cases at n <= 2^16 take 15 contexts in cold and hot-gated mode),
#                plots drawn as a student's run draws them, and where hot-gated run 1's time outside
#                its transcript's wall seconds goes (about 5 min: 30 runs of 7 to 11 s)
#   others       6 runs of fusion-verdicts (its own default: 10 rounds) and 6 of day 20, at the
#                defaults, and where run 1's time of each outside its transcript's wall seconds goes
#                (its plots drawn again, timed, and a labrun start without the device) (about 1.5 min)
#   continuity   the previous code ($OLD_BUILD/labrun) against this one, side by side, cold, turn
#                about: day 48 3 runs each, fusion-verdicts 6 each (CONTINUITY_VERDICTS_RUNS; 2 a side
#                could not resolve 1% for its 24 us folded reduction, whose contexts sit on two levels);
#                every case at n >= 2^24 within 1% (scripts/diagnostics/timing-side-by-side.sh; about
#                3 min); cases above 2^16 keep their rounds, rule and contexts, the small cases' extra
#                rounds coming after theirs
#   continuity-hot  day 48 side by side as continuity does, in hot timing, 3 runs each: for a change
#                to hot timing alone (its launch check of the claims' cases, 2026-12-05; about 1 min)
#   day48-lesson-contexts  an experiment beside the day48 stage, not a target: 10 runs of day 48 in
#                each of LESSON_MODES (default cold and hot-gated) with --small-case-rounds-max-elements
#                16777216, so that the lesson-size cases that the bound claims read take the small
#                cases' contexts too (docs/measurement.md, "More contexts for the lesson-size cases"); report
#                sets its stability, coverage and wall time apart from the day48 stage's, and claim by
#                claim beside them (scripts/diagnostics/compare-stability.py) (about 3.5 min)
#   verdicts-modes  a diagnostic beside the others stage, not a target: fusion-verdicts in each of
#                VERDICTS_MODES (default hot-gated), VERDICTS_MODE_RUNS runs each (default 6), so that
#                the L2 crossover's sweep is read on GPU time alone (the others stage times it hot,
#                where the host's launch latency is a third of a sample at the sizes that decide it;
#                docs/measurement.md, "fusion-verdicts over the four benchmarks"); its own summary
#                (OUTDIR/verdicts-modes.md), never pooled into report's targets (about 1 min)
#   evidence     issue 31's item 3: one run of each lab (day 48 hot, hot-gated and cold; fusion-verdicts;
#                day 20) into evidence/<lab>/<card> (<card>: the GPU's name as labrun names its folder,
#                nvidia-h200 on the H200), each with its plots and roofline, checked by `labrun
#                validate`, by `labrun report` reproducing its Markdown and against the 2 MB rule, then
#                stored gzip-compressed as committed evidence is (scripts/compress-transcripts.py:
#                NAME.json.gz, the same bytes); the lesson comparisons against the card's runs rewritten
#                (the day-48 and day-20 comparisons/MANIFEST.tsv, scripts/regenerate-comparisons.sh: a
#                card that has no comparison there yet gets the H200's set, named for it) and `labrun
#                aggregate evidence/` for the figures docs/aggregating.md quotes (about 1.5 min)
#   baseline     today's cost, measured on this card: BASELINE_RUNS runs (default 3) of each group the
#                issue's wall target names (day 48 hot, cold and hot-gated; fusion-verdicts; day 20) with
#                the code the issue measured its figures with ($BASELINE_BUILD/labrun, default
#                build/baseline-dev: fec3133, main when the issue was filed); report then holds each
#                group's wall seconds to 1.5 x their median (verdict-stability.py --today-from) rather
#                than to the issue's H200 figures (about 1.5 min on an H100)
#   report       scripts/diagnostics/verdict-stability.py over day48 and others (OUTDIR/report.md and
#                .json), the continuity and evidence summaries, and the targets' table last (seconds)
#
# Every run's process wall time (the whole `labrun run`, plots included) is written beside its
# transcript as process_wall_seconds, which verdict-stability.py reads for the cost target.
#
# What comes back (COPY_TO, a folder each stage copies into: the device tool's $OUT), at most eight
# files: day48.tar.gz, others.tar.gz, verdicts-modes.tar.gz, continuity.tar.gz, baseline.tar.gz (each the stage's runs,
# plots left out, with its reports and logs), evidence.tar.gz (the files the evidence stage wrote or
# changed in the tree, paths from the repository root: unpack it there and commit them as written),
# report.md and report.json.
#
# Environment: LABRUN (default build/dev/labrun); OLD_BUILD (default build/old-dev); BASELINE_BUILD
# (default build/baseline-dev); COPY_TO.
# Exit status: 0; 1 a run or check failed (the others still run); 2 usage or a missing build.
# The stages are called by name ("stage_$stage"), which shellcheck cannot follow (SC2317).
# shellcheck disable=SC2317
set -uo pipefail
usage="usage: intervals-benchmark.sh OUTDIR day48|others|verdicts-modes|continuity|continuity-hot|day48-lesson-contexts|evidence|baseline|report..."
[ -n "${1:-}" ] || { echo "$usage" >&2; exit 2; }
out=$1
shift
[ "$#" -gt 0 ] || { echo "$usage" >&2; exit 2; }
for stage in "$@"; do
  case "$stage" in
    day48|others|verdicts-modes|continuity|continuity-hot|day48-lesson-contexts|evidence|baseline|report) ;;
    *) echo "unknown stage '$stage' ($usage)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
labrun=${LABRUN:-$PWD/build/dev/labrun}
old_build=${OLD_BUILD:-$PWD/build/old-dev}
baseline_build=${BASELINE_BUILD:-$PWD/build/baseline-dev}
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

# Packs FOLDER (under OUTDIR) and the named report files beside it into COPY_TO/FOLDER.tar.gz.
pack() {
  local folder=$1; shift
  [ -n "${COPY_TO:-}" ] || return 0
  mkdir -p "$COPY_TO"
  local files=()
  for f in "$folder" "$@"; do [ -e "$out/$f" ] && files+=("$f"); done
  [ "${#files[@]}" -gt 0 ] && tar -czf "$COPY_TO/$folder.tar.gz" -C "$out" --exclude='*.svg' --exclude='*.png' "${files[@]}"
}

# verdict-stability.py over the runs under OUTDIR/PART (PART.md and PART.json), its summary printed,
# and the part packed for the trip back.
summarise() {
  local part=$1
  $analyse "$out/$part" --json "$out/$part.json" >"$out/$part.md" || status=1
  sed -n '/^## Summary/,$p' "$out/$part.md"
  pack "$part" "$part.md" "$part.json" runs.txt
}

stage_day48() {
  need_labrun
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv || true
  for mode in ${DAY48_MODES:-hot cold hot-gated}; do
    for i in $(seq 1 10); do
      run_into "day48/$mode/run-$i" "$labrun" run day48-fusion --timing "$mode"
    done
  done
  time_outside_the_run day48 day48/hot-gated/run-1 day48-hot-gated
  summarise day48
}

# The lesson's size (2^24 elements): the largest case that the experiment gives the small cases' contexts.
lesson_elements=16777216

stage_day48_lesson_contexts() {
  need_labrun
  for mode in ${LESSON_MODES:-cold hot-gated}; do
    for i in $(seq 1 10); do
      run_into "day48-lesson/$mode/run-$i" "$labrun" run day48-fusion --timing "$mode" \
        --small-case-rounds-max-elements "$lesson_elements"
    done
  done
  summarise day48-lesson
}

stage_others() {
  need_labrun
  for i in $(seq 1 6); do
    run_into "others/fusion-verdicts/run-$i" "$labrun" run fusion-verdicts
  done
  for i in $(seq 1 6); do
    run_into "others/day20/run-$i" "$labrun" run day20-sobel-threshold
  done
  time_outside_the_run others others/day20/run-1 day20
  time_outside_the_run others others/fusion-verdicts/run-1 fusion-verdicts
  summarise others
}

stage_verdicts_modes() {
  need_labrun
  for mode in ${VERDICTS_MODES:-hot-gated}; do
    for i in $(seq 1 "${VERDICTS_MODE_RUNS:-6}"); do
      run_into "verdicts-modes/$mode/run-$i" "$labrun" run fusion-verdicts --timing "$mode"
    done
  done
  summarise verdicts-modes
}

# Where a run's process wall time goes beyond its transcript's run.wall_seconds (device opened to
# claims judged): the plots (`labrun plot` of the run's transcript, copied, timed alone) and the start
# and exit of a labrun process that opens no device (`labrun --version`); the rest is writing the files
# and the CUDA driver's teardown at exit. time_outside_the_run STAGE RUN_FOLDER NAME appends one line
# to OUTDIR/runs.txt and OUTDIR/STAGE/NAME-time.txt (RUN_FOLDER relative to OUTDIR).
time_outside_the_run() {
  local stage=$1 run=$2 name=$3 transcript copy begin end
  transcript=$(ls "$out/$run"/*.json 2>/dev/null | grep -v '\.trace\.json$' | head -1)
  [ -n "$transcript" ] || return 0
  copy="$out/$name-plot"  # outside the stage's folder: verdict-stability.py reads every transcript there
  rm -rf "$copy"; mkdir -p "$copy"; cp "$transcript" "$copy/"
  begin=$(date +%s.%N)
  "$labrun" plot "$copy/$(basename "$transcript")" >/dev/null 2>>"$out/$stage/$name-time.log" || status=1
  end=$(date +%s.%N)
  local plot; plot=$(awk "BEGIN{printf \"%.3f\", $end - $begin}")
  begin=$(date +%s.%N)
  "$labrun" --version >/dev/null 2>&1
  end=$(date +%s.%N)
  local start; start=$(awk "BEGIN{printf \"%.3f\", $end - $begin}")
  local wall; wall=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run']['wall_seconds'])" "$transcript")
  echo "$run: process $(cat "$out/$run/process_wall_seconds") s; run.wall_seconds $wall s; its plots drawn again $plot s; labrun --version $start s" \
    | tee -a "$out/runs.txt" "$out/$stage/$name-time.txt"
}

stage_continuity() {
  need_labrun
  [ -x "$old_build/labrun" ] || { echo "continuity needs the previous code's labrun in $old_build (OLD_BUILD)" >&2; exit 2; }
  "$old_build/labrun" --version
  scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity/day48" 3 0.01 \
    day48-fusion >"$out/continuity-day48.txt" || status=1
  scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity/verdicts" \
    "${CONTINUITY_VERDICTS_RUNS:-6}" 0.01 fusion-verdicts >"$out/continuity-verdicts.txt" || status=1
  tail -q -n 1 "$out/continuity-day48.txt" "$out/continuity-verdicts.txt"
  pack continuity continuity-day48.txt continuity-verdicts.txt continuity-day48-hot.txt
}

stage_continuity_hot() {
  need_labrun
  [ -x "$old_build/labrun" ] || { echo "continuity-hot needs the previous code's labrun in $old_build (OLD_BUILD)" >&2; exit 2; }
  TIMING=hot scripts/diagnostics/timing-side-by-side.sh "$old_build/labrun" "$labrun" "$out/continuity/day48-hot" 3 \
    0.01 day48-fusion >"$out/continuity-day48-hot.txt" || status=1
  tail -n 1 "$out/continuity-day48-hot.txt"
  pack continuity continuity-day48.txt continuity-verdicts.txt continuity-day48-hot.txt
}

stage_baseline() {
  [ -x "$baseline_build/labrun" ] || { echo "baseline needs the issue's code's labrun in $baseline_build (BASELINE_BUILD)" >&2; exit 2; }
  "$baseline_build/labrun" --version | head -1 | tee "$out/baseline-version.txt"
  local runs=${BASELINE_RUNS:-3} i
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "BASELINE_RUNS must be a positive number of runs, not '$runs'" >&2; exit 2; }
  # Turn about by group, so that a drift of the card over the stage's minutes reaches every group alike.
  for i in $(seq 1 "$runs"); do
    for mode in hot cold hot-gated; do
      run_into "baseline/day48/$mode/run-$i" "$baseline_build/labrun" run day48-fusion --timing "$mode"
    done
    run_into "baseline/fusion-verdicts/run-$i" "$baseline_build/labrun" run fusion-verdicts
    run_into "baseline/day20/run-$i" "$baseline_build/labrun" run day20-sobel-threshold
  done
  pack baseline baseline-version.txt runs.txt
}

# The transcript `labrun run` wrote into FOLDER since the listing BEFORE (a file of names).
new_transcript() {
  comm -13 "$2" <(ls "$1") | grep '\.json$' | grep -v '\.trace\.json$' | head -1
}

stage_evidence() {
  need_labrun
  : >"$out/evidence.txt"
  # The card's own folder, named as labrun names it (device_slug: lower case, each run of other
  # characters one dash): the H200's runs go to nvidia-h200, another card's beside them, never into the
  # H200's folder.
  local card slug
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  slug=$(printf '%s' "$card" | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//')
  if [ -z "$slug" ]; then
    echo "evidence: no GPU's name from nvidia-smi; nothing written" | tee -a "$out/evidence.txt"
    status=1
    return
  fi
  echo "evidence: $card, into evidence/<lab>/$slug" | tee -a "$out/evidence.txt"
  local marker; marker=$(mktemp)
  declare -A written=()
  for spec in "day48-fusion hot" "day48-fusion hot-gated" "day48-fusion cold" "fusion-verdicts hot" \
              "day20-sobel-threshold hot"; do
    read -r lab mode <<<"$spec"
    local folder=evidence/$lab/$slug before
    mkdir -p "$folder"
    before=$(mktemp); ls "$folder" >"$before"
    sleep 1  # transcripts are named by the second they started
    "$labrun" run "$lab" --timing "$mode" --out "$folder" --quiet >/dev/null 2>>"$out/evidence.log" || status=1
    local name; name=$(new_transcript "$folder" "$before"); rm -f "$before"
    if [ -z "$name" ]; then
      echo "$lab $mode: no transcript written" | tee -a "$out/evidence.txt"; status=1; continue
    fi
    local file=$folder/$name stem=${folder}/${name%.json} checks=()
    written["$lab $mode"]=$file
    local bytes; bytes=$(stat -c %s "$file")
    if [ "$bytes" -le "$evidence_limit" ]; then checks+=("$bytes bytes, under 2 MB"); else checks+=("$bytes bytes, OVER 2 MB"); status=1; fi
    if "$labrun" validate "$file" >>"$out/evidence.log" 2>&1; then checks+=(valid); else checks+=(INVALID); status=1; fi
    if "$labrun" report "$file" | cmp -s - "$stem.md"; then checks+=("report reproduces its Markdown"); else checks+=("report DIFFERS"); status=1; fi
    local plots; plots=$(ls "$stem".*.svg 2>/dev/null | wc -l)
    if [ "$plots" -gt 0 ]; then checks+=("$plots plots"); else checks+=("NO PLOTS"); status=1; fi
    if grep -q '^## Roofline' "$stem.md"; then checks+=("roofline"); else checks+=("NO ROOFLINE"); status=1; fi
    # Committed compressed (docs/transcript-fields.md, "Compressed transcripts"): the same bytes as
    # NAME.json.gz, read back as valid before NAME.json goes.
    if python3 scripts/compress-transcripts.py "$file" >>"$out/evidence.log" 2>&1 &&
       "$labrun" validate "$file.gz" >>"$out/evidence.log" 2>&1; then
      file=$file.gz; written["$lab $mode"]=$file
      checks+=("stored as $(basename "$file"), $(stat -c %s "$file") bytes")
    else
      checks+=("NOT COMPRESSED"); status=1
    fi
    local joined; joined=$(printf '%s, ' "${checks[@]}")
    echo "$lab $mode: $file: ${joined%, }" | tee -a "$out/evidence.txt"
  done
  # The lesson comparisons, against the new runs: each day-48 MANIFEST line whose candidate is this
  # card's (and, for the hot against hot-gated comparison, its baseline) becomes the new run of the same
  # mode; a card without such lines gets the H200's, named for it.
  local day48=evidence/day48-fusion/comparisons/MANIFEST.tsv day20=evidence/day20-sobel-threshold/comparisons
  if [ -n "${written[day48-fusion hot]:-}" ] && [ -n "${written[day48-fusion hot-gated]:-}" ]; then
    python3 - "$day48" "$slug" "${written[day48-fusion hot]}" "${written[day48-fusion hot-gated]}" <<'PY' || status=1
import sys
manifest, slug, hot, gated = sys.argv[1:]
lines = open(manifest, encoding="utf-8").read().rstrip("\n").split("\n")
def rewritten(fields, card):
    # (output, format, baseline, candidate) of one comparison of CARD's runs, or None for another line.
    if fields[0].startswith(card + "-hot-vs-hot-gated"):
        return [fields[0], fields[1], hot, gated]
    if "/" + card + "/" in fields[3]:
        return [fields[0], fields[1], fields[2], hot]
    return None
own = [i for i, line in enumerate(lines)
       if not line.startswith("#") and len(line.split("\t")) == 4 and rewritten(line.split("\t"), slug)]
for i in own:
    lines[i] = "\t".join(rewritten(lines[i].split("\t"), slug))
if not own:
    for line in list(lines):
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 4 or not rewritten(fields, "nvidia-h200"):
            continue
        new = rewritten(fields, "nvidia-h200")
        new[0] = new[0].replace("nvidia-h200", slug)
        lines.append("\t".join(new))
open(manifest, "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY
  fi
  if [ -n "${written[day20-sobel-threshold hot]:-}" ]; then
    mkdir -p "$day20"
    [ -f "$day20/MANIFEST.tsv" ] || printf '%s\n' \
      "# How each file in this folder is written: \`labrun compare BASELINE CANDIDATE --format FORMAT > OUTPUT\`," \
      "# run from the repository root. scripts/regenerate-comparisons.sh rewrites them all." \
      "# output	format	baseline	candidate" >"$day20/MANIFEST.tsv"
    local lesson; lesson=$(ls evidence/day20-sobel-threshold/tesla-t4-lesson/*.json | head -1)
    local stem; stem=$(basename "${written[day20-sobel-threshold hot]}" .gz); stem=${stem%.json}
    printf 'tesla-t4-lesson-vs-%s-%s.md\tmd\t%s\t%s\n' "$slug" "$stem" "$lesson" \
      "${written[day20-sobel-threshold hot]}" >>"$day20/MANIFEST.tsv"
  fi
  scripts/regenerate-comparisons.sh "$labrun" >>"$out/evidence.log" 2>&1 || { echo "comparisons: FAILED (evidence.log)" | tee -a "$out/evidence.txt"; status=1; }
  # The figures docs/aggregating.md quotes, from the whole evidence folder with the new runs in it.
  rm -rf "$out/aggregate"
  if "$labrun" aggregate evidence/ --out "$out/aggregate" >>"$out/evidence.log" 2>&1; then
    echo "aggregate: $out/aggregate (docs/aggregating.md quotes it)" | tee -a "$out/evidence.txt"
  else
    echo "aggregate: FAILED (evidence.log)" | tee -a "$out/evidence.txt"; status=1
  fi
  if [ -n "${COPY_TO:-}" ]; then
    mkdir -p "$COPY_TO"
    # Everything the stage wrote or changed under evidence/, and its own summary and log.
    find evidence -type f -newer "$marker" | sort >"$out/evidence-files.txt"
    tar -czf "$COPY_TO/evidence.tar.gz" -T "$out/evidence-files.txt" \
      -C "$out" evidence.txt evidence.log evidence-files.txt aggregate
  fi
  rm -f "$marker"
}

stage_report() {
  local folders=()
  for part in day48 others; do
    [ -d "$out/$part" ] && folders+=("$out/$part")
  done
  [ "${#folders[@]}" -gt 0 ] || { echo "report: no runs under $out (stages day48 and others)" >&2; exit 2; }
  # Today's wall seconds: measured on this card by the baseline stage where it ran, else the issue's.
  local today=()
  [ -d "$out/baseline" ] && today=(--today-from "$out/baseline")
  $analyse "${folders[@]}" "${today[@]}" --json "$out/report.json" >"$out/report.md" || status=1
  # The experiment apart: verdict-stability.py groups runs by lab and mode, and would pool its runs
  # with the day48 stage's.
  local experiment=""
  if [ -d "$out/day48-lesson" ]; then
    experiment="## experiment: day 48 with --small-case-rounds-max-elements $lesson_elements"
    { echo "$experiment"; echo; $analyse "$out/day48-lesson" "${today[@]}" --json "$out/report-lesson.json" |
      sed 's/^## /### /'; } >>"$out/report.md" || status=1
    # Claim by claim beside the day48 stage's runs of the same modes.
    python3 scripts/diagnostics/compare-stability.py "$out/report.json" "$out/report-lesson.json" \
      --names default,lesson-contexts >"$out/report-lesson-compared.md" || status=1
    { echo; sed 's/^# /### /' "$out/report-lesson-compared.md"; } >>"$out/report.md"
  fi
  for file in continuity-day48.txt continuity-verdicts.txt continuity-day48-hot.txt evidence.txt baseline-version.txt others/day20-time.txt \
    others/fusion-verdicts-time.txt day48/day48-hot-gated-time.txt; do
    [ -f "$out/$file" ] && { echo "## $file"; echo; cat "$out/$file"; echo; } >>"$out/report.md"
  done
  if [ -n "${COPY_TO:-}" ]; then
    mkdir -p "$COPY_TO" && cp "$out/report.md" "$out/report.json" "$COPY_TO"/
    [ -f "$out/report-lesson.json" ] && cp "$out/report-lesson.json" "$out/report-lesson-compared.md" "$COPY_TO"/
  fi
  [ -f "$out/evidence.txt" ] && cat "$out/evidence.txt"
  cat "$out"/others/*-time.txt "$out"/day48/*-time.txt 2>/dev/null || true
  echo
  # The targets' table last: per claim (coverage, stability), per group (flips, small-n range, wall
  # against its limit), then the side-by-side check against the previous code at n >= 2^24.
  sed -n '/^## Targets/,$p' "$out/report.md" | sed '/^## continuity\|^## evidence\|^## others\|^## experiment/,$d'
  if [ -n "$experiment" ]; then
    echo
    echo "$experiment (beside the default's, not a target)"
    sed -n "/^$experiment/,\$p" "$out/report.md" | sed -n '/^### Targets/,$p' | sed '/^### [^T]/,$d'
    echo
    cat "$out/report-lesson-compared.md"
  fi
  echo
  echo "| side by side at n >= 2^24 (limit 1%) | result |"
  echo "| --- | --- |"
  for file in continuity-day48.txt continuity-verdicts.txt continuity-day48-hot.txt; do
    [ -f "$out/$file" ] && echo "| ${file%.txt} | $(tail -n 1 "$out/$file") |"
  done
}

for stage in "$@"; do
  echo "== $stage ($(date -u +%H:%M:%S))"
  "stage_${stage//-/_}"
done
exit "$status"
