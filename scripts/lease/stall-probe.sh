#!/usr/bin/env bash
# On the H200, inside the lead's lease, after a dev build of this tree (build/dev). It builds
# nothing. Gathers what decides why issue 34's second design stalled on day 48's corpus on
# 2026-12-03 (evidence/day48-fusion/grading/pace-2026-12-03T21-24Z-gpu-reset/):
#
#   - day 48's public corpus (50 submissions, many hostile) graded as one batch at --jobs 16 and
#     --time-limit 60, as the GPU corpus test grades it, with labrun's scratch folders under OUTDIR
#     (TMPDIR), so that what each grading and each screening group is doing can be read while it
#     runs;
#   - every 2 s while it runs, a sample: the process tree under labrun (state, kernel wait channel,
#     seconds alive, command), the compute processes nvidia-smi sees, and for each scratch folder
#     its signal files (ready-to-time, may-time, timed, yield, yielded, resume), its phase files and, for
#     a screening group, its control folder (job.json handed, done.json answered);
#   - when no grading has ended for 20 s (a stall), one fuller snapshot: each labrun descendant's
#     /proc status and wchan, and nvidia-smi -q's processes;
#   - the batch ended with SIGINT at 100 s (labrun's own forwarding ends its process trees), then
#     SIGKILL 15 s later; the processes left after it, and nvidia-smi after it, then once more 10 s
#     later (whether the card needs a reset, and when).
#
# About 2 minutes at most. What decides between the hypotheses (see the s5-issue-34 report): a
# stall in which a screening group's compute-sanitizer process is alive with a member's job.json
# answered by no done.json is a member whose run does not end inside the sanitizer; one in which
# no grading child or sanitizer is busy (all sleeping on futexes, no job pending) is a wait in
# labrun's scheduler; the card's state right after the SIGINT says whether ending those processes
# is what leaves it needing a reset. A short table is printed last.
#
#   scripts/lease/stall-probe.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/lease/stall-probe.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
build=${LABRUN_LEASE_BUILD_DIR:-build/dev}
labrun=$PWD/$build/labrun
if [ ! -x "$labrun" ]; then
  echo "stall-probe: $labrun is missing: build the dev preset first" >&2
  exit 2
fi
unset LABRUN_GRADE_CHILD  # labrun finds its own grading child beside it
. scripts/lib/bubblewrap.sh
corpus=labs/day48-fusion/grading/corpus
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
smi() {  # FILE: the card's state, bounded (a lost card can make nvidia-smi itself hang)
  timeout -s KILL 20 nvidia-smi >"$1" 2>&1 || echo "nvidia-smi exit status $?" >>"$1"
}
smi "$out/nvidia-smi-before.txt"

scratch="$out/tmp"
rm -rf "$scratch" "$out/grades" "$out/samples"
mkdir -p "$scratch" "$out/samples"
# The batch: SIGINT at 100 s, SIGKILL 15 s after that.
TMPDIR="$scratch" timeout -s INT -k 15 100 "$labrun" grade --batch "$corpus" --out "$out/grades" \
  --time-limit 60 --force >"$out/batch.md" 2>"$out/batch.log" &
batch=$!

