#!/usr/bin/env bash
# scripts/lease/intervals-lease.sh's plan, with no GPU (LEASE_CARD names the card): on an H200 part 1
# writes the evidence and part 3 runs every GPU test; on another card parts 1 to 3 write no evidence
# and part 4 writes it (into the card's own folder), every stage the H200 plan runs still run; part 4
# measures today's cost where the baseline's patch is carried, and only there; the lesson-size contexts experiment runs
# only when asked (LEASE_EXPERIMENT=1), and so does the crossover diagnostic (LEASE_VERDICTS_MODES=1);
# LEASE_GPU_TESTS=0 leaves the GPU tests out and LEASE_REQUIRE_H200=1 stops on another card with exit
# 3; part evidence builds labrun alone and writes the evidence, on either card; parts 2 and 3 build
# first on a machine without part 1's builds, and only there; every part's step limits fit the device
# command's 600 s; a part whose time is spent runs nothing, fails, and still prints its table; bad
# arguments are usage errors.
# usage: intervals_lease_test.sh SCRIPTS_DIR
set -euo pipefail
source_script=${1:?usage: intervals_lease_test.sh SCRIPTS_DIR}/lease/intervals-lease.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# The script plans from the tree it sits in (its builds there or not), so it runs from copies: one in a
# tree with part 1's builds (stand-ins: a dry run executes nothing), one in a bare tree.
tree() { # tree ROOT: a copy of the script under ROOT, its path printed
  mkdir -p "$1/scripts/lease" && cp "$source_script" "$1/scripts/lease/" && echo "$1/scripts/lease/intervals-lease.sh"
}
script=$(tree "$scratch/built")
bare_script=$(tree "$scratch/bare")
mkdir -p "$scratch/built/build/dev" "$scratch/built/build/old-dev"
for labrun in "$scratch/built/build/dev/labrun" "$scratch/built/build/old-dev/labrun"; do
  printf '#!/bin/sh\nexit 1\n' >"$labrun" && chmod +x "$labrun"
done
plan() { # plan CARD: the three parts' dry runs, one line a step
  local part
  for part in 1 2 3; do LEASE_CARD=$1 bash "$script" "$scratch/out" "$part" --dry-run; done
}
plan "NVIDIA H200" >"$scratch/h200"
plan "NVIDIA H100 80GB HBM3" >"$scratch/h100"
[ ! -e "$scratch/out" ] || fail "a dry run made its output folder"
grep -q 'intervals-benchmark.sh .* evidence' "$scratch/h200" || fail "the H200 plan writes no evidence"
grep -q 'all-gpu-tests' "$scratch/h200" || fail "the H200 plan runs no GPU test"
grep -q 'evidence' <(grep 'would run' "$scratch/h100") && fail "another card's parts 1 to 3 write evidence"
# Part 4: another card's evidence (into its own folder: the evidence stage's), and the baseline only
# where its patch is carried; on the H200, whose evidence is part 1's, nothing without a baseline.
LEASE_CARD="NVIDIA H100 80GB HBM3" bash "$script" "$scratch/out" 4 --dry-run >"$scratch/plan"
grep -qw 'evidence' <(grep 'would run' "$scratch/plan") || fail "another card's part 4 writes no evidence"
grep -qw 'baseline' <(grep 'would run' "$scratch/plan") && fail "part 4 plans a baseline without its patch"
LEASE_EVIDENCE=0 LEASE_CARD="NVIDIA H100 80GB HBM3" bash "$script" "$scratch/out" 4 --dry-run >"$scratch/plan"
grep -q 'would run' "$scratch/plan" && fail "LEASE_EVIDENCE=0 without a baseline: part 4 still runs something"
LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" 4 --dry-run >"$scratch/plan"
grep -q 'would run' "$scratch/plan" && fail "the H200's part 4 without a baseline runs something"
touch "$scratch/built/build/labrun-baseline.patch"
for card in "NVIDIA H200" "NVIDIA H100 80GB HBM3"; do
  LEASE_CARD=$card bash "$script" "$scratch/out" 4 --dry-run >"$scratch/plan"
  grep -q 'would run.* baseline' "$scratch/plan" || fail "part 4 on $card plans no baseline with its patch carried"
