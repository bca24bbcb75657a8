#!/usr/bin/env bash
# cmake/toolkit_nvcc.cmake: the nvcc the grader runs is the CUDA Toolkit's own, whatever
# CMAKE_CUDA_COMPILER names. Real configures of a scratch project with this machine's CUDA:
#   1. CMAKE_CUDA_COMPILER names a wrapper script in another folder (as /usr/local/bin/nvcc, which
#      execs /usr/local/cuda-13.0/bin/nvcc, does on the development machines): the grader's nvcc is
#      the toolkit's, beside its include/cuda_runtime.h, not the wrapper;
#   2. CMAKE_CUDA_COMPILER names the toolkit's nvcc: that one;
# and in script mode, 3. a toolkit whose bin/nvcc has no include/cuda_runtime.h beside it stops with
# a message that says what to name.
#   toolkit_nvcc_test.sh SOURCE_DIR TOOLKIT_NVCC
# Exit status: 0 pass; 1 fail.
set -uo pipefail
source_dir=$1
toolkit_nvcc=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

toolkit=$(cd "$(dirname "$toolkit_nvcc")/.." && pwd -P)
# Checked once: both configures below must choose this toolkit, so it must hold CUDA's headers.
[ -f "$toolkit/include/cuda_runtime.h" ] || fail "the toolkit $toolkit has no include/cuda_runtime.h"
mkdir -p "$scratch/project" "$scratch/wrapper/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "$toolkit_nvcc" >"$scratch/wrapper/bin/nvcc"
chmod +x "$scratch/wrapper/bin/nvcc"
cat >"$scratch/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(toolkit_nvcc_probe LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
include("$source_dir/cmake/toolkit_nvcc.cmake")
labrun_toolkit_nvcc(grader_nvcc)
file(WRITE "\${CMAKE_BINARY_DIR}/grader-nvcc.txt" "\${grader_nvcc}")
CMAKE

# The grader's nvcc a configure with CMAKE_CUDA_COMPILER=$1 chose, or nothing where it failed.
grader_nvcc_for() {
  local build=$scratch/build-$2
  cmake -S "$scratch/project" -B "$build" -DCMAKE_CUDA_COMPILER="$1" -DCMAKE_CUDA_ARCHITECTURES=75 \
    >"$build.log" 2>&1 && cat "$build/grader-nvcc.txt"
}
# The real path of the toolkit an nvcc path lies in (the folder above its bin/), or nothing.
toolkit_of() { [ -n "$1" ] && (cd "$(dirname "$1")/.." && pwd -P); }

for named in wrapper direct; do
  compiler=$toolkit_nvcc
  [ "$named" = wrapper ] && compiler=$scratch/wrapper/bin/nvcc
  chosen=$(grader_nvcc_for "$compiler" "$named")
  if [ -z "$chosen" ]; then
    fail "with CMAKE_CUDA_COMPILER=$compiler ($named), the configure failed"
    sed 's/^/  /' "$scratch/build-$named.log" | tail -20 >&2
  elif [ "$(basename "$chosen")" != nvcc ] || [ "$(toolkit_of "$chosen")" != "$toolkit" ]; then
    fail "with CMAKE_CUDA_COMPILER=$compiler ($named), the grader's nvcc is '$chosen', not the toolkit's ($toolkit/bin/nvcc)"
  fi
done

# 3. A toolkit folder without CUDA's headers: configuring stops, naming what to pass.
mkdir -p "$scratch/headless/bin"
cp "$scratch/wrapper/bin/nvcc" "$scratch/headless/bin/nvcc"
cat >"$scratch/headless.cmake" <<CMAKE
set(CUDAToolkit_NVCC_EXECUTABLE "$scratch/headless/bin/nvcc")
include("$source_dir/cmake/toolkit_nvcc.cmake")
labrun_toolkit_nvcc(grader_nvcc)
message(STATUS "accepted: \${grader_nvcc}")
CMAKE
if cmake -P "$scratch/headless.cmake" >"$scratch/headless.log" 2>&1; then
  fail "a toolkit without include/cuda_runtime.h was accepted: $(cat "$scratch/headless.log")"
elif ! grep -q -- "-DCMAKE_CUDA_COMPILER=" "$scratch/headless.log"; then
  fail "the refusal does not say what to name: $(cat "$scratch/headless.log")"
fi

if [ "$failures" -gt 0 ]; then
  echo "toolkit_nvcc_test: $failures failure(s)" >&2
  exit 1
fi
echo "toolkit_nvcc_test: pass (toolkit $toolkit)"
