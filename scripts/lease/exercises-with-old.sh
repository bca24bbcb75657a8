#!/usr/bin/env bash
# One device command for issue 30's GPU steps: the dev preset of this tree and a Release build of the
# tree before it (OLD_SRC, default build/labrun-pre30: `git archive --prefix=labrun-pre30/ COMMIT --
# src labs cmake CMakeLists.txt CMakePresets.json scripts evidence/schema tests | tar -x -C build`,
# carried with .deps), built side by side; then scripts/lease/exercises.sh with OLD_BUILD set.
#
#   scripts/lease/exercises-with-old.sh OUTDIR
#
# COPY_TO (the device tool's $OUT) receives the logs and the reports, packed. Exit 1 when a step failed.
set -uo pipefail
out=${1:?usage: scripts/lease/exercises-with-old.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 2
old_src=${OLD_SRC:-$PWD/build/labrun-pre30}
old_build=$PWD/build/old-dev
. scripts/lib/bubblewrap.sh  # the grader's compile sandbox on a machine without one
begin=$(date +%s)
{ cmake --preset dev -DLABRUN_WARNINGS_AS_ERRORS=OFF && cmake --build --preset dev -j 12; } >"$out/build.log" 2>&1 &
new_pid=$!
{ cmake -S "$old_src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DLABRUN_BUILD_TESTS=OFF -DLABRUN_VALIJSON_INCLUDE_DIR="$PWD/.deps/valijson/usr/include" &&
  cmake --build "$old_build" -j 8 --target labrun labrun-grade-child labrun-contain; } >"$out/build-old.log" 2>&1 &
old_pid=$!
status=0
wait "$new_pid" || { tail -30 "$out/build.log"; echo "BUILD FAILED"; status=1; }
wait "$old_pid" || { tail -20 "$out/build-old.log"; echo "OLD BUILD FAILED"; }
echo "builds: $(( $(date +%s) - begin )) s"
if [ "$status" -eq 0 ]; then
  build/dev/labrun --version | head -2
  OLD_BUILD=$old_build scripts/lease/exercises.sh "$out/exercises" || status=1
fi
if [ -n "${COPY_TO:-}" ]; then
  tar -czf "$COPY_TO/exercises.tar.gz" -C "$out" --exclude='*.svg' . 2>/dev/null
fi
exit "$status"
