#!/usr/bin/env bash
# CTest test "install.relocated" (tests/CMakeLists.txt): installs labrun from BUILD_DIR into a
# temporary prefix, moves the build tree away, and runs the installed copy: --version, list, plan,
# validate and report (byte for byte against the committed Markdown), and checks that every file the
# installed copy needs is in the prefix and that no installed file names the build tree.
#
#   install_test.sh BUILD_DIR SOURCE_DIR
#
# The build tree is renamed for the duration and always renamed back (the test runs alone: CTest
# property RUN_SERIAL). Every command runs under `timeout`, well inside CTest's own limit, so that
# the rename back always happens.
set -euo pipefail

build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/labrun-install-test-XXXXXX")
prefix="$scratch/prefix"
moved="$build_dir.moved-by-install-test"

say() { echo "install test: $*"; }
fail() { echo "install test: FAILED: $*" >&2; exit 1; }

restore() {
  if [ -d "$moved" ] && [ ! -e "$build_dir" ]; then
    mv "$moved" "$build_dir"
  fi
  rm -rf "$scratch"
}
trap restore EXIT

[ ! -e "$moved" ] || fail "$moved exists (left by an interrupted run?); move it back to $build_dir by hand"

say "installing into $prefix"
touch "$scratch/before-install"
sleep 1  # file times have a resolution of their own: what the install writes is newer than this
timeout 120 cmake --install "$build_dir" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  { cat "$scratch/install.log"; fail "cmake --install failed"; }
# docs/installing.md: the install writes install_manifest.txt into the build tree, and nothing else.
written=$(cd "$build_dir" && find . -newer "$scratch/before-install" ! -type d | sed 's|^\./||' | sort | tr '\n' ' ')
[ "$written" = "install_manifest.txt " ] || fail "cmake --install wrote into the build tree: $written"
grep -qF '`install_manifest.txt`' "$source_dir/docs/installing.md" ||
  fail "docs/installing.md does not say that cmake --install writes install_manifest.txt into the build tree"
# Every installed file is a row of docs/installing.md's table, and every row names an installed file.
python3 - "$prefix" "$source_dir/docs/installing.md" <<'PY' || fail "the installed files and docs/installing.md's table differ"
import os, re, sys
prefix, doc = sys.argv[1], sys.argv[2]
patterns = []
for line in open(doc):
    if not line.startswith("| `<prefix>/"):
        continue
    tokens = re.findall(r"`([^`]+)`", line.split("|")[1])
    folder = os.path.dirname(tokens[0][len("<prefix>/"):])
    for token in tokens:
        path = token[len("<prefix>/"):] if token.startswith("<prefix>/") else os.path.join(folder, token)
        # `*` and `<version>` stand for one file name's part, never a folder.
        patterns.append((token, re.compile("^" + re.sub(r"\\\*|<[a-z]+>", "[^/]*", re.escape(path)) + "$")))
installed = sorted(os.path.relpath(os.path.join(root, name), prefix)
                   for root, _, names in os.walk(prefix) for name in names)
unlisted = [f for f in installed if not any(p.match(f) for _, p in patterns)]
unused = [t for t, p in patterns if not any(p.match(f) for f in installed)]
for f in unlisted:
    print("installed, but not in docs/installing.md's table: " + f)
for t in unused:
    print("in docs/installing.md's table, but not installed: " + t)
sys.exit(1 if unlisted or unused or not installed else 0)
PY

for file in bin/labrun libexec/labrun/labrun-grade-child share/labrun/scripts/draw_plots.py \
            share/labrun/labs/day48-fusion/stages.cuh share/labrun/labs/day48-fusion/chain_constants.hpp; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done
for schema in "$source_dir"/evidence/schema/transcript-*.schema.json; do
  cmp -s "$schema" "$prefix/share/labrun/schema/$(basename "$schema")" ||
    fail "share/labrun/schema/$(basename "$schema") differs from evidence/schema"
done
# No installed file may name the build tree: what labrun needs is found relative to itself. Names of
# the sources the build generates (the unity build's .../CMakeFiles/<target>.dir/Unity/unity_N_cxx.cxx
# and labs/registered_labs.cpp), which UBSan's diagnostics embed in a sanitizer build, are where code
# came from, not what it looks for.
if grep -raoF "$build_dir" "$prefix" >/dev/null 2>&1 &&
   grep -raoE "$(printf '%s' "$build_dir" | sed 's/[][\.^$*+?(){}|/]/\\&/g')(/[^[:space:][:cntrl:]\"]*)?" "$prefix" |
     grep -vE '/CMakeFiles/[^/]+\.dir/Unity/unity_[0-9]+_cxx\.cxx|/labs/registered_labs\.cpp' | cut -d: -f1 | sort -u >"$scratch/naming-build-tree" &&
   [ -s "$scratch/naming-build-tree" ]; then
  fail "installed files name the build tree $build_dir: $(tr '\n' ' ' <"$scratch/naming-build-tree")"
fi

say "moving the build tree away to $moved"
mv "$build_dir" "$moved"

labrun="$prefix/bin/labrun"
run() { timeout 60 "$labrun" "$@"; }

run --version >"$scratch/version" || fail "labrun --version failed"
grep -q "^labrun " "$scratch/version" || fail "labrun --version printed: $(cat "$scratch/version")"
grep -qF "$prefix/share/labrun" "$scratch/version" ||
  fail "labrun --version does not name the installed data folder: $(cat "$scratch/version")"
run list >"$scratch/list" || fail "labrun list failed"
grep -q "day48-fusion/part2/staged-chain" "$scratch/list" || fail "labrun list printed no day-48 case"
run plan day48-fusion >"$scratch/plan" || fail "labrun plan day48-fusion failed"
grep -q "staged over fused" "$scratch/plan" || fail "labrun plan printed no prediction"

transcripts=()
while IFS= read -r -d '' file; do
  transcripts+=("$file")
done < <(find "$source_dir/evidence/day48-fusion/nvidia-h200" "$source_dir/evidence/day48-fusion/tesla-t4-lesson" \
              \( -name '*.json' -o -name '*.json.gz' \) ! -name '*.trace.json' -print0 | sort -z)  # not the Chrome traces of run --timeline
run validate "${transcripts[@]}" >"$scratch/validate" || fail "labrun validate failed: $(cat "$scratch/validate")"
[ "$(grep -c ': valid (schema ' "$scratch/validate")" -eq "${#transcripts[@]}" ] ||
  fail "labrun validate did not find every transcript valid"

reported=0
for transcript in "${transcripts[@]}"; do
  markdown="${transcript%.gz}"; markdown="${markdown%.json}.md"  # committed runs are stored NAME.json.gz
  [ -f "$markdown" ] || continue
  run report "$transcript" >"$scratch/report.md" || fail "labrun report $transcript failed"
  cmp -s "$scratch/report.md" "$markdown" || fail "labrun report $transcript differs from $markdown"
  reported=$((reported + 1))
done
[ "$reported" -ge 5 ] || fail "only $reported transcripts had Markdown to compare"

say "installed labrun ran list, plan, validate (${#transcripts[@]} transcripts) and report ($reported) without its build tree"
