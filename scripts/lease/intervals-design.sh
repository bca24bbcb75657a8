#!/usr/bin/env bash
# On the H200, early in the lease, with build/dev built there (dev preset; nothing is built here):
# what issue 31's design rests on, measured with labrun itself, in about 2 minutes.
#
#   scripts/lease/intervals-design.sh OUTDIR
#
# 1. Variance by level. In each of hot-gated, cold and hot mode, PROCESSES (default 5) processes, one
#    after another, each `labrun run day48-fusion` of part 1's single empty launch and part 3's
#    sweeps (n = 1024 to 2^24 and the card-scaled 2^27) at --rounds 12 --rounds-per-context 4:
#    3 CUDA contexts of 4 rounds in each process. scripts/diagnostics/variance-levels.py splits each
#    case's log round medians into round, context and process components and gives Kalibera and
#    Jones's rounds per context and contexts per process from the costs below. Plots are not drawn
#    (LABRUN_PYTHON=/bin/false): they are no part of what is measured here.
# 2. Costs. A process: `labrun run` of one tiny case, one round, timed from start to exit (3 times).
#    A round and a context: one full run of day 48 per mode at the defaults (5 rounds, each in a
#    context of its own), whose transcript records each context's creation and set-up and each
#    round's sampling; its process wall time, plots included, is a first look at the cost target.
#
# What to look for (docs/measurement.md, "Where the variance lives"): at n <= 2^16 in hot-gated and
# cold mode, a context component well above the round one and a process component small beside the
# context one (then "rounds per context" is 1 and contexts, not processes, are the right unit); at
# 2^24 and above every component <= 0.2%; a later context's cost (create + set-up) near 0.3 s; the
# full runs' wall seconds within 1.5 x today's (day 48: cold 7.7, hot 7.0, hot-gated 6.3 s).
#
# Environment: LABRUN (default build/dev/labrun); PROCESSES (default 5); MODES (default
# "hot-gated cold hot"). Writes OUTDIR/levels-MODE/process-N/ (transcripts, process_wall_seconds),
# OUTDIR/full-MODE/, OUTDIR/process-cost/, OUTDIR/levels-MODE.md and .json, OUTDIR/design.log, and
# prints a short table last. Exit status: 0; 1 a run or the analysis failed; 2 usage.
set -uo pipefail
[ -n "${1:-}" ] || { echo "usage: intervals-design.sh OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
labrun=${LABRUN:-$PWD/build/dev/labrun}
processes=${PROCESSES:-5}
modes=${MODES:-hot-gated cold hot}
levels="python3 $PWD/scripts/diagnostics/variance-levels.py"
[ -x "$labrun" ] || { echo "intervals-design: $labrun is not built (cmake --preset dev and its build)" >&2; exit 2; }
status=0
log=$out/design.log
: >"$log"

# Runs `labrun ARGS...` into OUTDIR/NAME with its process wall seconds in NAME/process_wall_seconds.
run_timed() {
  local name=$1; shift
  mkdir -p "$out/$name"
  local begin end
  begin=$(date +%s.%N)
  "$labrun" "$@" --out "$out/$name" --quiet >/dev/null 2>>"$log"
  local code=$?
  end=$(date +%s.%N)
  awk "BEGIN{printf \"%.3f\n\", $end - $begin}" >"$out/$name/process_wall_seconds"
  echo "$name: exit $code, $(cat "$out/$name/process_wall_seconds") s" | tee -a "$log"
  [ "$code" -eq 0 ] || status=1
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  >>"$log" 2>&1 || true
"$labrun" --version >>"$log" 2>&1

# 2a. A process's cost: start, device, one context, the lab's session, one tiny case, exit.
mkdir -p "$out/process-cost"
for i in 1 2 3; do
  LABRUN_PYTHON=/bin/false run_timed "process-cost/run-$i" run day48-fusion --case part1/empty-single-launch \
    --rounds 1 --reps 5 --target-ci 0
  cat "$out/process-cost/run-$i/process_wall_seconds" >>"$out/process-cost/process_seconds_minimal"
done
process_cost=$(sort -n "$out/process-cost/process_seconds_minimal" | sed -n 2p)

for mode in $modes; do
  # 2b. One full run at the defaults: a round of every case, and what a context costs.
  run_timed "full-$mode" run day48-fusion --timing "$mode"
  # 1. The probe.
  for p in $(seq 1 "$processes"); do
    LABRUN_PYTHON=/bin/false run_timed "levels-$mode/process-$p" run day48-fusion --timing "$mode" \
      --case part1/empty-single-launch --case 'part3/*' --rounds 12 --rounds-per-context 4
  done
  $levels "$out/levels-$mode" --mode "$mode" --costs-from "$out/full-$mode" --process-cost "$process_cost" \
    --json "$out/levels-$mode.json" >"$out/levels-$mode.md" 2>>"$log" || status=1
done

# The short table: per mode, the median over the small cases (n <= 2^16) of each component, the
# counts Kalibera and Jones give there, the costs, and the full run's wall time.
python3 - "$out" "$modes" <<'PY'
import glob, json, math, os, statistics, sys
out, modes = sys.argv[1], sys.argv[2].split()
print()
print(f"{'mode':<10} {'T round':>8} {'T ctx':>8} {'T proc':>8} {'r/ctx':>6} {'ctx/proc':>8} "
      f"{'c round':>8} {'c ctx':>7} {'c proc':>7} {'2^24+ max T':>11} {'full run s':>10}")
for mode in modes:
    try:
        levels = json.load(open(f"{out}/levels-{mode}.json"))
    except (OSError, ValueError):
        print(f"{mode:<10} (no analysis: see levels-{mode}.md and design.log)")
        continue
    small = [c for c in levels["cases"] if c["elements"] <= 1 << 16]
    large = [c for c in levels["cases"] if c["elements"] >= 1 << 24]
    def med(key, cases=small):
        return statistics.median(math.sqrt(c["components"][key]) for c in cases) if cases else float("nan")
    def counts(key):
        values = [c[key] for c in small if c[key] is not None]
        return str(statistics.median_low(values)) if values else "-"
    largest = max((math.sqrt(c["components"][k]) for c in large for k in ("round", "context", "process")),
                  default=float("nan"))
    costs = levels["costs"]
    try:
        wall = float(open(f"{out}/full-{mode}/process_wall_seconds").read())
    except (OSError, ValueError):
        wall = float("nan")
    cost = lambda v: f"{v:.3f}" if v is not None else "-"
    print(f"{mode:<10} {100*med('round'):>7.2f}% {100*med('context'):>7.2f}% {100*med('process'):>7.2f}% "
          f"{counts('rounds_per_context'):>6} {counts('contexts_per_process'):>8} {cost(costs['round']):>8} "
          f"{cost(costs['context']):>7} {cost(costs['process']):>7} {100*largest:>10.2f}% {wall:>10.2f}")
PY
exit "$status"
