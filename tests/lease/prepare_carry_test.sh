#!/usr/bin/env bash
# scripts/lease/prepare-carry.sh in a scratch repository, with no network: --check names each part of
# the carry that is missing and fails; with every part present (stand-ins for the downloaded packages,
# which it only looks for) it prints the run tool's carry argument last; it writes the tree's commit
# (scripts/lease/tree-commit.sh) and carries it, --check refusing one written at another HEAD or for
# files since edited, and tree-commit.sh env gives the device's build that commit, dirty where a file
# differs; with a previous commit (and --baseline COMMIT) it packs the patch at HEAD and carries it,
# and --check refuses a patch packed at another HEAD; what
# travels over the limit fails; a bad option is a usage error.
# usage: prepare_carry_test.sh SCRIPTS_DIR
set -euo pipefail
scripts=${1:?usage: prepare_carry_test.sh SCRIPTS_DIR}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/repo
mkdir -p "$repo/scripts/lease" "$repo/src" "$repo/labs" "$repo/cmake" "$repo/evidence/schema"
cp "$scripts/lease/prepare-carry.sh" "$scripts/lease/previous-code.sh" "$scripts/lease/tree-commit.sh" "$repo/scripts/lease/"
cd "$repo"
git init -q . && git config user.email t@example.com && git config user.name test
printf '/.deps/\n/build/\n' >.gitignore
printf 'int old_code = 1;\n' >src/a.cpp
printf 'cmake_minimum_required(VERSION 3.25)\n' >CMakeLists.txt
printf '{}\n' >CMakePresets.json
printf 'lab\n' >labs/README.md
printf 'set(x 1)\n' >cmake/x.cmake
printf '{}\n' >evidence/schema/t.schema.json
printf 'print(1)\n' >scripts/draw_plots.py
git add -A && git commit -q -m old
old=$(git rev-parse HEAD)
printf 'int new_code = 2;\n' >src/a.cpp
git add -A && git commit -q -m new

fail() { echo "FAIL: $*" >&2; exit 1; }
run() { # run EXPECTED_STATUS ARGS...: the script's output in $scratch/out
  local want=$1 got=0
  shift
  bash scripts/lease/prepare-carry.sh "$@" >"$scratch/out" 2>&1 || got=$?
  [ "$got" -eq "$want" ] || fail "prepare-carry.sh $*: exit $got, not $want: $(cat "$scratch/out")"
}

run 1 --check
for part in .deps/valijson '.deps/bubblewrap_\*.deb' .deps/zlib; do
  grep -q "MISSING: $part" "$scratch/out" || fail "--check on a bare tree does not name $part missing"
done
grep -q '^\[' "$scratch/out" && fail "a carry argument printed for a tree that is not ready"

mkdir -p .deps/valijson/usr/include/valijson .deps/zlib/usr/include .deps/zlib/usr/lib/x86_64-linux-gnu
printf '// stand-in\n' >.deps/valijson/usr/include/valijson/validator.hpp
printf 'stand-in\n' >.deps/bubblewrap_0.8.0_amd64.deb
printf '/* stand-in */\n' >.deps/zlib/usr/include/zlib.h
run 1 --check
grep -q "MISSING: .deps/zlib" "$scratch/out" || fail "zlib's headers without libz.a taken as ready"
grep MISSING "$scratch/out" | grep -vc tree-commit | grep -qx 1 || fail "parts present reported missing: $(cat "$scratch/out")"
printf 'stand-in\n' >.deps/zlib/usr/lib/x86_64-linux-gnu/libz.a
# The tree's commit: --check writes nothing, so it is missing until a run without --check writes it.
run 1 --check
grep -q "MISSING: build/tree-commit.txt" "$scratch/out" || fail "--check took a tree commit never written"
run 0
[ "$(tail -n 1 "$scratch/out")" = '[".deps", "build/tree-commit.txt"]' ] ||
  fail "the carry argument is not last, or lacks the tree's commit: $(tail -n 1 "$scratch/out")"
head -n 1 build/tree-commit.txt | grep -qx "labrun tree: commit $(git rev-parse HEAD) dirty false" ||
  fail "the tree commit names another commit: $(head -n 1 build/tree-commit.txt)"
run 0 --check
# A tracked file edited after it was written: stale, and the device would record the wrong state.
printf 'lab, edited\n' >labs/README.md
run 1 --check
grep -q "MISSING: build/tree-commit.txt" "$scratch/out" || fail "a tree commit of files since edited taken"
run 0
head -n 1 build/tree-commit.txt | grep -q " dirty true$" || fail "an edited tree not written as dirty"
# On the device: the files as sent give the commit and its state; a file changed there makes it dirty.
eval "$(bash scripts/lease/tree-commit.sh env)"
if [ "$LABRUN_GIT_COMMIT" != "$(git rev-parse HEAD)" ] || [ "$LABRUN_GIT_DIRTY" != true ]; then
  fail "tree-commit.sh env: $LABRUN_GIT_COMMIT $LABRUN_GIT_DIRTY"
fi
git checkout -q labs/README.md
run 0
eval "$(bash scripts/lease/tree-commit.sh env)"
[ "$LABRUN_GIT_DIRTY" = false ] || fail "tree-commit.sh env on the files as sent: dirty $LABRUN_GIT_DIRTY"
printf 'changed on the device\n' >cmake/x.cmake
eval "$(bash scripts/lease/tree-commit.sh env 2>/dev/null)"
[ "$LABRUN_GIT_DIRTY" = true ] || fail "tree-commit.sh env with a file changed after it was sent: not dirty"
git checkout -q cmake/x.cmake
[ -z "$(bash scripts/lease/tree-commit.sh env build/none.txt)" ] || fail "tree-commit.sh env without its file printed something"

run 1 --check "$old"
grep -q "MISSING: build/labrun-pre-session.patch" "$scratch/out" || fail "--check took a patch never packed"
run 0 "$old"
[ -f build/labrun-pre-session.patch ] || fail "the previous code was not packed"
[ "$(tail -n 1 "$scratch/out")" = '[".deps", "build/tree-commit.txt", "build/labrun-pre-session.patch"]' ] ||
  fail "the patch is not carried: $(tail -n 1 "$scratch/out")"
run 0 --check "$old"
run 1 --check --baseline "$old" "$old"
grep -q "MISSING: build/labrun-baseline.patch" "$scratch/out" || fail "--check took a baseline never packed"
run 0 --baseline "$old" "$old"
[ "$(tail -n 1 "$scratch/out")" = '[".deps", "build/tree-commit.txt", "build/labrun-pre-session.patch", "build/labrun-baseline.patch"]' ] ||
  fail "the baseline is not carried: $(tail -n 1 "$scratch/out")"
printf 'int newer_code = 3;\n' >src/a.cpp
git commit -q -am newer
run 1 --check "$old"
grep -q "MISSING: build/labrun-pre-session.patch" "$scratch/out" || fail "a patch packed at another HEAD taken"
grep -q "MISSING: build/tree-commit.txt" "$scratch/out" || fail "a tree commit written at another HEAD taken"

CARRY_LIMIT_BYTES=100 run 1 --check
grep -q "TOO LARGE" "$scratch/out" || fail "what travels over the limit passed"
run 2 --bogus
run 2 a b
run 2 --baseline
echo "prepare-carry.sh: missing parts named, the carry printed last, the tree's commit and the patches packed at HEAD, the size limit kept"
