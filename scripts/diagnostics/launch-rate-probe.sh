#!/usr/bin/env bash
# On the H200, after a dev build (build/dev): where the between-process spread of part 1's host
# launch rate (day 48's empty-single-thread, 1000 empty launches back to back) comes from. Runs
# PROBE_PROCESSES (default 8) processes of day 48's part 1 for each placement below, interleaved
# (one process of each placement in turn, so drift over time does not favour one), in
# PROBE_MODE timing (default cold), and prints, per placement, the spread of the processes'
# figures against the spread of the contexts inside each process:
#
#   free     no pinning (the default run)
#   pin-A    --pin-cpu A: the launching thread on CPU A (PROBE_CPU_A, default the first CPU of the
#            GPU's CPU affinity in `nvidia-smi topo -m`, else 2)
#   pin-B    --pin-cpu B (PROBE_CPU_B, default the last CPU online)
#   set-AB   the whole process held to CPUs A and B (taskset), CUDA's own threads included
#
# Every transcript stays under OUTDIR/<placement>/<i>/; the table goes to OUTDIR/table.txt and is
# printed last.
#
#   scripts/diagnostics/launch-rate-probe.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/diagnostics/launch-rate-probe.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
labrun=$PWD/build/dev/labrun
[ -x "$labrun" ] || { echo "launch-rate-probe: $labrun is missing: build the dev preset first" >&2; exit 2; }
processes=${PROBE_PROCESSES:-8}
mode=${PROBE_MODE:-cold}
last_cpu=$(($(nproc) - 1))
near=$(nvidia-smi topo -m 2>/dev/null | awk '/^GPU0/ {for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$/ && $i ~ /-/) {split($i, r, /[-,]/); print r[1]; exit}}')
cpu_a=${PROBE_CPU_A:-${near:-2}}
cpu_b=${PROBE_CPU_B:-$last_cpu}
{ nvidia-smi topo -m; lscpu | grep -E "^(CPU\(s\)|NUMA|Model name|Thread|Core|Socket)"; } >"$out/machine.txt" 2>&1
echo "placements: free, pin-$cpu_a, pin-$cpu_b, set-$cpu_a,$cpu_b; $processes processes each, $mode timing"
cases=(--case 'part1/empty-single-thread' --case 'part1/empty-single-launch')
for i in $(seq 1 "$processes"); do
  for placement in free "pin-$cpu_a" "pin-$cpu_b" "set-$cpu_a,$cpu_b"; do
    dir=$out/$placement/$i
    mkdir -p "$dir"
    case $placement in
      free) command=("$labrun") ;;
      pin-*) command=("$labrun") ;;
      set-*) command=(taskset -c "${placement#set-}" "$labrun") ;;
    esac
    extra=()
    case $placement in pin-*) extra=(--pin-cpu "${placement#pin-}") ;; esac
    "${command[@]}" run day48-fusion --timing "$mode" "${cases[@]}" "${extra[@]}" --out "$dir" --quiet \
      >"$dir/stdout.md" 2>"$dir/stderr.log" || echo "$placement $i: exit $?"
  done
done
python3 - "$out" <<'EOF' | tee "$out/table.txt"
import glob, json, math, os, statistics, sys
out = sys.argv[1]
def sd(values):
    return statistics.stdev(values) if len(values) > 1 else float("nan")
print("| placement | case | processes | figure, median (us per launch) | between processes, sd of log | inside a process (contexts), pooled sd of log | host CPUs seen |")
print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
for placement in sorted(os.listdir(out)):
    folder = os.path.join(out, placement)
    if not os.path.isdir(folder):
        continue
    for case in ("empty-single-thread", "empty-single-launch"):
        figures, within, cpus = [], [], set()
        for path in sorted(glob.glob(os.path.join(folder, "*", "*.json"))):
            transcript = json.load(open(path))
            run = transcript["environment"].get("run", {})
            for key in ("host_cpu_start", "host_cpu_end"):
                if key in run:
                    cpus.add(run[key]["value"])
            for c in transcript["cases"]:
                if not c["name"].endswith("/" + case):
                    continue
                per_launch = 1000.0 / c["launches_per_sample"]
                figure = c.get("figure_ms") or c["summary"]["median_ms"]
                figures.append(math.log(figure * per_launch))
                logs = [math.log(r["median_ms"] * per_launch) for r in c.get("rounds", [])]
                if len(logs) > 1:
                    within.append(sd(logs) ** 2)
        if not figures:
            continue
        print(f"| {placement} | {case} | {len(figures)} | {math.exp(statistics.median(figures)):.3f} | "
              f"{100 * sd(figures):.1f}% | {100 * math.sqrt(statistics.mean(within)) if within else float('nan'):.1f}% | "
              f"{' '.join(str(c) for c in sorted(cpus))} |")
EOF
