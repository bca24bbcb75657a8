#!/usr/bin/env bash
# On a GPU machine, from this tree: a change to cold timing, before and after, in one lease (the
# developers' guide asks this of every change to timing code). The previous code is carried as a
# patch (scripts/lease/prepare-carry.sh PREVIOUS_COMMIT, at the commit that travels); where either is
# not built yet, scripts/lease/session-lease.sh's build part builds this tree (dev preset) and the
# previous code's labrun.
# Then, turn about (scripts/diagnostics/timing-side-by-side.sh, which also compares every case at
# n >= 2^24, limit 1%):
#   - DAY48_RUNS runs each of day 48 in cold timing, read as issue 31's benchmark reads them
#     (scripts/diagnostics/verdict-stability.py per side, scripts/diagnostics/compare-stability.py
#     claim by claim) and for alternating samples (scripts/diagnostics/alternation-gaps.py);
#   - VERDICTS_RUNS runs each of fusion-verdicts in cold timing, for its cases at n >= 2^24 (0: none).
#
#   scripts/diagnostics/cold-before-after.sh OUTDIR [DAY48_RUNS [VERDICTS_RUNS]]   (default 10 and 6)
#
# About 2 min to build (the build part took 118 s on the H200 on 2026-12-06), then 8 s a day-48 run and
# 9 s a fusion-verdicts run (H100, 2026-12-06).
# Writes under OUTDIR: build.log, build-old.log, day48/{old,new}-N/ and verdicts/{old,new}-N/
# (transcripts), side-day48.txt, side-verdicts.txt, before.md/.json, after.md/.json, compare.md,
# gaps.txt, and table.txt (what is printed last). COPY_TO (the device tool's $OUT), when set, receives
# before-after.tar.gz: all of it, plots left out.
# Environment: OLD_SRC (default build/labrun-pre-session: unpacked from build/labrun-pre-session.patch
# where absent); OLD_BUILD and NEW_BUILD (default build/old-dev and build/dev, where the build puts
# them): folders holding a labrun already built, which are then used as they are.
# Exit status: 0; 1 a build, a run or a side by side failed (the later steps still run); 2 usage.
set -uo pipefail
usage="usage: cold-before-after.sh OUTDIR [DAY48_RUNS [VERDICTS_RUNS]]"
case "${1:-}" in
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") echo "$usage" >&2; exit 2 ;;
esac
out=$1
day48_runs=${2:-10}
verdicts_runs=${3:-6}
[[ "$day48_runs" =~ ^[0-9]+$ && "$verdicts_runs" =~ ^[0-9]+$ ]] || { echo "$usage" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
old_build=${OLD_BUILD:-$PWD/build/old-dev}
new_build=${NEW_BUILD:-$PWD/build/dev}
status=0
diagnostics=$PWD/scripts/diagnostics
begin=$(date +%s)
say() { echo "== [$(date -u +%H:%M:%S)] $*"; }

say "build (where not built)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv 2>/dev/null || true
# The lease's own build step: this tree's dev preset and the previous code's labrun, side by side,
# unpacked from the carried patch where OLD_SRC is absent (build.log, build-old.log).
if [ ! -x "$new_build/labrun" ] || [ ! -x "$old_build/labrun" ]; then
  scripts/lease/session-lease.sh "$out" build || { echo "BUILD FAILED ($out/build.log, $out/build-old.log)" >&2; exit 1; }
fi
if [ ! -x "$new_build/labrun" ] || [ ! -x "$old_build/labrun" ]; then
  echo "no labrun in $new_build or $old_build (the build writes build/dev and build/old-dev)" >&2
  exit 1
fi
echo "builds: $(($(date +%s) - begin)) s"
"$old_build/labrun" --version | head -1
"$new_build/labrun" --version | head -1

if [ "$day48_runs" -gt 0 ]; then
  say "day 48, cold, turn about, $day48_runs runs each"
  "$diagnostics/timing-side-by-side.sh" "$old_build/labrun" "$new_build/labrun" "$out/day48" "$day48_runs" 0.01 \
    day48-fusion >"$out/side-day48.txt" 2>&1 || status=1
  python3 "$diagnostics/verdict-stability.py" "$out"/day48/old-* --json "$out/before.json" >"$out/before.md" || status=1
  python3 "$diagnostics/verdict-stability.py" "$out"/day48/new-* --json "$out/after.json" >"$out/after.md" || status=1
  python3 "$diagnostics/compare-stability.py" "$out/before.json" "$out/after.json" --names previous,this \
    >"$out/compare.md" || status=1
  python3 "$diagnostics/alternation-gaps.py" "$out/day48" >"$out/gaps.txt" || status=1
fi
if [ "$verdicts_runs" -gt 0 ]; then
  say "fusion-verdicts, cold, turn about, $verdicts_runs runs each"
  "$diagnostics/timing-side-by-side.sh" "$old_build/labrun" "$new_build/labrun" "$out/verdicts" "$verdicts_runs" 0.01 \
    fusion-verdicts >"$out/side-verdicts.txt" 2>&1 || status=1
fi

{
  echo "cold before/after: previous $("$old_build/labrun" --version | head -1); this $("$new_build/labrun" --version | head -1)"
  for side in day48 verdicts; do
    [ -f "$out/side-$side.txt" ] && echo "side by side, $side: $(tail -n 1 "$out/side-$side.txt")"
  done
  if [ -f "$out/compare.md" ]; then
    echo
    cat "$out/compare.md"
    echo
    sed -n '/^| side |/,$p' "$out/gaps.txt"
  fi
  echo
  echo "status $status, $(($(date +%s) - begin)) s"
} | tee "$out/table.txt"
if [ -n "${COPY_TO:-}" ]; then
  mkdir -p "$COPY_TO"
  tar -czf "$COPY_TO/before-after.tar.gz" --exclude='*.svg' --exclude='*.png' -C "$(dirname "$out")" "$(basename "$out")"
fi
exit "$status"
