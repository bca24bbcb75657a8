#!/usr/bin/env bash
# compute-sanitizer's replica of a timed call (docs/grading.md, "What is left"), told apart on the
# device: after `scripts/lease/session-lease.sh OUTDIR build` has built this tree (build/dev) and the
# previous code's labrun (OLD_BUILD, default build/old-dev, from build/labrun-pre-session.patch packed
# at the commit before the replica), it grades, with each labrun, single `labrun grade` runs of:
#   - the corpus's barrier-in-divergent-branch (a divergent barrier everywhere: 35 with both);
#   - divergent-barrier-at-powers-of-two and divergent-barrier-beside-guards (the same barrier taken
#     only at the timed calls' size, or only in a graded call's buffers: 100 with the previous code,
#     which never ran the sanitizer there, and 35 with the replica);
#   - correct and correct-shared-tile (100 with both), and fusion-verdicts' correct, whose kernels
#     use shared memory per element (racecheck's dearest case), for what the replica costs: each
#     report's seconds of sanitizing per tool.
# Each grade has at most 150 s. The table goes to OUTDIR/told-apart.md and is printed last.
#
#   scripts/lease/sanitizer-replica.sh OUTDIR
#
# Exit status: 0 every grade gave the score the list above expects of it; 1 otherwise; 2 usage.
set -uo pipefail
out=${1:?usage: scripts/lease/sanitizer-replica.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
export PATH=$PATH:/usr/local/cuda/bin
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
. scripts/lib/lease-steps.sh  # score_of
old_build=${OLD_BUILD:-build/old-dev}
new=build/dev/labrun
old=$old_build/labrun
for program in "$new" "$old"; do
  [ -x "$program" ] || { echo "sanitizer-replica: $program is missing: run session-lease.sh OUTDIR build first" >&2; exit 2; }
done
status=0

# Each tool's seconds of sanitizing in a report, "memcheck 0.6 · racecheck 1.2 · synccheck 0.5".
sanitizing_of() {
  python3 - "$1" <<'PY'
import json, sys
try:
    phases = json.load(open(sys.argv[1])).get("phase_seconds", {})
    print(" · ".join(f"{k.split(': ')[1]} {v:.1f}" for k, v in phases.items() if k.startswith("sanitizing: ")) or "-")
except Exception as error:
    print("no report", type(error).__name__)
PY
}

# lab/submission, then the score each labrun must give (previous, new).
cases=(
  "day48-fusion/barrier-in-divergent-branch 35 35"
  "day48-fusion/divergent-barrier-at-powers-of-two 100 35"
  "day48-fusion/divergent-barrier-beside-guards 100 35"
  "day48-fusion/correct 100 100"
  "day48-fusion/correct-shared-tile 100 100"
  "fusion-verdicts/correct 100 100"
)
{
  echo "| submission | previous code: score, mistakes | sanitizing s | this tree: score, mistakes | sanitizing s |"
  echo "| --- | --- | --- | --- | --- |"
} >"$out/told-apart.md"
for entry in "${cases[@]}"; do
  read -r path want_old want_new <<<"$entry"
  lab=${path%%/*}
  name=${path#*/}
  folder=labs/$lab/grading/corpus/$name
  source=$(find "$folder" -maxdepth 1 -name '*.cu' | head -1)
  row="| $path"
  for side in old new; do
    program=$old; want=$want_old
    [ "$side" = new ] && { program=$new; want=$want_new; }
    grade=$out/told-apart/$side-$lab-$name
    # The previous code has no copy of the new corpus cases: they are graded from this tree's folder.
    timeout 150 "$program" grade "$source" --out "$grade" --force >"$grade.log" 2>&1
    score=$(score_of "$grade/report.json")
    case "$score" in
      "$want "* | "$want.0 "*) ;;
      *) status=1; score="$score (expected $want)" ;;
    esac
    row+=" | $score | $(sanitizing_of "$grade/report.json")"
  done
  echo "$row |" >>"$out/told-apart.md"
done

echo
eval "$(scripts/lease/tree-commit.sh env)"
echo "tree ${LABRUN_GIT_COMMIT:-unknown} (dirty ${LABRUN_GIT_DIRTY:-unknown}); previous code $(scripts/lease/previous-code.sh commit 2>/dev/null || echo unknown)"
cat "$out/told-apart.md"
exit "$status"
