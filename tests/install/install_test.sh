#!/usr/bin/env bash
# CTest test "install.relocated" (tests/CMakeLists.txt): installs labrun from BUILD_DIR into a
# temporary prefix, then runs the installed copy with the build tree out of its sight: --version,
# list, plan, validate and report (byte for byte against the committed Markdown); and checks that
# every file the installed copy needs is in the prefix and that no installed file names the build tree.
#
#   install_test.sh BUILD_DIR SOURCE_DIR
#
# The build tree is hidden from the commands that need it gone, not moved, so that the test can run
# beside the others (which use the build tree meanwhile): bubblewrap ($LABRUN_BWRAP, else bwrap on
# PATH; scripts/install-deps.sh installs it) gives each one a view of the machine in which
# BUILD_DIR is an empty folder, and `cmake --install` one in which the build tree is read-only but
# for install_manifest.txt. Where bubblewrap cannot start (no user namespaces, say) the test says
# so and exits 4, which CTest reports as skipped (SKIP_RETURN_CODE), never as passed.
set -euo pipefail

build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/labrun-install-test-XXXXXX")
prefix="$scratch/prefix"
trap 'rm -rf "$scratch"' EXIT

say() { echo "install test: $*"; }
fail() { echo "install test: FAILED: $*" >&2; exit 1; }

bwrap=${LABRUN_BWRAP:-$(command -v bwrap || true)}
if [ -z "$bwrap" ]; then
  say "SKIPPED: no bubblewrap (apt-get install bubblewrap, or set LABRUN_BWRAP) to hide the build tree with"
  exit 4
fi
# A command after this prefix runs where the build tree is an empty folder, as if it had been deleted.
without_build_tree=("$bwrap" --dev-bind / / --tmpfs "$build_dir" --die-with-parent --)
if ! problem=$("${without_build_tree[@]}" true 2>&1); then
  say "SKIPPED: bubblewrap ($bwrap) cannot start here: $problem"
  exit 4
fi
case "$scratch/" in
  "$build_dir"/*) fail "the temporary prefix $scratch is inside the build tree, which the test hides: set TMPDIR elsewhere" ;;
esac

say "installing into $prefix"
# docs/installing.md: the install writes install_manifest.txt into the build tree, and nothing else.
# It runs where the rest of the build tree is read-only, so that any other write fails the install
# ("Read-only file system") whatever the other tests write there meanwhile. The manifest is made
# first, as the install would make it, to be the one writable file.
touch "$build_dir/install_manifest.txt"
timeout 120 "$bwrap" --dev-bind / / --ro-bind "$build_dir" "$build_dir" \
  --bind "$build_dir/install_manifest.txt" "$build_dir/install_manifest.txt" --die-with-parent -- \
  cmake --install "$build_dir" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  { cat "$scratch/install.log"; fail "cmake --install failed (the build tree was read-only to it but for install_manifest.txt)"; }
# shellcheck disable=SC2016  # the backticks are Markdown's, to be found as written
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

say "hiding the build tree $build_dir from the installed labrun"
labrun="$prefix/bin/labrun"
run() { timeout 60 "${without_build_tree[@]}" "$labrun" "$@"; }

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
