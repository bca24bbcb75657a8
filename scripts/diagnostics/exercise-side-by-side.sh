#!/usr/bin/env bash
# On a GPU machine, after `cmake --preset dev` and its build: issue 23's checks of the graded
# exercises, in one device session (docs/grading.md).
#   1. Day 48 unchanged: the public day-48 corpus (labs/day48-fusion/grading/corpus) graded by this tree's labrun
#      and by the pre-refactor labrun (OLD_LABRUN, built from main; it finds its own grading child
#      beside it), and every report.json compared, ignoring only timing fields.
#   2. The sum-of-squares exercise: its corpus (labs/fusion-verdicts/grading/corpus) graded, and every
#      report compared with the folder's expected.json (mistakes, first check, correctness, score).
#   3. A batch mixing both exercises: each folder graded by its manifest's exercise, with the verdict
#      it got in its own corpus's batch.
#   4. `labrun run fusion-verdicts --submission` on the corpus's correct pair (--smoke).
# Writes every batch, comparison and log under OUTDIR, prints a short summary, and exits 1 when
# anything did not match. Takes about 5 minutes on an H200.
#
#   scripts/diagnostics/exercise-side-by-side.sh OUTDIR OLD_LABRUN [NEW_LABRUN]
#   scripts/diagnostics/exercise-side-by-side.sh /tmp/ex23 /tmp/main-build/labrun
set -uo pipefail
out=${1:?usage: exercise-side-by-side.sh OUTDIR OLD_LABRUN [NEW_LABRUN]}
old=${2:?usage: exercise-side-by-side.sh OUTDIR OLD_LABRUN [NEW_LABRUN]}
new=${3:-build/dev/labrun}
for program in "$old" "$new"; do
  [ -x "$program" ] || { echo "no labrun program at $program" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Each labrun finds the grading child installed beside it (its own version's).
unset LABRUN_GRADE_CHILD
day48_corpus=labs/day48-fusion/grading/corpus
sum_corpus=labs/fusion-verdicts/grading/corpus

batch() {  # LABRUN CORPUS NAME: grades the corpus into OUTDIR/NAME, timing the batch
  local start end
  start=$(date +%s.%N)
  "$1" grade --batch "$2" --out "$out/$3" --time-limit 60 --force >"$out/$3.log" 2>&1
  local status=$?
  end=$(date +%s.%N)
  echo "$3 $status $(python3 -c "print(f'{$end - $start:.1f}')")" >>"$out/batches.txt"
  return $status
}

: >"$out/batches.txt"
batch "$new" "$day48_corpus" day48-new
batch "$old" "$day48_corpus" day48-old
batch "$new" "$sum_corpus" sum-of-squares
mkdir -p "$out/mixed-input"
for name in correct cached-answer tail-missed include-lone-cr; do
  cp -r "$day48_corpus/$name" "$out/mixed-input/day48-$name"
done
for name in correct race-on-partials finish-reads-x include-lone-cr timing-detector; do
  cp -r "$sum_corpus/$name" "$out/mixed-input/sum-$name"
done
batch "$new" "$out/mixed-input" mixed
timeout 300 "$new" run fusion-verdicts --submission "$sum_corpus/correct" --smoke --quiet \
  --out "$out/run-submission" >"$out/run-submission.log" 2>&1
echo "run-submission $? -" >>"$out/batches.txt"

python3 - "$out" "$day48_corpus" "$sum_corpus" <<'PY' | tee "$out/summary.txt"
import json, os, re, sys
out, day48_corpus, sum_corpus = sys.argv[1:4]
failures = 0

# Timing fields: the wall seconds of the grading and its steps, the child's and the tools' wall
# times, the timed calls' samples and medians (the submission's and the lab's), the figures (all
# measured times and bandwidths), and the durations and ratios written into a sentence.
TIMING_KEYS = {"execution_time", "phase_seconds", "seconds", "wall_seconds", "figures", "pair_ms",
               "pair_samples_ms", "medians", "samples_ms", "lab_times", "run_seconds", "elapsed_seconds"}
DURATION = re.compile(r"\d+(\.\d+)?(e[-+]?\d+)?\s*(ms|s|GB/s|x|%)(?![a-zA-Z])")

def timing_key(key):
    return key in TIMING_KEYS or key.endswith("_ms") or key.endswith("_seconds")

def differences(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if timing_key(key):
                continue
            if key not in a or key not in b:
                yield f"{path}/{key}: only in {'new' if key not in a else 'old'}"
            else:
                yield from differences(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} items, old {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}/{i}")
    elif isinstance(a, str) and isinstance(b, str):
        if DURATION.sub("<t>", a) != DURATION.sub("<t>", b):
            yield f"{path}: new {a[:160]!r}, old {b[:160]!r}"
    elif a != b:
        yield f"{path}: new {a!r}, old {b!r}"

def report(batch, name):
    path = os.path.join(out, batch, "submissions", name, "report.json")
    return json.load(open(path)) if os.path.exists(path) else None

def verdict(r):
    return (tuple(sorted(m["id"] for m in r["mistakes"])), r["score"], r["tests"][0]["status"])

def against_expected(batch, corpus, folder_of=lambda name: name):
    bad = []
    for name in sorted(os.listdir(corpus)):
        r = report(batch, folder_of(name))
        expected = json.load(open(os.path.join(corpus, name, "expected.json")))
        if r is None:
            bad.append(f"{name}: no report")
            continue
        named = sorted(m["id"] for m in r["mistakes"])
        passes = len(r["tests"]) > 2 and all(t["status"] == "passed" for t in r["tests"][1:3])
        problems = []
        if named != sorted(expected["mistakes"]):
            problems.append(f"mistakes {named}, expected {sorted(expected['mistakes'])}")
        if (r["tests"][0]["status"] == "passed") != expected["builds"]:
            problems.append(f"builds {r['tests'][0]['status']}, expected {expected['builds']}")
        if passes != expected["passes_correctness"]:
            problems.append(f"correct at both sizes {passes}, expected {expected['passes_correctness']}")
        if r.get("max_score") == 100 and r["score"] != expected["score"]:
            problems.append(f"score {r['score']}, expected {expected['score']}")
        if problems:
            bad.append(f"{name}: " + "; ".join(problems))
    return bad

def per_grade_seconds(batch):
    times = []
    for name in os.listdir(os.path.join(out, batch, "submissions")):
        r = report(batch, name)
        if r is not None:
            times.append(r["execution_time"])
    times.sort()
    return times

print("== batches (name, exit status, wall seconds)")
for line in open(os.path.join(out, "batches.txt")).read().splitlines():
    print(line)
    if line.split()[1] != "0":
        failures += 1
        print(f"MISMATCH {line.split()[0]} exited with status {line.split()[1]} (its log is beside it)")

print("\n== 1. day 48: this tree's reports against the pre-refactor grader's, timing fields ignored")
same = 0
names = sorted(os.listdir(day48_corpus))
for name in names:
    a, b = report("day48-new", name), report("day48-old", name)
    if a is None or b is None:
        print(f"MISMATCH {name}: report missing ({'new' if a is None else 'old'})")
        failures += 1
        continue
    diff = list(differences(a, b))
    if verdict(a) != verdict(b):
        diff.insert(0, f"verdict: new {verdict(a)}, old {verdict(b)}")
    if diff:
        failures += 1
        print(f"MISMATCH {name}: {len(diff)} differences")
        for line in diff[:8]:
            print("   ", line)
    else:
        same += 1
print(f"{same} of {len(names)} reports identical apart from timing fields")
for line in against_expected("day48-new", day48_corpus):
    print("  (expected.json, new grader)", line)
for line in against_expected("day48-old", day48_corpus):
    print("  (expected.json, old grader)", line)

print("\n== 2. sum-of-squares: every report against its expected.json")
bad = against_expected("sum-of-squares", sum_corpus)
for line in bad:
    print("MISMATCH", line)
failures += len(bad)
sums = os.listdir(sum_corpus)
print(f"{len(sums) - len(bad)} of {len(sums)} submissions got their expected verdict")

print("\n== 3. a batch mixing both exercises")
mixed_bad = 0
for name in sorted(os.listdir(os.path.join(out, "mixed-input"))):
    a = report("mixed", name)
    lab, folder = ("day48-fusion", name[len("day48-"):]) if name.startswith("day48-") else ("fusion-verdicts", name[len("sum-"):])
    b = report("day48-new" if lab == "day48-fusion" else "sum-of-squares", folder)
    if a is None or b is None or a["lab"] != lab or verdict(a) != verdict(b):
        mixed_bad += 1
        print(f"MISMATCH {name}: {a and (a['lab'], verdict(a))} against its own batch's {b and verdict(b)}")
failures += mixed_bad
print(f"{len(os.listdir(os.path.join(out, 'mixed-input'))) - mixed_bad} folders graded as their own exercise, verdicts as in their own batch")

print("\n== speed: one grade's execution_time (s): min / median / max")
for batch in ("day48-new", "day48-old", "sum-of-squares"):
    t = per_grade_seconds(batch)
    if t:
        print(f"{batch:<16} {t[0]:.2f} / {t[len(t) // 2]:.2f} / {t[-1]:.2f} over {len(t)}")

print("\n== 4. run fusion-verdicts --submission (log: run-submission.log)")
log = open(os.path.join(out, "run-submission.log")).read()
print(log.strip().splitlines()[-1] if log.strip() else "(no output)")
print(f"\n{failures} mismatches" if failures else "\nno mismatches")
sys.exit(1 if failures else 0)
PY
status=${PIPESTATUS[0]}
exit "$status"
