#!/usr/bin/env bash
# On the H200, inside the lead's lease, after `cmake --preset dev && cmake --build --preset dev`
# (this script builds nothing): what issue 29's eight classes need a GPU to show.
#
#   1. The GPU corpus tests of both exercises (day 48's labs/day48-fusion/grading/corpus, sum-of-squares'
#      labs/fusion-verdicts/grading/corpus), with every report kept under OUTDIR/grades, and the
#      harness's counted inputs and streams on the device; then each report against its folder's
#      expected.json, so the table names every mismatch.
#   2. One grade, compile included, timed end to end 3 times for each of: day 48's correct pair
#      (memcheck alone), the same pair with one __syncwarp() added (memcheck and synccheck, nothing
#      else different), sum-of-squares' warp-shuffle pair and its CUB pair (memcheck, racecheck and
#      synccheck). Each grade's report.json gives its phases (compiling, child, sanitizing, each
#      sanitizer tool's own wall seconds).
#   3. synccheck's cost: the sanitizing phase and the whole grade, day 48's pair with the __syncwarp
#      against without (the only difference is the synccheck process beside memcheck), and
#      synccheck's own wall seconds wherever it ran.
#
# Logs go to OUTDIR; the table is printed last. It takes about 3 to 4 minutes on the H200 (the two
# corpora, 91 submissions, are most of it) and stops each step at its own time limit, so the whole
# stays under 5 minutes. Bubblewrap: $LABRUN_BWRAP, or bwrap on PATH (scripts/lib/bubblewrap.sh says how
# the lent H200s get one). LABRUN_LEASE_BUILD_DIR names another build folder (default build/dev) to
# try the script where there is no GPU: the GPU tests then skip and the grades say no GPU.
#
#   scripts/lease/grading-classes.sh OUTDIR
set -uo pipefail
out=${1:?usage: scripts/lease/grading-classes.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
build=${LABRUN_LEASE_BUILD_DIR:-build/dev}
labrun=$PWD/$build/labrun
if [ ! -x "$labrun" ]; then
  echo "grading-classes: $labrun is missing: build the dev preset first (cmake --preset dev && cmake --build --preset dev)" >&2
  exit 2
fi
if [ -z "${LABRUN_BWRAP:-}" ] && ! command -v bwrap >/dev/null 2>&1; then
  echo "grading-classes: no bubblewrap (set LABRUN_BWRAP): every grade will be a grader-error" >&2
fi
started=$(date +%s.%N)
elapsed() { awk "BEGIN{printf \"%.0f\", $(date +%s.%N) - $started}"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader \
  >"$out/gpu.txt" 2>&1 || echo "no nvidia-smi" >"$out/gpu.txt"

# ---- 1. the GPU corpus tests, the reports kept ---------------------------------------------------
echo "== [$(elapsed) s] GPU corpus tests (both exercises), reports under $out/grades"
mkdir -p "$out/grades"
tests='^gpu\.(labrun grade --batch gives every submission of every exercise.s corpus its expected verdict|the harness.s counted inputs on the device.*|the skeleton a student starts from compiles and scores 0, for every exercise)$'
if [ "$build" = build/dev ]; then
  ctest_command=(ctest --preset dev)
else
  ctest_command=(ctest --test-dir "$build")
fi
LABRUN_GRADE_OUT="$out/grades" timeout 230 "${ctest_command[@]}" -R "$tests" --output-on-failure \
  >"$out/ctest.log" 2>&1
echo "ctest exit status $?" >>"$out/ctest.log"
grep -E "tests passed|Passed|Failed|Skipped|Not Run|exit status" "$out/ctest.log" | tail -8

# ---- 2. one grade end to end, 3 times each ------------------------------------------------------
echo "== [$(elapsed) s] one grade end to end, compile included, 3 times each"
work="$out/work"
rm -rf "$work"
mkdir -p "$work/day48-syncwarp"
# Day 48's correct pair with one __syncwarp() at the end of its second kernel: a warp-synchronous
# instruction every thread reaches, so synccheck runs (and finds nothing) and nothing else changes.
sed 's|^    y\[i\] = day48::clamp_range(day48::add_residual(intermediate\[i\], residual\[i\]));|&\n  }\n  __syncwarp();\n  if (false) {|' \
  labs/day48-fusion/grading/corpus/correct/halfway.cu >"$work/day48-syncwarp/halfway.cu"
sed 's/"student_id": "correct"/"student_id": "correct-syncwarp"/' labs/day48-fusion/grading/corpus/correct/manifest.json \
  >"$work/day48-syncwarp/manifest.json"
grep -q "__syncwarp" "$work/day48-syncwarp/halfway.cu" || echo "grading-classes: the __syncwarp variant was not made" >&2
subjects=(
  "day48-correct labs/day48-fusion/grading/corpus/correct/halfway.cu"
  "day48-syncwarp $work/day48-syncwarp/halfway.cu"
  "sum-warp-shuffle labs/fusion-verdicts/grading/corpus/correct-warp-shuffle/sum_of_squares.cu"
  "sum-cub labs/fusion-verdicts/grading/corpus/correct-cub-block-reduce/sum_of_squares.cu"
)
mkdir -p "$out/timing"
: >"$out/timing/walls.txt"
for rep in 1 2 3; do
  for subject in "${subjects[@]}"; do
    read -r name source <<<"$subject"
    folder="$out/timing/$name-$rep"
    begin=$(date +%s.%N)
    timeout 60 "$labrun" grade "$source" --out "$folder" --force --format json >"$folder.stdout" 2>"$folder.log"
    status=$?
    wall=$(awk "BEGIN{printf \"%.3f\", $(date +%s.%N) - $begin}")
    echo "$name $rep $status $wall" >>"$out/timing/walls.txt"
  done
done
echo "done: $(wc -l <"$out/timing/walls.txt") grades"

# ---- 3. the table ------------------------------------------------------------------------------
echo "== [$(elapsed) s] summary"
python3 - "$out" <<'EOF' | tee "$out/summary.txt"
import json, os, statistics, sys
out = sys.argv[1]
root = os.getcwd()

def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

print("\n-- the corpora: each report against its expected.json (score where compute-sanitizer ran)")
for label, corpus, leaf in (("day 48", "labs/day48-fusion/grading/corpus", "halfway-pair-corpus"),
                            ("sum-of-squares", "labs/fusion-verdicts/grading/corpus", "sum-of-squares-corpus")):
    folders = sorted(os.listdir(os.path.join(root, corpus)))
    matched, missing, mismatches = 0, 0, []
    for name in folders:
        expected = load(os.path.join(root, corpus, name, "expected.json"))
        report = load(os.path.join(out, "grades", leaf, "submissions", name, "report.json"))
        if report is None:
            missing += 1
            continue
        got = sorted(m["id"] for m in report["mistakes"])
        want = sorted(expected["mistakes"])
        score_ok = report.get("max_score") != 100 or report["score"] == expected["score"]
        if got == want and score_ok:
            matched += 1
        else:
            mismatches.append(f"   {name}: mistakes {got}, expected {want}; score {report['score']}, expected {expected['score']}")
    print(f"{label:15s} {matched} of {len(folders)} as expected" + (f", {missing} not graded (no report)" if missing else ""))
    for line in mismatches:
        print(line)

print("\n-- one grade end to end (s): wall min / median / max over 3; medians of its phases")
walls = {}
for line in open(os.path.join(out, "timing", "walls.txt")):
    name, rep, status, wall = line.split()
    walls.setdefault(name, []).append((int(rep), int(status), float(wall)))
header = f"{'grade':18s} {'wall':>22s} {'compile':>8s} {'child':>7s} {'sanitize':>9s} {'memcheck':>9s} {'racecheck':>10s} {'synccheck':>10s}  score"
print(header)
medians = {}
for name, runs in walls.items():
    phases = {}
    scores = set()
    for rep, status, wall in runs:
        report = load(os.path.join(out, "timing", f"{name}-{rep}", "report.json"))
        if report is None:
            continue
        scores.add(f"{report['score']:.0f}/{report['max_score']:.0f}" + ("" if report.get("grader_problem", "") == "" else " (not graded)"))
        for phase, seconds in (report.get("phase_seconds") or {}).items():
            phases.setdefault(phase, []).append(seconds)
    w = sorted(r[2] for r in runs)
    med = lambda key: statistics.median(phases[key]) if key in phases else float("nan")
    medians[name] = {"wall": statistics.median(w), "sanitizing": med("sanitizing"),
                     "synccheck": med("sanitizing: synccheck")}
    print(f"{name:18s} {w[0]:6.2f} / {statistics.median(w):6.2f} / {w[-1]:6.2f} {med('compiling'):8.2f} "
          f"{med('child'):7.2f} {med('sanitizing'):9.2f} {med('sanitizing: memcheck'):9.2f} "
          f"{med('sanitizing: racecheck'):10.2f} {med('sanitizing: synccheck'):10.2f}  {', '.join(sorted(scores))}")

print("\n-- synccheck's cost")
a, b = medians.get("day48-correct"), medians.get("day48-syncwarp")
if a and b:
    print(f"day 48's pair with one __syncwarp against without: sanitizing {b['sanitizing'] - a['sanitizing']:+.2f} s, "
          f"whole grade {b['wall'] - a['wall']:+.2f} s (medians)")
for name in ("day48-syncwarp", "sum-warp-shuffle", "sum-cub"):
    if name in medians:
        print(f"synccheck's own run beside the others, {name}: {medians[name]['synccheck']:.2f} s (median)")
budget = [n for n, m in medians.items() if m["wall"] > 2.5]
print("\nthe 2.5 s budget for one grade, compile included: " +
      ("every median within it" if not budget else "over it: " + ", ".join(budget)))
EOF
echo "grading-classes: $(elapsed) s in all; logs in $out"
