#!/usr/bin/env bash
# Issue 31's lease in device commands (parts 1 to 3, and part 4 where a baseline or another card's
# evidence is wanted), each under the device tool's 10 minutes, run back to back on one warm machine
# (it is given back 30 s after a command), with what each does chosen by the card it finds. Prepare
# the carry first, on the machine that sends the tree:
#
#   scripts/lease/prepare-carry.sh --baseline fec3133 c04faee
#       # prints the carry: .deps, the tree's commit, the previous code's patch and the baseline's
#       # (c04faee: the code the committed H200 evidence was measured with, so the cold side by side
#       # spans every timing change since; fec3133: the code the issue's cost figures came from)
#
# then, on the device, with COPY_TO=$OUT:
#
#   scripts/lease/intervals-lease.sh OUTDIR 1     build this tree (dev) and the previous code
#   scripts/lease/intervals-lease.sh OUTDIR 2
#   scripts/lease/intervals-lease.sh OUTDIR 3
#   scripts/lease/intervals-lease.sh OUTDIR 4     today's cost measured here, and another card's evidence
#   scripts/lease/intervals-lease.sh OUTDIR evidence   the card's evidence alone (the cheapest lease)
#   scripts/lease/intervals-lease.sh OUTDIR PART --dry-run   say what PART would run on this card
#   scripts/lease/intervals-lease.sh --help                  this text
#
# On an H200 (the card the issue's targets and the committed evidence name):
#   1  build; day 48 hot x10, fusion-verdicts x6, day 20 x6, hot side by side, the evidence (~7.5 min;
#      LEASE_EVIDENCE=0 leaves the evidence out, for a tree whose code the committed evidence has)
#   2  day 48 cold and hot-gated x10 each, report (~4 min; with LEASE_EXPERIMENT=1 the lesson-size
#      contexts experiment too, ~7 min: measured on an H100 on 2026-12-05 and not adopted,
#      docs/measurement.md; with LEASE_VERDICTS_MODES=1 fusion-verdicts in hot-gated timing x6 too, a
#      diagnostic of its L2 crossover on GPU time alone, ~1 min)
#   3  the cold side by side against the previous code, report again, every GPU test (the grading
#      corpus among them) (~8 min)
# On any other card:
#   1  build; every GPU test, the grading corpus among them (~6 min)
#   2  as on an H200 (~7 min)
#   3  day 48 hot x10, fusion-verdicts x6, day 20 x6, both side by sides, report (~7.5 min)
# On any card, part 4 (run it after part 1 and before parts 2 and 3, whose report reads it):
#   4  where the build found a baseline's patch (build/labrun-baseline.patch: the code the issue
#      measured today's figures with, packed by prepare-carry.sh --baseline fec3133 and carried),
#      3 runs of each group the cost target names, so that the report holds the wall seconds to
#      1.5 x today's on this card rather than to the issue's H200 figures (~2 min on an H100); on a
#      card other than the H200, one run of each lab into the card's own folder,
#      evidence/<lab>/<card> (the H200 writes its evidence in part 1; LEASE_EVIDENCE=0 leaves it
#      out) (~1.5 min)
# On any card, part evidence (a lease of its own, for a machine that comes with little device time left):
#   evidence  this tree's labrun alone (no tests, no previous code), then one run of each lab into the
#      card's folder, evidence/<lab>/<card>, with its plots, roofline and lesson comparisons, as part 1
#      writes them on an H200 (~2 min: 107 s on an H100 on 2026-12-06; the issue's item 3 without
#      its targets)
# OUTDIR must be the same folder in every part (build/lease is what the notes use): part 2's and 3's
# report reads every earlier part's runs. Part 2 or 3 on a machine without part 1's builds (the device
# tool gives a machine back 30 s after a command, and a later command gets a bare one) builds first, as
# part 1 does, and its later steps get what is left of the part's time: with little device time left,
# part 2 alone is the cheapest lease that measures day 48's cold and hot-gated targets. LEASE_CARD
# overrides the card's name (nvidia-smi's), for --dry-run on a machine without one. The table each part
# prints last is what to read first.
# Environment, besides LEASE_EVIDENCE, LEASE_EXPERIMENT and LEASE_VERDICTS_MODES above:
#   LEASE_REQUIRE_H200=1  a part on any other card runs nothing and exits 3, before the build: a call for
#                         an H200 may get an H100, and a machine given back at once costs seconds of
#                         device time where the other card's plan costs minutes
#   LEASE_GPU_TESTS=0     no part runs the GPU tests (part 3 on an H200, part 1 elsewhere), for a tree
#                         whose code has passed them in an earlier lease (saves about 4 min)
# Exit status: 0; 1 a step failed (the later steps still run); 2 usage; 3 not an H200, with
# LEASE_REQUIRE_H200=1.
set -uo pipefail
usage="usage: intervals-lease.sh OUTDIR 1|2|3|4|evidence [--dry-run] (--help: what each part runs)"
case "${1:-}" in
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ -n "${1:-}" ] || { echo "$usage" >&2; exit 2; }
out=$1
[ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
part=$2
dry_run=0
case "${3:-}" in
  "") ;;
  --dry-run) dry_run=1 ;;
  *) echo "intervals-lease: unknown argument '$3' ($usage)" >&2; exit 2 ;;
esac
case "$part" in
  1|2|3|4|evidence) ;;
  *) echo "intervals-lease: unknown part '$part' ($usage)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.." || exit 2
