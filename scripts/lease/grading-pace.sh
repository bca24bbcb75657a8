#!/usr/bin/env bash
# On the H200, inside the lead's lease, after a dev build of this tree (build/dev) and, for the
# comparison, of the tree before issue 34 (OLD_BUILD, default build/old-dev). It builds nothing.
# Issue 34's targets, most important first:
#
#   1. The honest batch: 160 of day 48's full-marks corpus submissions (the 9 replicated as
#      scripts/grading-scale-check.sh does with HONEST=1, cut at 160), --jobs 16, --secret-seed:
#      submissions per minute, and whether every one scored 100.
#   2. OLD's rate on the same 160 at --jobs 16, where OLD_BUILD's labrun exists (the previous code,
#      side by side in one lease).
#   3. The GPU fault-injection test (honest submissions beside hostile ones get their grade alone).
#   4. The GPU corpus tests of every registered exercise, and each skeleton.
#   5. One grade, compile included, end to end, 3 times: the median seconds.
#   6. The rate against --jobs: the honest batch again at --jobs 4, 8 and 32 (PACE_SWEEP_JOBS), beside
#      step 1's 16.
#
# Steps 1 to 5 stop at their own limits (120 + 130 + 110 + 170 + 3 x 20 s); each run of step 6
# starts only where it can end within 560 s of the start. All six take more than a device command's
# 10 minutes: PACE_STEPS runs some of them (default "1 2 3 4 5 6"; e.g. "1 2", then "3 4 5 6" in a
# second command on the same machine, which adds to the same OUTDIR). Logs, summaries and each
# batch's progress lines go under OUTDIR, with the host's CPU and the GPU's use sampled every second
# while each batch runs (NAME.vmstat, NAME.dmon), and one grading-pace.tar.gz of the reports; a short
# table is printed last. LABRUN_LEASE_BUILD_DIR names another build folder (default build/dev), and
# PACE_HONEST and PACE_SWEEP smaller batches (default 160 and 160; PACE_SWEEP=0 leaves step 6 out),
# to try the script where there is no GPU: the GPU tests then skip (or are not run) and every grade
# says so.
#
#   OLD_BUILD=build/old-dev scripts/lease/grading-pace.sh OUTDIR
set -uo pipefail
out=${1:?usage: [OLD_BUILD=DIR] scripts/lease/grading-pace.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
build=${LABRUN_LEASE_BUILD_DIR:-build/dev}
new=$PWD/$build/labrun
old_build=${OLD_BUILD:-build/old-dev}
old=$(cd "$old_build" 2>/dev/null && pwd)/labrun
if [ ! -x "$new" ]; then
  echo "grading-pace: $new is missing: build the dev preset first" >&2
  exit 2
fi
unset LABRUN_GRADE_CHILD  # each labrun finds its own grading child beside it
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
started=$(date +%s.%N)
elapsed() { awk "BEGIN{printf \"%.0f\", $(date +%s.%N) - $started}"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt" 2>&1 || echo "no nvidia-smi" >"$out/gpu.txt"
if [ "$build" = build/dev ]; then ctest_command=(ctest --preset dev); else ctest_command=(ctest --test-dir "$build"); fi

# The honest batch: day 48's full-marks submissions, replicated, the first COUNT of them.
corpus=labs/day48-fusion/grading/corpus
honest_batch() {  # FOLDER COUNT
  rm -rf "$1"; mkdir -p "$1"
  local made=0 r=1
  while [ "$made" -lt "$2" ]; do
    for d in "$corpus"/*/; do
      [ "$made" -lt "$2" ] || break
      grep -q '"score": 100' "$d/expected.json" || continue
      cp -r "$d" "$1/r$(printf %03d "$r")-$(basename "$d")"
      made=$((made + 1))
    done
    r=$((r + 1))
  done
}
# Grades a batch; appends "NAME N SECONDS RATE EXIT" to rates.txt. The host's CPU (vmstat) and the
# GPU's use (nvidia-smi dmon) are sampled every second meanwhile, where those tools exist.
grade_batch() {  # NAME LABRUN FOLDER JOBS LIMIT
  local start status n samplers=()
  if command -v vmstat >/dev/null; then
    vmstat -n 1 >"$out/$1.vmstat" 2>&1 &
    samplers+=($!)
  fi
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi dmon -s u -d 1 >"$out/$1.dmon" 2>&1 &
    samplers+=($!)
  fi
  start=$(date +%s.%N)
  timeout "$5" "$2" grade --batch "$3" --out "$out/$1" --jobs "$4" --secret-seed --force >"$out/$1.md" 2>"$out/$1.log"
  status=$?
  [ ${#samplers[@]} -gt 0 ] && kill "${samplers[@]}" 2>/dev/null
  wait "${samplers[@]}" 2>/dev/null
  n=$(ls "$3" | wc -l)
  awk -v n="$n" -v s="$start" -v e="$(date +%s.%N)" -v name="$1" -v st="$status" \
    'BEGIN { printf "%s %d %.1f %.1f %d\n", name, n, e - s, n / (e - s) * 60, st }' >>"$out/rates.txt"
}
# The timing turn's parts over a batch's reports (docs/grading-at-scale.md, "The timing turn"):
# the medians of "timing" (the exclusive turn), the child's "timing: sampling", "clearing" and
# "freeing", the hand-over (the turn less the three), and "finishing after timing" (what the turn
# no longer holds), in seconds, and how many gradings gave their turn back on the child's word.
turn_parts() {  # NAME
  python3 - "$out/$1/submissions" <<'PY'
import json, os, statistics, sys
base = sys.argv[1]
phases = [json.load(open(os.path.join(base, s, "report.json"))).get("phase_seconds", {})
          for s in os.listdir(base)] if os.path.isdir(base) else []
timed = [p for p in phases if "timing" in p]
said = [p for p in timed if "timing: sampling" in p]
def median(key, rows):
    values = [p[key] for p in rows if key in p]
    return f"{statistics.median(values):.4f}" if values else "-"
clearing, freeing = "timing: clearing the GPU's memory", "timing: freeing the GPU's memory"
preparing, checking = "timing: sampling: preparing the calls", "timing: sampling: checking the calls"
handover = [p["timing"] - p["timing: sampling"] - p[clearing] - p[freeing] for p in said]
calls = [p["timing: sampling"] - p[preparing] - p[checking] for p in said if preparing in p and checking in p]
parts = [f"timing {median('timing', timed)}", f"sampling {median('timing: sampling', said)}",
         f"(preparing {median(preparing, said)}", f"checking {median(checking, said)}",
         f"the calls {statistics.median(calls):.4f})" if calls else "the calls -)",
         f"clearing {median(clearing, said)}", f"freeing {median(freeing, said)}",
         f"hand-over {statistics.median(handover):.4f}" if handover else "hand-over -",
         f"finishing after timing {median('finishing after timing', said)}"]
print(" · ".join(parts) + f" s (medians; {len(said)} of {len(timed)} turns given back on the child's word)")
PY
}
# A batch's host CPU busy (user + system) and GPU SM and memory use, means over its samples.
load() {  # NAME
  python3 - "$out/$1.vmstat" "$out/$1.dmon" <<'PY'
import statistics, sys
def rows(path, first):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return []
    return [l.split() for l in lines if l.split() and l.split()[0][0].isdigit() == first]
cpu = [int(r[12]) + int(r[13]) for r in rows(sys.argv[1], True)[1:] if len(r) >= 17]
gpu = [r for r in rows(sys.argv[2], True) if len(r) >= 3]
sm = [int(r[1]) for r in gpu if r[1].isdigit()]
mem = [int(r[2]) for r in gpu if r[2].isdigit()]
mean = lambda v: f"{statistics.mean(v):.0f}%" if v else "-"
print(f"host CPU busy {mean(cpu)} (peak {max(cpu) if cpu else '-'}%), GPU SM {mean(sm)}, memory {mean(mem)}")
PY
}
all_100() {  # NAME: "yes" when every report scored 100, else how many did not
  python3 - "$out/$1/submissions" <<'PY'
import json, os, sys
base = sys.argv[1]
scores = [json.load(open(os.path.join(base, s, "report.json")))["score"] for s in os.listdir(base)] if os.path.isdir(base) else []
bad = [s for s in scores if s != 100]
print("yes" if scores and not bad else f"no ({len(bad)} of {len(scores)} not 100)")
PY
}
touch "$out/rates.txt"  # a later command's steps add to an earlier one's

honest=${PACE_HONEST:-160}
sweep=${PACE_SWEEP:-160}
steps=" ${PACE_STEPS:-1 2 3 4 5 6} "
runs() { case "$steps" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
main_run="new-$honest-jobs16"
[ -d "$out/honest-main" ] || honest_batch "$out/honest-main" "$honest"
if runs 1; then
echo "== [$(elapsed) s] 1. the honest batch, $honest submissions, --jobs 16"
grade_batch "$main_run" "$new" "$out/honest-main" 16 120
tail -3 "$out/$main_run.log"
fi

if ! runs 2; then
  :
elif [ -x "$old" ]; then
  echo "== [$(elapsed) s] 2. OLD ($old) on the same $honest, --jobs 16"
  grade_batch "old-$honest-jobs16" "$old" "$out/honest-main" 16 130
  tail -2 "$out/old-$honest-jobs16.log"
else
  echo "== [$(elapsed) s] 2. skipped (no OLD labrun at $old_build)"
fi

if runs 3; then
echo "== [$(elapsed) s] 3. the GPU fault-injection test"
timeout 110 "${ctest_command[@]}" -R "^gpu\\.on a GPU, a batch grades every honest submission exactly as alone, beside hostile ones\$" \
  --output-on-failure >"$out/fault-injection.log" 2>&1
echo "ctest exit status $?" >>"$out/fault-injection.log"
grep -E "tests passed|Failed|Skipped|Not Run|exit status" "$out/fault-injection.log" | tail -3
fi

if runs 4; then
echo "== [$(elapsed) s] 4. the GPU corpus tests of every exercise"
mkdir -p "$out/grades"
LABRUN_GRADE_OUT="$out/grades" timeout 170 "${ctest_command[@]}" \
  -R "^gpu\\.(labrun grade --batch gives every submission of every exercise.s corpus its expected verdict|the skeleton a student starts from compiles and scores 0, for every exercise)\$" \
  --timeout 160 --output-on-failure >"$out/corpora.log" 2>&1
echo "ctest exit status $?" >>"$out/corpora.log"
# ctest's own limit (under the backstop's) ends a stalled test and still prints what it wrote; the
# card's state after it says whether the step left the GPU usable.
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader >>"$out/corpora.log" 2>&1
grep -E "tests passed|Failed|Skipped|Not Run|exit status" "$out/corpora.log" | tail -3
fi

if runs 5; then
echo "== [$(elapsed) s] 5. one grade end to end, 3 times"
: >"$out/one-grade.txt"
for i in 1 2 3; do
  start=$(date +%s.%N)
  timeout 20 "$new" grade "$corpus/correct/halfway.cu" --out "$out/one-grade-$i" --force >"$out/one-grade-$i.md" 2>"$out/one-grade-$i.log"
  status=$?
  awk -v s="$start" -v e="$(date +%s.%N)" -v st="$status" 'BEGIN { printf "%.2f %d\n", e - s, st }' >>"$out/one-grade.txt"
done
cat "$out/one-grade.txt"
fi

if runs 6; then
echo "== [$(elapsed) s] 6. the rate against --jobs, $sweep submissions"
[ "$sweep" -gt 0 ] && honest_batch "$out/honest-sweep" "$sweep"
for jobs in ${PACE_SWEEP_JOBS:-4 8 32}; do
  if [ "$sweep" -eq 0 ]; then
    echo "--jobs $jobs skipped: PACE_SWEEP=0"
  elif [ $(($(elapsed) + 130)) -le 560 ]; then
    grade_batch "new-$sweep-jobs$jobs" "$new" "$out/honest-sweep" "$jobs" 130
    tail -1 "$out/new-$sweep-jobs$jobs.log"
  else
    echo "--jobs $jobs skipped: no time left"
  fi
done
rm -rf "$out/honest-sweep"
fi

tar -czf "$out/grading-pace.tar.gz" -C "$out" --exclude='*.tar.gz' --exclude='honest-*' . 2>/dev/null

echo
echo "== grading pace ($(cat "$out/gpu.txt"); $(elapsed) s in all)"
printf "%-16s %5s %8s %10s %5s %s\n" run subs seconds per-minute exit "every one 100"
while read -r name n seconds rate status; do
  printf "%-16s %5s %8s %10s %5s %s; %s\n" "$name" "$n" "$seconds" "$rate" "$status" "$(all_100 "$name")" "$(load "$name")"
done <"$out/rates.txt"
ctest_result() {  # LOG: passed, skipped, not found, not run, or FAILED
  if [ ! -f "$1" ]; then echo "not run (PACE_STEPS)"
  elif grep -qE 'No tests were found' "$1"; then echo "not found (no GPU tests in this build)"
  elif grep -qE 'Skipped|SKIP' "$1"; then echo skipped
  elif grep -qE '100% tests passed' "$1"; then echo passed
  else echo "FAILED ($1)"; fi
}
echo "fault injection: $(ctest_result "$out/fault-injection.log")"
echo "corpora: $(ctest_result "$out/corpora.log")"
[ -f "$out/one-grade.txt" ] && echo "one grade, seconds (median of 3): $(sort -n "$out/one-grade.txt" | sed -n 2p | cut -d' ' -f1)"
echo "where the time went ($main_run): $(grep 'where the time went' "$out/$main_run.log" | tail -1 | sed 's/.*where the time went: //')"
echo "workers and screening ($main_run): $(grep -E 'GPU [0-9]+: .*workers' "$out/$main_run.log" | tail -1)"
echo "the GPU's time ($main_run): $(grep -E 'GPU [0-9]+ held for: ' "$out/$main_run.log" | tail -1 | sed 's/.*held for: //')"
echo "the timing turn ($main_run): $(turn_parts "$main_run")"
