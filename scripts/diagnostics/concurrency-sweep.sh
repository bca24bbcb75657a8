#!/usr/bin/env bash
# On a GPU machine: what each process a batch grading starts costs when many run at once
# (docs/grading-at-scale.md). For each step and each count C of COUNTS, starts C copies at the same
# moment and prints the wall seconds of the slowest and the median copy. Steps: nvcc compiling a
# corpus submission to a cubin, the context probe (context, 11 card-sized buffers, free), the probe
# with tiny buffers (context only), and compute-sanitizer memcheck over the tiny probe.
# Run after a dev build, from the repository root.
#
#   scripts/diagnostics/concurrency-sweep.sh OUTDIR [COUNTS...]
#   scripts/diagnostics/concurrency-sweep.sh /tmp/sweep 1 4 16
set -uo pipefail
out=${1:?usage: concurrency-sweep.sh OUTDIR [COUNTS...]}
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 4 16)
mkdir -p "$out"
out=$(cd "$out" && pwd)
nvcc=${NVCC:-nvcc}
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
"$nvcc" -O2 -o "$out/probe" scripts/diagnostics/context_and_memory_probe.cu || exit 1
source_file=labs/day48-fusion/grading/corpus/correct/halfway.cu
headers=labs/day48-fusion

sweep() {  # NAME COMMAND...: runs the command C times at once for each count
  local name=$1
  shift
  for c in "${counts[@]}"; do
    local dir="$out/$name-$c"
    mkdir -p "$dir"
    for i in $(seq 1 "$c"); do
      (
        cd "$dir" || exit 1
        start=$(date +%s.%N)
        "$@" >"out-$i.txt" 2>&1
        end=$(date +%s.%N)
        echo "$start $end" >"wall-$i.txt"
      ) &
    done
    wait
    python3 - "$dir" "$name" "$c" <<'PY'
import glob, statistics, sys
walls = sorted(float(e) - float(s) for s, e in (open(f).read().split() for f in glob.glob(sys.argv[1] + "/wall-*.txt")))
print(f"{sys.argv[2]:<22} x{sys.argv[3]:<3} slowest {walls[-1]:6.2f} s  median {statistics.median(walls):6.2f} s")
PY
  done
}

sweep nvcc-cubin "$nvcc" -cubin -std=c++17 -O3 "-arch=sm_$arch" -I "$PWD/$headers" -o sub.cubin "$PWD/$source_file"
sweep probe-card-buffers "$out/probe" 11 134217728
sweep probe-context-only "$out/probe" 1 1024
sweep sanitizer-memcheck compute-sanitizer --tool memcheck "$out/probe" 1 1024
sweep sanitizer-racecheck compute-sanitizer --tool racecheck "$out/probe" 1 1024
python3 - "$out" "${counts[@]}" <<'PY'
import glob, re, statistics, sys
for c in sys.argv[2:]:
    steps = [re.findall(r"([a-z ]+) ([0-9.]+) s", open(f).read()) for f in glob.glob(f"{sys.argv[1]}/probe-card-buffers-{c}/out-*.txt")]
    steps = [dict((k.strip(" ,"), float(v)) for k, v in s) for s in steps if s]
    if steps:
        print(f"probe-card-buffers x{c:<3} median steps: " +
              ", ".join(f"{k} {statistics.median(s[k] for s in steps):.3f} s" for k in steps[0]) + f" ({len(steps)} copies reported)")
PY
