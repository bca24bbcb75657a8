#!/usr/bin/env bash
# On the H200: where a new CUDA context's offset of a small gated workload lives (the context, or the
# hardware queue its stream lands on): scripts/diagnostics/context_state_probe.cu, built here with
# nvcc, run with the driver's default hardware queues and with one (CUDA_DEVICE_MAX_CONNECTIONS=1:
# every stream of a context on one queue, so that a stream level the queues make would vanish), each
# analysed by context-state-probe.py. About 40 s.
#
#   scripts/diagnostics/context-state-probe.sh OUTDIR [CONTEXTS ROUNDS STREAMS SAMPLES]
#
# Writes OUTDIR/probe, OUTDIR/queues-default.csv and .md, OUTDIR/queues-1.csv and .md; prints both
# tables. Exit status: 0; 1 the build or a run failed; 2 usage.
set -uo pipefail
[ -n "${1:-}" ] || { echo "usage: context-state-probe.sh OUTDIR [CONTEXTS ROUNDS STREAMS SAMPLES]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
"$nvcc" -O2 -std=c++17 -arch=sm_90 -o "$out/probe" scripts/diagnostics/context_state_probe.cu || exit 1
status=0
for queues in default 1; do
  if [ "$queues" = default ]; then
    "$out/probe" "$@" >"$out/queues-$queues.csv" 2>"$out/queues-$queues.log" || status=1
  else
    CUDA_DEVICE_MAX_CONNECTIONS=$queues "$out/probe" "$@" >"$out/queues-$queues.csv" 2>"$out/queues-$queues.log" || status=1
  fi
  python3 scripts/diagnostics/context-state-probe.py "$out/queues-$queues.csv" >"$out/queues-$queues.md" || status=1
  echo "== hardware queues: $queues"
  cat "$out/queues-$queues.md"
done
exit "$status"