done
grep -q 'would run.* evidence' "$scratch/plan" || fail "another card's part 4 with a baseline writes no evidence"
LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" 4 --dry-run >"$scratch/plan"
grep -q 'evidence' <(grep 'would run' "$scratch/plan") && fail "the H200's part 4 writes its evidence again"
rm "$scratch/built/build/labrun-baseline.patch"
for stage in day48 others continuity-hot continuity report; do
  grep -qw -- "$stage" <(grep 'would run' "$scratch/h100") || fail "another card's plan leaves out $stage"
  grep -qw -- "$stage" <(grep 'would run' "$scratch/h200") || fail "the H200 plan leaves out $stage"
done
grep -q 'all-gpu-tests' "$scratch/h100" || fail "another card's plan runs no GPU test"
grep -q 'day48-lesson-contexts' "$scratch/h200" && fail "the experiment runs without LEASE_EXPERIMENT=1"
grep -q 'verdicts-modes' "$scratch/h200" && fail "the crossover diagnostic runs without LEASE_VERDICTS_MODES=1"
# (Each plan is written to a file before grep reads it: grep -q at the end of a pipe exits at its first
# match, and with pipefail the writer's SIGPIPE would hide the very failure the check looks for.)
LEASE_EVIDENCE=0 LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" 1 --dry-run >"$scratch/plan"
grep -q 'evidence' "$scratch/plan" &&
  fail "LEASE_EVIDENCE=0 still writes the evidence"
LEASE_EXPERIMENT=1 LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" 2 --dry-run >"$scratch/plan"
grep -q 'day48-lesson-contexts' "$scratch/plan" ||
  fail "LEASE_EXPERIMENT=1 does not run the experiment"
LEASE_VERDICTS_MODES=1 LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" 2 --dry-run >"$scratch/plan"
grep -q 'would run.* verdicts-modes report' "$scratch/plan" ||
  fail "LEASE_VERDICTS_MODES=1 does not run the crossover diagnostic before the report"
# LEASE_GPU_TESTS=0 leaves every GPU test out, on either card.
for card in "NVIDIA H200" "NVIDIA H100 80GB HBM3"; do
  for part in 1 2 3; do
    LEASE_GPU_TESTS=0 LEASE_CARD=$card bash "$script" "$scratch/out" "$part" --dry-run
  done >"$scratch/plan"
  grep -q 'all-gpu-tests' "$scratch/plan" && fail "LEASE_GPU_TESTS=0 still runs the GPU tests on $card"
done
# Parts 2 and 3 build first only where part 1's builds are missing; part 1 always builds, once.
builds() { grep -c 'would run (build,' "$1" || true; }
for part in 1 2 3; do
  LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" "$part" --dry-run >"$scratch/plan"
  LEASE_CARD="NVIDIA H200" bash "$bare_script" "$scratch/out" "$part" --dry-run >"$scratch/bare-plan"
  [ "$(builds "$scratch/bare-plan")" = 1 ] || fail "part $part on a bare machine: $(builds "$scratch/bare-plan") builds, not 1"
  first=$(grep -m 1 'would run' "$scratch/bare-plan")
  [[ "$first" == *"session-lease.sh $scratch/out build "* ]] ||
    fail "part $part on a bare machine does not build before its first step: $first"
  want=0; [ "$part" = 1 ] && want=1
  [ "$(builds "$scratch/plan")" = "$want" ] || fail "part $part with the builds there: $(builds "$scratch/plan") builds, not $want"