card=${LEASE_CARD:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)}
[ -n "$card" ] || card="no GPU"
if [[ "$card" == *H200* ]]; then on_h200=1; else on_h200=0; fi
if [ "${LEASE_REQUIRE_H200:-0}" = 1 ] && [ "$on_h200" -eq 0 ]; then
  echo "intervals-lease: part $part: the card is '$card', not an H200, and LEASE_REQUIRE_H200=1: nothing run" >&2
  exit 3
fi
gpu_tests=${LEASE_GPU_TESTS:-1}
status=0
begin=$(date +%s)
steps=()

# The part's own limit (s): under the device command's 600 s, so that the table last is printed and
# what is under COPY_TO comes back even when a step runs long.
part_limit=${LEASE_PART_LIMIT:-570}

# run STEP_NAME TIMEOUT_S COMMAND...: one step, stopped after TIMEOUT_S or when the part's limit is
# reached (exit 124), its time and exit status kept for the table last.
run() {
  local name=$1 limit=$2
  shift 2
  if [ "$dry_run" -eq 1 ]; then
    echo "would run ($name, at most ${limit} s): $(printf '%q ' "$@")"
    return 0
  fi
  local left=$((part_limit - ($(date +%s) - begin)))
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -le 0 ]; then
    echo "== $name: not run, the part's ${part_limit} s are spent"
    status=1
    steps+=("| $name | not run | 0 |")
    return 0
  fi
  echo "== [$(date -u +%H:%M:%S)] $name (at most ${limit} s)"
  local start code=0
  start=$(date +%s)
  timeout "$limit" "$@" || code=$?
  [ "$code" -eq 0 ] || status=1
  steps+=("| $name | $code | $(($(date +%s) - start)) |")
}

[ "$dry_run" -eq 1 ] || mkdir -p "$out" || exit 2
out=$(cd "$out" 2>/dev/null && pwd || echo "$out")
export COPY_TO=${COPY_TO:-$out/copy}
intervals=$out/intervals
benchmark=scripts/lease/intervals-benchmark.sh
echo "intervals-lease: part $part on '$card' ($([ "$on_h200" -eq 1 ] && echo "the H200 plan" || echo "not an H200: its evidence in its own folder, part 4 or part evidence"))"
# Whether part 1's builds are here: this tree's labrun and the previous code's, which parts 2 and 3 run.
# Part 1 always builds (an incremental build where they are); parts 2 and 3 only where they are not.
built() { [ -x build/dev/labrun ] && [ -x build/old-dev/labrun ]; }
# Part evidence builds only this tree's labrun, which is all its one stage runs.
if [ "$part" = evidence ]; then
  run "build this tree's labrun alone" 240 scripts/lease/session-lease.sh "$out" labrun
elif [ "$part" = 1 ] || ! built; then
  run build 330 scripts/lease/session-lease.sh "$out" build
fi
case "$on_h200:$part" in
  *:1)
    if [ "$on_h200" -eq 1 ]; then
      stages=(day48 others continuity-hot)
      [ "${LEASE_EVIDENCE:-1}" = 0 ] || stages+=(evidence)
      run "day 48 hot, fusion-verdicts, day 20, hot side by side${stages[3]:+, evidence}" 420 \
        env DAY48_MODES=hot "$benchmark" "$intervals" "${stages[@]}"
    elif [ "$gpu_tests" != 0 ]; then
      run "every GPU test" 420 scripts/lease/session-lease.sh "$out" all-gpu-tests
    fi
    ;;
  *:2)
    stages=(day48)
    what="day 48 cold and hot-gated"
    if [ "${LEASE_EXPERIMENT:-0}" = 1 ]; then
      stages+=(day48-lesson-contexts)
      what+=", the lesson-size contexts experiment"
    fi
    if [ "${LEASE_VERDICTS_MODES:-0}" = 1 ]; then
      stages+=(verdicts-modes)
      what+=", fusion-verdicts hot-gated"
    fi
    run "$what, report" 560 env DAY48_MODES="cold hot-gated" "$benchmark" "$intervals" "${stages[@]}" report
    ;;
  1:3)
    run "cold side by side, report" 330 "$benchmark" "$intervals" continuity report
    [ "$gpu_tests" = 0 ] || run "every GPU test" 400 scripts/lease/session-lease.sh "$out" all-gpu-tests
    ;;
  0:3)
    run "day 48 hot, fusion-verdicts, day 20, both side by sides, report" 560 \
      env DAY48_MODES=hot "$benchmark" "$intervals" day48 others continuity-hot continuity report
    ;;
  *:4)
    stages=()
    # The baseline's labrun, where part 1 built one (a dry run plans it where its patch is carried).
    if [ -x build/baseline-dev/labrun ] || { [ "$dry_run" -eq 1 ] && [ -f build/labrun-baseline.patch ]; }; then
      stages+=(baseline)
    fi
    [ "$on_h200" -eq 1 ] || [ "${LEASE_EVIDENCE:-1}" = 0 ] || stages+=(evidence)
    if [ "${#stages[@]}" -gt 0 ]; then
      run "${stages[*]}" 400 "$benchmark" "$intervals" "${stages[@]}"
    else
      echo "intervals-lease: part 4 has nothing to run here (no baseline built; the H200's evidence is part 1's)"
    fi
    ;;
  *:evidence)
    run evidence 300 "$benchmark" "$intervals" evidence
    ;;
esac
[ "$dry_run" -eq 1 ] && exit 0
echo
echo "| part $part on $card: step | exit | s |"
echo "| --- | ---: | ---: |"
printf '%s\n' "${steps[@]}"
echo "| all | $status | $(($(date +%s) - begin)) |"
exit "$status"
