#!/usr/bin/env bash
# On a GPU machine, from this tree: does cold timing still alternate once a cold sample's SM clock is
# read by its flush (docs/measurement.md, "The SM clock of every sample")? A quick check, not the
# benchmark: builds labrun alone (dev preset, no tests), runs scripts/diagnostics/cold_alternation_probe.cu
# while it builds, then day 48 in cold timing: RUNS runs of the two cases the launch-cost claim reads
# (part 1's queued empty launches and part 3's staged chain, with its fused chain as a control), and
# one run of the whole lab. Prints, per run, the even/odd gap of the queued empty launches and of part
# 3's staged and fused chains at n <= 2^18, with their sample clocks, and the launch-cost claim's
# figure, interval and verdict (scripts/diagnostics/alternation-gaps.py).
#
#   scripts/diagnostics/cold-clock-check.sh OUTDIR [RUNS]
#
# Writes OUTDIR/build.log, OUTDIR/probe.csv, OUTDIR/runs/<name>/ (transcripts), OUTDIR/table.txt.
# Exit status: 0; 1 the build or a run failed; 2 usage.
set -uo pipefail
[ -n "${1:-}" ] || { echo "usage: cold-clock-check.sh OUTDIR [RUNS]" >&2; exit 2; }
out=$1
runs=${2:-3}
mkdir -p "$out/runs" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
status=0
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
if "$nvcc" -O2 -std=c++17 -arch=sm_90 -o "$out/probe" scripts/diagnostics/cold_alternation_probe.cu; then
  "$out/probe" 400 4 3 >"$out/probe.csv" 2>"$out/probe.log" &
  probe_pid=$!
fi
begin=$(date +%s)
{ cmake --preset dev -DLABRUN_WARNINGS_AS_ERRORS=OFF -DLABRUN_REQUIRE_ZLIB=ON -DLABRUN_BUILD_TESTS=OFF &&
  cmake --build --preset dev -j "$(nproc)" --target labrun; } >"$out/build.log" 2>&1 || { echo "build failed" >&2; tail -20 "$out/build.log"; exit 1; }
echo "build: $(($(date +%s) - begin)) s"
[ -n "${probe_pid:-}" ] && wait "$probe_pid"
labrun=build/dev/labrun
for i in $(seq 1 "$runs"); do
  mkdir -p "$out/runs/pair-$i"
  "$labrun" run day48-fusion --timing cold --case 'part1/empty-single-staged-launches' --case 'part3/staged-chain' --case 'part3/fused-chain' \
    --out "$out/runs/pair-$i" --quiet >/dev/null 2>"$out/runs/pair-$i.log" || { echo "pair-$i: exit $?"; status=1; }
done
mkdir -p "$out/runs/whole"
"$labrun" run day48-fusion --timing cold --out "$out/runs/whole" --quiet >/dev/null 2>"$out/runs/whole.log" \
  || { echo "whole: exit $?"; status=1; }
{
  python3 scripts/diagnostics/alternation-gaps.py "$out/runs"
  echo
  echo -n "probe (L = 4, then 3): "
  python3 -c 'import csv, sys; print("; ".join("%s %s L%s %s%%" % (r["variant"], r["region"], r["launches"], r["median_gap_percent"]) for r in csv.DictReader(open(sys.argv[1]))))' "$out/probe.csv" 2>/dev/null || echo "-"
} | tee "$out/table.txt"
exit $status
