#!/usr/bin/env bash
# On a GPU machine, from this tree: does cold timing still alternate once a cold sample's SM clock is
# read by its flush (docs/measurement.md, "The SM clock of every sample")? A quick check, not the
# benchmark: builds labrun alone (dev preset, no tests), runs scripts/diagnostics/cold_alternation_probe.cu
# while it builds, then day 48 in cold timing: RUNS runs of the two cases the launch-cost claim reads
# (part 1's queued empty launches and part 3's staged chain, with its fused chain as a control), and
# one run of the whole lab. Prints, per run, the even/odd gap of the queued empty launches and of part
# 3's staged and fused chains at n <= 2^18, with their sample clocks, and the launch-cost claim's
# figure, interval and verdict.
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
python3 - "$out" <<'PY' | tee "$out/table.txt"
import csv, glob, os, statistics, sys
sys.path.insert(0, "scripts/diagnostics")
from transcript_reading import load_transcript
out = sys.argv[1]
# The staged chain's four launches and the queued empty launches alternated; the fused chain (one
# launch) is the control.
WATCHED = {"part1/empty-single-staged-launches", "part3/staged-chain", "part3/fused-chain"}
print("| run | case, n | samples | even/odd gap | sample clock, median MHz (readings) |")
print("| --- | --- | ---: | ---: | ---: |")
for path in sorted(glob.glob(os.path.join(out, "runs", "*", "*.json"))):
    t = load_transcript(path)
    name = os.path.basename(os.path.dirname(path))
    for c in t["cases"]:
        if c["name"].split("/", 1)[1] not in WATCHED or c["elements"] > 1 << 18 or not c.get("rounds"):
            continue
        gaps, offset = [], 0
        for r in c["rounds"]:
            s = c["samples_ms"][offset:offset + r["samples"]]
            offset += r["samples"]
            if len(s) >= 10:
                gaps.append((statistics.fmean(s[0::2]) - statistics.fmean(s[1::2])) / statistics.median(s))
        clocks = [x for x in c.get("sample_sm_clock_mhz") or [] if x]
        print("| %s | %s, %d | %d | %.1f%% | %s (%d of %d) |" % (
            name, c["name"].split("/", 1)[1], c["elements"], len(c["samples_ms"]),
            100 * statistics.fmean(abs(g) for g in gaps) if gaps else 0.0,
            "%.0f" % statistics.median(clocks) if clocks else "-", len(clocks), len(c["samples_ms"])))
    for claim in t.get("claims", []):
        if claim["id"] == "staged-launch-cost-converges-to-an-empty-launch" and claim.get("measured"):
            i = claim.get("measured_interval") or {}
            print("| %s | launch-cost claim | | %.4f (%s to %s) | %s |" % (
                name, claim["measured"], "%.4f" % i["low"] if i else "-", "%.4f" % i["high"] if i else "-",
                claim["verdict"]))
    print("| %s | clock source | | | %s |" % (name, t.get("timing", {}).get("clock_source", "")[:60]))
rows = list(csv.DictReader(open(os.path.join(out, "probe.csv")))) if os.path.exists(os.path.join(out, "probe.csv")) else []
print()
print("probe (L = 4, then 3): " + "; ".join("%s %s L%s %s%%" % (r["variant"], r["region"], r["launches"], r["median_gap_percent"]) for r in rows))
PY
exit $status
