#!/usr/bin/env bash
# On a GPU machine, after `cmake --preset dev` and its build: issue 24's GPU steps in one go.
# 1. Day 20 (labs/day20-sobel-threshold) run once, timed from process start to its last file
#    (target: within 10 s on an H200), then under `labrun profile` (DRAM bytes and FP32
#    instructions beside the models, where the counters are allowed), and compared with the lesson's
#    transcribed Tesla T4 figures.
# 2. day48-fusion and fusion-verdicts run once each.
# 3. Every transcript the runs wrote drawn again with `labrun plot` (their rooflines among the
#    plots), and `labrun report` checked to reproduce each one's Markdown.
# 4. scripts/diagnostics/timing-side-by-side.sh of OLD_LABRUN (a labrun built from main) against
#    this build, for day48-fusion and for fusion-verdicts.
# What the runs write (evidence/, profiles/) is copied under OUTDIR/evidence and OUTDIR/profiles,
# logs beside them; a short summary is printed. Exits 1 when any step failed.
#
#   scripts/diagnostics/day20-and-rooflines.sh OUTDIR OLD_LABRUN
set -uo pipefail
out=${1:?usage: day20-and-rooflines.sh OUTDIR OLD_LABRUN}
old=${2:?usage: day20-and-rooflines.sh OUTDIR OLD_LABRUN}
mkdir -p "$out"
out=$(cd "$out" && pwd)
old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
cd "$(dirname "$0")/../.."
labrun=./build/dev/labrun
status=0

# Runs `labrun ARGS...` as NAME, timed end to end; copies what it wrote and checks `labrun report`
# and `labrun plot` on each transcript.
run_timed() {
  local name=$1; shift
  local marker; marker=$(mktemp)
  sleep 1
  local begin; begin=$(date +%s.%N)
  "$labrun" "$@" >"$out/$name.stdout.md" 2>"$out/$name.log"
  local code=$?
  echo "$name: labrun $* -> exit $code; $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $begin}") s from start to last file"
  [ "$code" -eq 0 ] || status=1
  grep -E "left out|plots not drawn|no DRAM counts|INCORRECT|error|FAILED" "$out/$name.log" | head -5
  while IFS= read -r f; do
    mkdir -p "$out/$(dirname "$f")"; cp "$f" "$out/$f"
    case "$f" in
      *.trace.json) ;;
      *.json)
        if "$labrun" report "$f" | cmp -s - "${f%.json}.md"; then echo "  report reproduces $f"; else echo "  report DIFFERS for $f"; status=1; fi
        # The run drew its svg plots beside the transcript; `plot` draws them again as png.
        if "$labrun" plot "$f" --format png >>"$out/$name.plot.log" 2>&1; then
          for p in "${f%.json}".*.png; do [ -f "$p" ] && mkdir -p "$out/$(dirname "$p")" && cp "$p" "$out/$p"; done
          echo "  plot drew: $(ls "${f%.json}".*.png 2>/dev/null | xargs -n1 basename | tr '\n' ' ')"
        else
          echo "  plot FAILED for $f (see $name.plot.log)"; status=1
        fi
        grep -A4 "^## Roofline" "${f%.json}.md" | head -6 | sed 's/^/    /'
        ;;
    esac
  done < <(find evidence profiles -type f -newer "$marker" 2>/dev/null | sort)
  rm -f "$marker"
}

echo "== day 20"
run_timed day20 run day20-sobel-threshold
grep -E "^\| (speedup-follows-traffic|launch-cost-is-negligible|fused-and-staged)" "$out/day20.stdout.md" | cut -c1-200
run_timed day20-profile profile day20-sobel-threshold
grep -iE "dram|fp32|ncu" "$out/day20-profile.stdout.md" | head -12
latest=$(ls -t evidence/day20-sobel-threshold/*/*.json 2>/dev/null | grep -v trace | head -1)
if [ -n "$latest" ]; then
  "$labrun" compare evidence/day20-sobel-threshold/tesla-t4-lesson/day20-as-quoted-by-day48.json "$latest" \
    >"$out/day20-compare.md" 2>"$out/day20-compare.log" || echo "compare exit $? (see day20-compare.log)"
  head -30 "$out/day20-compare.md"
fi

echo "== the other labs"
run_timed day48 run day48-fusion
run_timed verdicts run fusion-verdicts

echo "== timing side by side: $old against $labrun"
for lab in day48-fusion fusion-verdicts; do
  scripts/diagnostics/timing-side-by-side.sh "$old" "$labrun" "$out/side-by-side-$lab" 3 0.01 "$lab" \
    >"$out/side-by-side-$lab.txt" 2>&1
  echo "$lab: exit $? (1: a case differs by more than 1%)"; tail -4 "$out/side-by-side-$lab.txt"
done
rm -rf "$out"/side-by-side-*/old-* "$out"/side-by-side-*/new-*

echo "== done: status $status"
exit "$status"
