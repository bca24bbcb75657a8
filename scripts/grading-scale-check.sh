#!/usr/bin/env bash
# On a GPU machine: how batch grading scales (docs/grading-at-scale.md). Replicates the grading
# corpus REPLICAS times (29 submissions each), grades the first SERIAL_REPLICAS of those copies with
# --jobs 1 (serially) and all of them on the GPUs of each DEVICES list given, with JOBS gradings at
# once per GPU of the list (--jobs JOBS x GPUs), and
# prints each run's rate and whether every verdict (score and mistakes) equals the serial run's and
# the corpus's expected one, and the median seconds each grading spent in each phase (its report's
# phase_seconds). Logs and summaries go to OUTDIR. Run after a dev build. With HONEST=1 in the
# environment only the corpus's full-marks submissions are replicated: an honest batch.
#
#   scripts/grading-scale-check.sh OUTDIR REPLICAS SERIAL_REPLICAS JOBS DEVICES [DEVICES...]
#   scripts/grading-scale-check.sh /tmp/scale 8 2 16 0 0,1
set -uo pipefail
out=${1:?usage: grading-scale-check.sh OUTDIR REPLICAS SERIAL_REPLICAS JOBS DEVICES...}
replicas=${2:?}; serial=${3:?}; jobs=${4:?}; shift 4
[ $# -ge 1 ] || { echo "grading-scale-check: give at least one DEVICES list" >&2; exit 2; }
cd "$(dirname "$0")/.."
labrun=$PWD/build/dev/labrun
mkdir -p "$out"
out=$(cd "$out" && pwd)
corpus=labs/day48-fusion/grading/corpus
all="$out/submissions"; few="$out/submissions-serial"
rm -rf "$all" "$few"; mkdir -p "$all" "$few"
for r in $(seq 1 "$replicas"); do
  for d in "$corpus"/*/; do
    name=$(basename "$d")
    [ -f "$d/halfway.cu" ] || continue
    # HONEST=1: only the submissions the corpus expects full marks for (an honest class's batch).
    if [ "${HONEST:-0}" = 1 ] && ! grep -q '"score": 100' "$d/expected.json"; then continue; fi
    cp -r "$d" "$all/r$r-$name"
    [ "$r" -le "$serial" ] && cp -r "$d" "$few/r$r-$name"
  done
done
echo "$(ls "$all" | wc -l) submissions; $(ls "$few" | wc -l) graded serially too"

grade() {  # NAME SUBMISSIONS JOBS DEVICES
  local start end
  start=$(date +%s.%N)
  "$labrun" grade --batch "$2" --out "$out/$1" --jobs "$3" --devices "$4" --secret-seed --force \
    >"$out/$1.md" 2>"$out/$1.log"
  local status=$?
  end=$(date +%s.%N)
  local n; n=$(ls "$2" | wc -l)
  awk -v n="$n" -v s="$start" -v e="$end" -v name="$1" -v st="$status" \
    'BEGIN { printf "%s: %d submissions in %.1f s, %.1f per minute (exit %d)\n", name, n, e - s, n / (e - s) * 60, st }' |
    tee -a "$out/rates.txt"
}
grade serial "$few" 1 "${1%%,*}"
for devices in "$@"; do
  gpus=$(awk -F, '{ print NF }' <<<"$devices")
  grade "jobs$((jobs * gpus))-gpus${devices//,/-}" "$all" "$((jobs * gpus))" "$devices"
done
python3 - "$out" "$corpus" "$@" <<'PY'
import json, os, sys
out, corpus, device_lists = sys.argv[1], sys.argv[2], sys.argv[3:]
jobs = [d for d in os.listdir(out) if d.startswith("jobs") and os.path.isdir(os.path.join(out, d))]
def verdict(folder):
    r = json.load(open(os.path.join(folder, "report.json")))
    return r["score"], sorted(m["id"] for m in r["mistakes"])
# A batch writes each submission's reports under OUT/submissions/<folder>/.
serial_base = os.path.join(out, "serial", "submissions")
serial = {s: verdict(os.path.join(serial_base, s)) for s in os.listdir(serial_base) if os.path.isdir(os.path.join(serial_base, s))}
for run in sorted(jobs):
    base = os.path.join(out, run, "submissions")
    names = [s for s in os.listdir(base) if os.path.isdir(os.path.join(base, s))]
    differ_serial = [s for s in names if s in serial and verdict(os.path.join(base, s)) != serial[s]]
    differ_expected = []
    for s in names:
        expected = json.load(open(os.path.join(corpus, s.split("-", 1)[1], "expected.json")))
        score, mistakes = verdict(os.path.join(base, s))
        if score != expected["score"] or mistakes != sorted(expected["mistakes"]):
            differ_expected.append(s)
    print(f"{run}: {len(names)} graded; verdicts differing from the serial run: {len(differ_serial)} of "
          f"{sum(1 for s in names if s in serial)} {differ_serial[:5]}; from the corpus's expected: "
          f"{len(differ_expected)} {differ_expected[:5]}")
for run in ["serial"] + sorted(jobs):
    base = os.path.join(out, run, "submissions")
    phases = {}
    for s in os.listdir(base):
        if os.path.isdir(os.path.join(base, s)):
            for phase, seconds in json.load(open(os.path.join(base, s, "report.json"))).get("phase_seconds", {}).items():
                phases.setdefault(phase, []).append(seconds)
    medians = ", ".join(f"{p} {sorted(v)[len(v) // 2]:.2f} s (sum {sum(v):.0f} s, n {len(v)})" for p, v in phases.items())
    print(f"{run}: median seconds per phase: {medians}")
PY