descendants() {  # PID: every process below it
  local p
  for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$p"
    descendants "$p"
  done
}
sample() {  # FILE
  {
    echo "== $(date -u +%T.%N) ($(elapsed) s)"
    local root
    root=$(ps -o pid= --ppid "$batch" 2>/dev/null | head -n 1)
    if [ -n "$root" ]; then
      ps -o pid,ppid,etimes,stat,wchan:24,args --forest -p "$({ echo "$root"; descendants "$root"; } | paste -sd,)" \
        2>/dev/null | cut -c1-260
    fi
    echo "-- nvidia-smi compute processes"
    timeout -s KILL 5 nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader 2>&1
    echo "-- scratch folders"
    for d in "$scratch"/labrun-grade-*; do
      [ -d "$d" ] || continue
      printf '%s:' "$(basename "$d")"
      for f in ready-to-time may-time timed yield yielded resume results.json control/ready control/job.json \
        control/done.json control/stop; do
        [ -e "$d/$f" ] && printf ' %s' "$f"
      done
      for f in "$d"/phase*.txt; do
        [ -f "$f" ] && printf ' [%s: %s]' "$(basename "$f")" "$(head -c 160 "$f" | tr '\n' ' ')"
      done
      [ -f "$d/control/done.json" ] && printf ' done=%s' "$(head -c 200 "$d/control/done.json" | tr -d '\n')"
      echo
    done
  } >>"$1" 2>&1
}
snapshot() {  # FILE: fuller, once, at a stall
  {
    echo "== stall snapshot $(date -u +%T.%N) ($(elapsed) s)"
    local root p
    root=$(ps -o pid= --ppid "$batch" 2>/dev/null | head -n 1)
    for p in $root $(descendants "${root:-0}"); do
      echo "-- $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-200)"
      grep -E '^(State|Threads|voluntary_ctxt_switches)' "/proc/$p/status" 2>/dev/null
      echo "wchan: $(cat "/proc/$p/wchan" 2>/dev/null)"
      for t in "/proc/$p/task/"*; do
        printf '%s ' "$(basename "$t"):$(cat "$t/wchan" 2>/dev/null)"
      done
      echo
    done
    echo "-- nvidia-smi -q -d PIDS"
    timeout -s KILL 10 nvidia-smi -q -d PIDS 2>&1
  } >>"$1" 2>&1
}

last_done=0
last_change=$(date +%s)
stalled=no
while kill -0 "$batch" 2>/dev/null; do
  sample "$out/samples/samples.txt"
  done_now=$(grep -c '^labrun \[[0-9:]*\] \[[0-9]*/' "$out/batch.log" 2>/dev/null)
  if [ "${done_now:-0}" != "$last_done" ]; then
    last_done=${done_now:-0}
    last_change=$(date +%s)
  elif [ "$stalled" = no ] && [ $(($(date +%s) - last_change)) -ge 20 ]; then
    stalled="yes, after $last_done gradings at $(elapsed) s"
    snapshot "$out/samples/stall-snapshot.txt"
  fi
  sleep 2
done
wait "$batch"
status=$?
echo "batch exit status $status" >>"$out/batch.log"
{
  echo "== left after the batch ($(elapsed) s)"
  ps -eo pid,ppid,etimes,stat,comm,args |
    awk '$5 ~ /^(labrun|labrun-contain|labrun-grade-c|compute-sanitiz|bwrap|nvcc)$/' | cut -c1-260
} >"$out/after.txt" 2>&1
smi "$out/nvidia-smi-after.txt"
sleep 10
smi "$out/nvidia-smi-after-10s.txt"
tar -czf "$out/stall-probe.tar.gz" -C "$out" grades samples batch.log batch.md 2>/dev/null
rm -rf "$scratch"

card() {  # FILE: one line on the card's state
  if grep -q "requires reset\|Unable to determine\|No devices were found\|nvidia-smi exit status" "$1"; then
    echo "LOST: $(grep -m1 -E 'reset|Unable|No devices|exit status' "$1" | cut -c1-80)"
  else
    echo "usable"
  fi
}
echo
echo "== stall probe ($(elapsed) s in all)"
printf '%-28s %s\n' "batch exit status" "$status (124 or 137: ended by the probe's limit)"
printf '%-28s %s\n' "gradings ended" "$(grep -c '^labrun \[[0-9:]*\] \[[0-9]*/' "$out/batch.log") of $(ls "$corpus" | wc -l)"
printf '%-28s %s\n' "stalled (20 s, none ended)" "$stalled"
printf '%-28s %s\n' "GPU line" "$(grep -m1 'held for' "$out/batch.log" | sed 's/.*held for: //' | cut -c1-90)"
printf '%-28s %s\n' "processes left" "$(grep -c . "$out/after.txt" | awk '{print $1 - 1}')"
printf '%-28s %s\n' "card after" "$(card "$out/nvidia-smi-after.txt")"
printf '%-28s %s\n' "card 10 s after" "$(card "$out/nvidia-smi-after-10s.txt")"
