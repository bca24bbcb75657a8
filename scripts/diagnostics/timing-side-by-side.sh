#!/usr/bin/env bash
# On a GPU machine: the check every change to timing code gets (the developers' guide): the same
# lab timed cold by two labrun builds in one lease, turn about, ROUNDS runs each, and every case at
# n >= 2^24 compared: the median over each build's runs of the case's figure, and new over old. A
# case's figure is what its run recorded as one (cases[].figure_ms, schema 1.10.0: the geometric mean
# of its CUDA contexts' medians), else the median of its samples (every older build's figure).
# Prints one line per case (with the run-to-run spread: the larger of the two builds' (max - min) /
# median over their runs, against which a difference can be judged) and the largest difference;
# exits 1 when it is above LIMIT (0.01). TIMING (default cold, the timing nvbench is compared in) times
# both builds in another mode instead, for a change that touches that mode alone.
#
#   scripts/diagnostics/timing-side-by-side.sh OLD_LABRUN NEW_LABRUN OUTDIR [ROUNDS] [LIMIT] [LAB]
set -uo pipefail
old=${1:?usage: timing-side-by-side.sh OLD_LABRUN NEW_LABRUN OUTDIR [ROUNDS] [LIMIT] [LAB]}
new=${2:?}; out=${3:?}; rounds=${4:-3}; limit=${5:-0.01}; lab=${6:-day48-fusion}
timing=${TIMING:-cold}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    labrun=$old; [ "$side" = new ] && labrun=$new
    "$labrun" run "$lab" --timing "$timing" --out "$out/$side-$r" --quiet >/dev/null || { echo "$side run $r failed" >&2; exit 2; }
  done
done
python3 - "$out" "$rounds" "$limit" "$timing" <<'PY'
import glob, json, statistics, sys
out, rounds, limit, timing = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
def medians(side):
    runs = {}
    for r in range(1, rounds + 1):
        for f in glob.glob(f"{out}/{side}-{r}/*.json"):
            if f.endswith(".trace.json"):
                continue
            for c in json.load(open(f))["cases"]:
                if c["elements"] >= 1 << 24:
                    figure = c.get("figure_ms")
                    figure = figure if isinstance(figure, (int, float)) else c["summary"]["median_ms"]
                    runs.setdefault((c["name"], c["elements"]), []).append(figure)
    return runs
old_runs, new_runs = medians("old"), medians("new")
old = {k: statistics.median(v) for k, v in old_runs.items()}
new = {k: statistics.median(v) for k, v in new_runs.items()}
# Run to run: the largest (max - min) / median of one build's runs of the case, old or new.
spread = {k: max((max(v) - min(v)) / statistics.median(v) for v in (old_runs[k], new_runs[k]))
          for k in old if k in new}
worst = 0.0
for key in sorted(old):
    if key in new:
        ratio = new[key] / old[key]
        worst = max(worst, abs(ratio - 1))
        print(f"{key[0]:<48} n={key[1]:<10} old {old[key]:.5f} ms  new {new[key]:.5f} ms  new/old {ratio:.4f}"
              f"  run to run {100 * spread[key]:.2f}%")
print(f"{len(old)} cases at n >= 2^24 ({timing}); largest difference {100 * worst:.2f}% (limit {100 * limit:.1f}%)")
sys.exit(1 if worst > limit else 0)
PY
