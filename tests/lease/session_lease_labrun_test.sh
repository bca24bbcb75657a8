#!/usr/bin/env bash
# scripts/lease/session-lease.sh's labrun part, with stand-ins for cmake and nvidia-smi (no GPU, no CUDA
# build here): it configures the dev preset as the build part does (zlib required, warnings not fatal),
# builds the labrun target alone, names the commit build/tree-commit.txt carries (not the copy's git
# HEAD), needs no previous code's patch, copies its build log back, and says so when the build fails.
# usage: session_lease_labrun_test.sh SCRIPTS_DIR
set -euo pipefail
scripts=${1:?usage: session_lease_labrun_test.sh SCRIPTS_DIR}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
root=$scratch/tree
mkdir -p "$root/scripts/lease" "$root/scripts/lib" "$root/build" "$scratch/bin"
cp "$scripts/lease/session-lease.sh" "$scripts/lease/tree-commit.sh" "$root/scripts/lease/"
cp "$scripts/lib/bubblewrap.sh" "$root/scripts/lib/"
commit=0123456789abcdef0123456789abcdef01234567
echo "labrun tree: commit $commit dirty false" >"$root/build/tree-commit.txt"
# The stand-in cmake logs each call with the commit the build would record; its build writes a labrun
# that prints that commit, as the real one does. CMAKE_FAILS=1 makes the configure step fail.
cat >"$scratch/bin/cmake" <<'STUB'
#!/usr/bin/env bash
echo "cmake $* | LABRUN_GIT_COMMIT=${LABRUN_GIT_COMMIT:-unset} LABRUN_GIT_DIRTY=${LABRUN_GIT_DIRTY:-unset}" >>"$CMAKE_LOG"
[ "${CMAKE_FAILS:-0}" = 1 ] && { echo "CMake Error: stand-in failure"; exit 1; }
if [ "$1" = --build ]; then
  mkdir -p build/dev
  printf '#!/bin/sh\necho "labrun 0.1.0"\necho "git commit %s"\n' "$LABRUN_GIT_COMMIT" >build/dev/labrun
  chmod +x build/dev/labrun
fi
STUB
printf '#!/bin/sh\necho "name, driver_version"\necho "Stand-in GPU, 0"\n' >"$scratch/bin/nvidia-smi"
printf '#!/bin/sh\necho "bubblewrap 0.0"\n' >"$scratch/bin/bwrap"
chmod +x "$scratch/bin/cmake" "$scratch/bin/nvidia-smi" "$scratch/bin/bwrap"
export PATH="$scratch/bin:$PATH" CMAKE_LOG=$scratch/cmake.log
unset LABRUN_GIT_COMMIT LABRUN_GIT_DIRTY

code=0
COPY_TO=$scratch/copy bash "$root/scripts/lease/session-lease.sh" "$scratch/out" labrun >"$scratch/stdout" 2>&1 || code=$?
[ "$code" -eq 0 ] || { cat "$scratch/stdout" >&2; fail "the labrun part exited $code, not 0"; }
grep -qx "cmake --preset dev -DLABRUN_WARNINGS_AS_ERRORS=OFF -DLABRUN_REQUIRE_ZLIB=ON | LABRUN_GIT_COMMIT=$commit LABRUN_GIT_DIRTY=false" \
  "$CMAKE_LOG" || fail "the dev preset is not configured as the build part does, with the carried commit: $(cat "$CMAKE_LOG")"
grep -q "^cmake --build --preset dev .*--target labrun | LABRUN_GIT_COMMIT=$commit" "$CMAKE_LOG" ||
  fail "the labrun target is not what is built: $(cat "$CMAKE_LOG")"
[ "$(wc -l <"$CMAKE_LOG")" -eq 2 ] || fail "more than a configure and a build: $(cat "$CMAKE_LOG")"
grep -q "git commit $commit" "$scratch/stdout" || fail "the part does not print the built labrun's commit"
[ -f "$scratch/copy/build.log" ] || fail "the build log does not come back"
if [ -e "$root/build/old-dev" ] || [ -e "$root/build/labrun-pre-session" ]; then fail "the labrun part built the previous code"; fi

# A build that fails: exit 1, said, its log back.
rm -rf "$root/build/dev" "$scratch/copy" && : >"$CMAKE_LOG"
code=0
CMAKE_FAILS=1 COPY_TO=$scratch/copy bash "$root/scripts/lease/session-lease.sh" "$scratch/out" labrun >"$scratch/stdout" 2>&1 || code=$?
[ "$code" -eq 1 ] || fail "a failed build exited $code, not 1"
grep -q "BUILD FAILED" "$scratch/stdout" || fail "a failed build is not said"
grep -q "stand-in failure" "$scratch/copy/build.log" || fail "a failed build's log does not come back"
echo "session-lease.sh labrun: configured and built as the evidence lease needs, failures said"
