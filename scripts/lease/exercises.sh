#!/usr/bin/env bash
# On the H200, inside the lead's lease, after `cmake --preset dev && cmake --build --preset dev` of
# this tree and, for the side-by-side, a dev build of the tree before issue 30 (OLD_BUILD, default
# build/old-dev; this script builds nothing): what issue 30's declared exercises need a GPU to show.
#
#   1. The GPU corpus tests of every registered exercise (day 48's half-way pair, sum-of-squares,
#      day 20's sobel-threshold: each corpus found in its lab's folder), with every report kept
#      under OUTDIR/grades/<exercise>-corpus, and each skeleton; then each report against its
#      folder's expected.json.
#   2. Day 48's corpus graded by the OLD labrun (the same folder, flags and default seed as step 1's
#      NEW batch), and every report compared with step 1's, timing fields masked: how many are
#      identical, and the names of those that differ with the first field that does.
#   3. The batch rate, OLD against NEW, on the same honest batch (day 48's full-marks submissions,
#      replicated 3 times as scripts/grading-scale-check.sh does with HONEST=1: 27), each graded
#      twice, in alternation, with --jobs 8: submissions per minute, and NEW over OLD.
#
# Logs go to OUTDIR; a short table is printed last. About 6 to 7 minutes on the H200 (the three
# corpora and day 48's again are most of it); every step stops at its own time limit (330 + 150 +
# 4 x 60 s at most: 12 minutes in the worst case, when every step hangs). Without OLD_BUILD's labrun, steps
# 2 and 3 say so and are skipped. LABRUN_LEASE_BUILD_DIR names another build folder for NEW (default
# build/dev), to try the script where there is no GPU: the GPU tests then skip and grades say so.
#
#   OLD_BUILD=build/old-dev scripts/lease/exercises.sh OUTDIR
#
# Inside a lease that has already graded the corpora (scripts/lease/grading-pace.sh step 3 keeps
# their reports), NEW_GRADES=DIR reuses that folder as step 1's reports instead of grading them again,
# and SKIP_RATE=1 leaves out step 3 (grading-pace.sh measures OLD's and NEW's rates on one batch).
# TABLE_ONLY=1 grades nothing and prints the table again from the reports a run left under OUTDIR
# (on any machine: the comparison needs no GPU).
set -uo pipefail
out=${1:?usage: [OLD_BUILD=DIR] scripts/lease/exercises.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
build=${LABRUN_LEASE_BUILD_DIR:-build/dev}
new=$PWD/$build/labrun
old_build=${OLD_BUILD:-build/old-dev}
old=$(cd "$old_build" 2>/dev/null && pwd)/labrun
if [ -z "${TABLE_ONLY:-}" ] && [ ! -x "$new" ]; then
  echo "exercises: $new is missing: build the dev preset first (cmake --preset dev && cmake --build --preset dev)" >&2
  exit 2
fi
# Each labrun finds the grading child installed beside it (its own version's).
unset LABRUN_GRADE_CHILD
started=$(date +%s.%N)
elapsed() { awk "BEGIN{printf \"%.0f\", $(date +%s.%N) - $started}"; }
[ -n "${TABLE_ONLY:-}" ] || nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt" 2>&1 ||
  echo "no nvidia-smi" >"$out/gpu.txt"

# ---- 1. every registered exercise's corpus and skeleton ------------------------------------------
if [ -n "${TABLE_ONLY:-}" ]; then
  echo "== the table only, from the reports already under $out"
elif [ -n "${NEW_GRADES:-}" ]; then
  echo "== [$(elapsed) s] step 1's reports taken from $NEW_GRADES (graded earlier in this lease)"
  rm -rf "$out/grades" && ln -s "$(cd "$NEW_GRADES" && pwd)" "$out/grades"
else
echo "== [$(elapsed) s] GPU corpus tests of every registered exercise, reports under $out/grades"
mkdir -p "$out/grades"
tests="^gpu\\.(labrun grade --batch gives every submission of every exercise.s corpus its expected verdict|the skeleton a student starts from compiles and scores 0, for every exercise)\$"
if [ "$build" = build/dev ]; then ctest_command=(ctest --preset dev); else ctest_command=(ctest --test-dir "$build"); fi
LABRUN_GRADE_OUT="$out/grades" timeout 330 "${ctest_command[@]}" -R "$tests" --output-on-failure >"$out/ctest.log" 2>&1
echo "ctest exit status $?" >>"$out/ctest.log"
grep -E "tests passed|Passed|Failed|Skipped|Not Run|exit status" "$out/ctest.log" | tail -6
fi

# ---- 2. day 48's reports, OLD against NEW, timing fields masked ----------------------------------
corpus=labs/day48-fusion/grading/corpus
if [ -n "${TABLE_ONLY:-}" ]; then
  :
elif [ -x "$old" ]; then
  # The NEW side is step 1's batch (the same flags, the exercise's default seed).
  echo "== [$(elapsed) s] day 48's corpus graded by OLD ($old), against step 1's NEW reports"
  timeout 150 "$old" grade --batch "$corpus" --out "$out/day48-old" --time-limit 60 --force \
    >"$out/day48-old.md" 2>"$out/day48-old.log"
  echo "old: exit $?" >"$out/day48-side-by-side.txt"
else
  echo "== [$(elapsed) s] no OLD labrun at $old_build: steps 2 and 3 skipped" | tee "$out/day48-side-by-side.txt"
fi

# ---- 3. the batch rate, OLD against NEW, on one honest batch -------------------------------------
if [ -x "$old" ] && [ -z "${SKIP_RATE:-}" ] && [ -z "${TABLE_ONLY:-}" ]; then
  echo "== [$(elapsed) s] batch rate, OLD and NEW alternately, an honest batch, --jobs 8"
  honest="$out/honest"
  rm -rf "$honest"; mkdir -p "$honest"
  for r in 1 2 3; do
    for d in "$corpus"/*/; do
      grep -q '"score": 100' "$d/expected.json" && cp -r "$d" "$honest/r$r-$(basename "$d")"
    done
  done
  for round in 1 2; do
    for side in old new; do
      binary=$old; [ $side = new ] && binary=$new
      start=$(date +%s.%N)
      timeout 60 "$binary" grade --batch "$honest" --out "$out/rate-$side-$round" --jobs 8 --secret-seed --force \
        >/dev/null 2>"$out/rate-$side-$round.log"
      status=$?
      awk -v n="$(ls "$honest" | wc -l)" -v s="$start" -v e="$(date +%s.%N)" -v side=$side -v st=$status \
        'BEGIN { printf "%s %d %.2f %d\n", side, n, e - s, st }' >>"$out/rates.txt"
    done
  done
fi

# ---- the table ----------------------------------------------------------------------------------
python3 - "$out" "$PWD" <<'PY'
import json, os, re, sys
out, root = sys.argv[1], sys.argv[2]
print(f"\n{'what':<58} {'result'}")
# 1. each exercise's reports against its corpus's expected.json
grades = os.path.join(out, "grades")
for leaf in sorted(os.listdir(grades)) if os.path.isdir(grades) else []:
    lab = {"halfway-pair-corpus": "day48-fusion", "sum-of-squares-corpus": "fusion-verdicts",
           "sobel-threshold-corpus": "day20-sobel-threshold"}.get(leaf)
    base = os.path.join(grades, leaf, "submissions")
    if lab is None or not os.path.isdir(base):
        continue
    corpus = os.path.join(root, "labs", lab, "grading", "corpus")
    right, wrong, full = 0, [], 0
    for name in sorted(os.listdir(corpus)):
        try:
            report = json.load(open(os.path.join(base, name, "report.json")))
        except OSError:
            wrong.append(name + " (no report)"); continue
        expected = json.load(open(os.path.join(corpus, name, "expected.json")))
        got = (report["score"], sorted(m["id"] for m in report["mistakes"]))
        if got == (expected["score"], sorted(expected["mistakes"])):
            right += 1
            full += expected["score"] == 100
        else:
            wrong.append(f"{name} {got} not {(expected['score'], sorted(expected['mistakes']))}")
    print(f"{leaf + ': expected verdicts':<58} {right} of {right + len(wrong)} ({full} correct at 100)")
    for w in wrong[:8]:
        print(f"{'  differs':<58} {w}")
# 2. day 48, OLD against NEW, timing fields masked (as scripts/diagnostics/exercise-side-by-side.sh:
# the wall seconds, the timed calls' samples and medians, the figures, durations in sentences).
TIMING_KEYS = {"execution_time", "phase_seconds", "seconds", "wall_seconds", "figures", "pair_ms",
               "pair_samples_ms", "medians", "samples_ms", "lab_times", "run_seconds", "elapsed_seconds"}
DURATION = re.compile(r"\d+(\.\d+)?(e[-+]?\d+)?\s*(ms|s|GB/s|x|%)(?![a-zA-Z])")
# How compute-sanitizer's run was shared is the batch's scheduling, not the submission's: masked.
SCREENING = re.compile(r" \((screened [^)]*)\)")
def comparable(text):
    # A submission's path names the corpus folder from the repository root, whichever way it was given.
    return SCREENING.sub("", DURATION.sub("<t>", text.replace(root.rstrip("/") + "/", "")))
def first_difference(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key in TIMING_KEYS or key.endswith("_ms") or key.endswith("_seconds"):
                continue
            if key not in a or key not in b:
                return f"{path}/{key}: only in {'old' if key in a else 'new'}"
            d = first_difference(a[key], b[key], f"{path}/{key}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items old, {len(b)} new"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}/{i}")
            if d:
                return d
        return None
    if isinstance(a, str) and isinstance(b, str):
        return None if comparable(a) == comparable(b) else f"{path}: old {a[:100]!r}, new {b[:100]!r}"
    return None if a == b else f"{path}: old {a!r}, new {b!r}"
old_base, new_base = os.path.join(out, "day48-old", "submissions"), os.path.join(out, "grades", "halfway-pair-corpus", "submissions")
if os.path.isdir(old_base) and os.path.isdir(new_base):
    same, differ, verdicts_same = 0, [], 0
    for name in sorted(os.listdir(old_base)):
        try:
            a = json.load(open(os.path.join(old_base, name, "report.json")))
            b = json.load(open(os.path.join(new_base, name, "report.json")))
        except OSError:
            differ.append(f"{name}: a report is missing"); continue
        verdict = lambda r: (r.get("score"), sorted(m["id"] for m in r.get("mistakes", [])))
        verdicts_same += verdict(a) == verdict(b)
        d = first_difference(a, b)
        if d is None:
            same += 1
        else:
            differ.append(f"{name}: {d}")
    print(f"{'day 48 reports OLD vs NEW, score and mistake ids the same':<58} {verdicts_same} of {same + len(differ)}")
    print(f"{'day 48 reports OLD vs NEW, timing masked: identical':<58} {same}; differing {len(differ)}")
    for d in differ[:12]:
        print(f"{'  differs':<58} {d}")
# 3. rates
rates = os.path.join(out, "rates.txt")
if os.path.exists(rates):
    per, statuses = {"old": [], "new": []}, {"old": [], "new": []}
    for line in open(rates):
        side, n, seconds, status = line.split()
        per[side].append(int(n) / float(seconds) * 60)
        statuses[side].append(status)
    for side in ("old", "new"):
        print(f"{'batch rate ' + side.upper() + ' (per minute, each round; exit)':<58} " +
              ", ".join(f"{r:.1f} ({s})" for r, s in zip(per[side], statuses[side])))
    if per["old"] and per["new"] and min(per["old"]) > 0:
        ratio = (sum(per["new"]) / len(per["new"])) / (sum(per["old"]) / len(per["old"]))
        print(f"{'batch rate NEW / OLD (target within 10%)':<58} {ratio:.3f}")
PY
echo "done in $(elapsed) s; logs under $out"