done
# Part evidence, on either card: this tree's labrun alone, then the evidence stage and nothing else, in
# one device command (no previous code to build, no GPU test, no benchmark stage).
for card in "NVIDIA H200" "NVIDIA H100 80GB HBM3"; do
  LEASE_CARD=$card bash "$bare_script" "$scratch/out" evidence --dry-run >"$scratch/plan"
  grep 'would run' "$scratch/plan" | sed -E 's/^would run \(([^,]*),.*\): (.*)$/\1: \2/' >"$scratch/steps"
  expected="build this tree's labrun alone: scripts/lease/session-lease.sh $scratch/out labrun 
evidence: scripts/lease/intervals-benchmark.sh $scratch/out/intervals evidence "
  [ "$(cat "$scratch/steps")" = "$expected" ] || fail "part evidence on $card plans: $(cat "$scratch/steps")"
  limits=$(grep -o 'at most [0-9]* s' "$scratch/plan" | awk '{ s += $3 } END { print s }')
  [ "$limits" -le 570 ] || fail "part evidence on $card asks for $limits s, more than the part's 570"
done
# LEASE_REQUIRE_H200=1: another card runs nothing and exits 3; an H200 runs its plan.
for part in 1 2 3 evidence; do
  code=0
  LEASE_REQUIRE_H200=1 LEASE_CARD="NVIDIA H100 80GB HBM3" bash "$script" "$scratch/out" "$part" --dry-run \
    >"$scratch/required" 2>&1 || code=$?
  [ "$code" -eq 3 ] || fail "LEASE_REQUIRE_H200=1 on an H100, part $part: exit $code, not 3"
  grep -q 'would run' "$scratch/required" && fail "LEASE_REQUIRE_H200=1 on an H100 still plans part $part"
  LEASE_REQUIRE_H200=1 LEASE_CARD="NVIDIA H200" bash "$script" "$scratch/out" "$part" --dry-run >"$scratch/required"
  grep -q 'would run' "$scratch/required" || fail "LEASE_REQUIRE_H200=1 on an H200 plans nothing for part $part"
done
bash "$script" --help >"$scratch/help"
grep -q 'LEASE_REQUIRE_H200' "$scratch/help" || fail "--help does not document LEASE_REQUIRE_H200"
# Each part's steps' limits, summed, fit a device command; the H200's modes are all timed.
for card in h200 h100; do
  awk '/^intervals-lease: part/ { part = $3 } /at most [0-9]+ s/ { match($0, /at most [0-9]+ s/);
       split(substr($0, RSTART, RLENGTH), w, " "); sum[part] += w[3] }
       END { for (p in sum) if (sum[p] > 800) { print "part " p ": " sum[p] " s"; bad = 1 } exit bad }' \
    "$scratch/$card" || fail "$card: a part's steps ask for more than a device command can give"
  for mode in hot 'cold\\ hot-gated'; do
    grep -q "DAY48_MODES=$mode " "$scratch/$card" || fail "$card: day 48 $mode not run"
  done
done
# A part whose time is spent runs nothing, fails, and prints its table last.
code=0
LEASE_CARD="NVIDIA H200" LEASE_PART_LIMIT=0 COPY_TO=$scratch/copy bash "$script" "$scratch/out" 2 \
  >"$scratch/spent" 2>&1 || code=$?
[ "$code" -eq 1 ] || fail "a part with no time left exited $code, not 1"
grep -q '| day 48 cold and hot-gated.* | not run | 0 |' "$scratch/spent" || fail "the table does not say the step was not run"
[ "$(tail -n 1 "$scratch/spent" | cut -d'|' -f2-3)" = " all | 1 " ] || fail "the table's last line: $(tail -n 1 "$scratch/spent")"
for args in "$scratch/out 5" "$scratch/out 1 --bogus" "$scratch/out"; do
  code=0
  # shellcheck disable=SC2086 # the arguments are words
  bash "$script" $args >/dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] || fail "intervals-lease.sh $args: exit $code, not 2"
done
echo "intervals-lease.sh: the H200 writes its evidence in part 1, another card in part 4; the baseline where carried; limits fit; a spent part says so"
