#!/usr/bin/env bash
# One lease on the H200 for a tree that merges several issues' work (here 29, 31, 32 and 33): the
# GPU steps each issue's own lease script names, in three parts that each fit a device command's
# 10 minutes, run back to back so that the machine stays warm and build/dev is built once.
#
#   scripts/lease/merged-tree.sh OUTDIR build     the dev preset and the previous code's labrun
#                                                 (intervals-benchmark.sh build-old), side by side;
#                                                 then grading-classes.sh              (~7 min)
#   scripts/lease/merged-tree.sh OUTDIR timing    intervals-benchmark.sh day48, others, continuity
#                                                                                      (~8.5 min)
#   scripts/lease/merged-tree.sh OUTDIR rest      intervals-benchmark.sh evidence and report, day34.sh,
#                                                 every other GPU test (ctest -L gpu, corpora left
#                                                 out: part build ran them)             (~6 min)
#
# COPY_TO (the device tool's $OUT) receives each part's logs and tables, its transcripts packed, and
# the evidence the runs wrote under evidence/ (packed as written, to commit unedited).
# Exit status: 0; 1 a step failed; 2 usage.
set -uo pipefail
usage="usage: merged-tree.sh OUTDIR build|timing|rest"
[ -n "${1:-}" ] || { echo "$usage" >&2; exit 2; }
out=$1
[ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
part=$2
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
copy_to=${COPY_TO:-$out/copy}
mkdir -p "$copy_to"
status=0
step() { echo "== [$(date -u +%H:%M:%S)] $*"; }

. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one

case "$part" in
  build)
    step "build dev and the previous code's labrun, side by side"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
    begin=$(date +%s)
    { cmake --preset dev && cmake --build --preset dev -j 12; } >"$out/build.log" 2>&1 &
    dev=$!
    scripts/lease/intervals-benchmark.sh "$out/intervals" build-old >"$out/build-old.txt" 2>&1 &
    old=$!
    wait "$dev" || { tail -40 "$out/build.log"; cp "$out/build.log" "$copy_to/"; echo "BUILD FAILED"; exit 1; }
    echo "dev build: $(( $(date +%s) - begin )) s"
    wait "$old" || { tail -20 "$out/build-old.txt"; status=1; }
    echo "both builds: $(( $(date +%s) - begin )) s"
    cp "$out/build-old.txt" "$copy_to/" 2>/dev/null
    build/dev/labrun --version
    step "grading-classes.sh"
    scripts/lease/grading-classes.sh "$out/grading" || status=1
    tar -czf "$copy_to/grading.tar.gz" -C "$out" grading
    ;;
  timing)
    for stage in day48 others continuity; do
      step "intervals-benchmark.sh $stage"
      COPY_TO=$copy_to/intervals scripts/lease/intervals-benchmark.sh "$out/intervals" "$stage" || status=1
    done
    ;;
  rest)
    marker=$out/rest-began
    touch "$marker"
    step "intervals-benchmark.sh evidence, report"
    COPY_TO=$copy_to/intervals scripts/lease/intervals-benchmark.sh "$out/intervals" evidence || status=1
    COPY_TO=$copy_to/intervals scripts/lease/intervals-benchmark.sh "$out/intervals" report || status=1
    step "day34.sh"
    scripts/lease/day34.sh "$out/day34" || status=1
    step "every other GPU test"
    timeout 330 ctest --preset dev -L gpu -E 'corpus|counted inputs on the device|skeleton a student' \
      --output-on-failure >"$out/ctest-gpu.log" 2>&1 || status=1
    grep -E "tests passed|\(Failed\)|\(Timeout\)|\*\*\*Failed|Skipped|Not Run" "$out/ctest-gpu.log" | tail -20
    cp "$out/ctest-gpu.log" "$copy_to/"
    tar -czf "$copy_to/day34.tar.gz" -C "$out" day34
    find evidence -type f -newer "$marker" | sort >"$out/new-evidence.txt"
    cat "$out/new-evidence.txt"
    tar -czf "$copy_to/evidence.tar.gz" -T "$out/new-evidence.txt"
    ;;
  *)
    echo "unknown part '$part' ($usage)" >&2
    exit 2
    ;;
esac
exit "$status"
