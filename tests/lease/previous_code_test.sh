#!/usr/bin/env bash
# scripts/lease/previous-code.sh in a scratch repository of two commits: pack writes a patch whose
# reverse turns the later commit's files into the earlier one's (a changed, an added, a removed and a
# binary file), unpack rebuilds them from the working tree, refuses a folder that is not empty, and
# refuses (and removes what it began) a patch that does not fit the tree or, made at another HEAD,
# would give other files than the old commit's.
# usage: previous_code_test.sh SCRIPTS_DIR
set -euo pipefail
script=${1:?usage: previous_code_test.sh SCRIPTS_DIR}/lease/previous-code.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/repo
mkdir -p "$repo/scripts/lease" "$repo/src" "$repo/labs/x" "$repo/cmake" "$repo/evidence/schema"
cp "$script" "$repo/scripts/lease/"
cd "$repo"
git init -q . && git config user.email t@example.com && git config user.name test
printf 'int old_code = 1;\n' >src/a.cpp
printf 'removed later\n' >src/gone.hpp
printf 'int same_in_both = 0;\n' >src/untouched.cpp
printf 'lab\n' >labs/x/README.md
printf 'cmake_minimum_required(VERSION 3.25)\n' >CMakeLists.txt
printf '{}\n' >CMakePresets.json
printf 'set(x 1)\n' >cmake/x.cmake
printf '{"old": true}\n' >evidence/schema/t.schema.json
printf 'print(1)\n' >scripts/draw_plots.py
printf '\x00\x01\x02old' >labs/x/blob.bin
printf 'not carried\n' >unrelated.txt
git add -A && git commit -q -m old
old=$(git rev-parse HEAD)
printf 'int new_code = 2;\n' >src/a.cpp
git rm -q src/gone.hpp
printf 'added later\n' >src/new.hpp
printf '\x00\x03\x04new' >labs/x/blob.bin
printf 'changed too\n' >unrelated.txt
git add -A && git commit -q -m new

fail() { echo "FAIL: $*" >&2; exit 1; }
bash scripts/lease/previous-code.sh pack "$old" "$scratch/p/prev.patch" >"$scratch/pack.log" ||
  fail "pack: $(cat "$scratch/pack.log")"
grep -q "turns HEAD $(git rev-parse HEAD) into $old" "$scratch/p/prev.patch" || fail "the patch does not name its commits"
bash scripts/lease/previous-code.sh unpack "$scratch/old" "$scratch/p/prev.patch" >/dev/null || fail "unpack"
mkdir "$scratch/want"
git archive "$old" -- src labs cmake CMakeLists.txt CMakePresets.json scripts/draw_plots.py evidence/schema |
  tar -x -C "$scratch/want"
diff -r "$scratch/old" "$scratch/want" || fail "the unpacked tree is not the old commit's"

# Inside the repository (DEST under build/), as on the device.
bash scripts/lease/previous-code.sh unpack build/old "$scratch/p/prev.patch" >/dev/null || fail "unpack under build/"
diff -r build/old "$scratch/want" || fail "the tree unpacked under build/ is not the old commit's"

# A folder that is not empty is left alone.
if bash scripts/lease/previous-code.sh unpack "$scratch/old" "$scratch/p/prev.patch" 2>"$scratch/err"; then
  fail "unpack into a non-empty folder succeeded"
fi
grep -q "not empty" "$scratch/err" || fail "no reason for the non-empty folder: $(cat "$scratch/err")"

# A tree changed since the patch was made, in a file the patch does not touch (the same in both
# commits), is refused by the digest: git apply alone would take it, and give a different old tree.
cp src/untouched.cpp "$scratch/untouched.orig"
printf 'int changed_later = 4;\n' >src/untouched.cpp
if bash scripts/lease/previous-code.sh unpack "$scratch/stale" "$scratch/p/prev.patch" 2>"$scratch/err"; then
  fail "a patch made at another HEAD gave a previous code: $(diff -r "$scratch/stale" "$scratch/want")"
fi
grep -q "is not the previous code's files" "$scratch/err" || fail "no reason for the stale patch: $(cat "$scratch/err")"
[ ! -e "$scratch/stale" ] || fail "the stale patch's folder was left"
cp "$scratch/untouched.orig" src/untouched.cpp

# A tree the patch does not fit (a file changed since the patch was made) is refused.
printf 'int newer_code = 3;\n' >src/a.cpp
if bash scripts/lease/previous-code.sh unpack "$scratch/misfit" "$scratch/p/prev.patch" 2>"$scratch/err"; then
  fail "a patch that does not fit was applied"
fi
grep -q "does not fit" "$scratch/err" || fail "no reason for the misfit: $(cat "$scratch/err")"
[ ! -e "$scratch/misfit" ] || fail "the misfit's half-made folder was left"

# commit names the commit the patch reverses to, and refuses a file that is no such patch.
[ "$(bash scripts/lease/previous-code.sh commit "$scratch/p/prev.patch")" = "$(git rev-parse "$old")" ] ||
  fail "commit does not name the patch's commit"
if bash scripts/lease/previous-code.sh commit CMakeLists.txt 2>/dev/null; then fail "commit took a file that is no patch"; fi
# pack refuses uncommitted changes to what travels.
if bash scripts/lease/previous-code.sh pack "$old" "$scratch/p/again.patch" 2>"$scratch/err"; then
  fail "pack with uncommitted changes succeeded"
fi
echo "previous-code.sh: pack and unpack round-trip; misfits, stale patches and non-empty folders refused"
