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

# The grader's nvcc a configure with CMAKE_CUDA_COMPILER=$1 chose, as its toolkit's real path and
# nvcc's name and its path as configured, or three dashes where the configure failed.
grader_toolkit_for() {
  local build=$scratch/build-$2
  if ! cmake -S "$scratch/project" -B "$build" -DCMAKE_CUDA_COMPILER="$1" -DCMAKE_CUDA_ARCHITECTURES=75 \
      >"$build.log" 2>&1; then
    echo "- - -"
    return
  fi
  local chosen
  chosen=$(cat "$build/grader-nvcc.txt")
  echo "$(cd "$(dirname "$chosen")/.." && pwd -P) $(basename "$chosen") $chosen"
}

read -r got_toolkit got_name got_path <<<"$(grader_toolkit_for "$scratch/wrapper/bin/nvcc" wrapper)"
if [ "$got_toolkit $got_name" != "$toolkit nvcc" ]; then
  fail "behind a wrapper, the grader's nvcc is '$got_path' (toolkit '$got_toolkit'; '-': the configure failed), not the toolkit's ($toolkit/bin/nvcc)"
  sed 's/^/  /' "$scratch/build-wrapper.log" | tail -20 >&2
elif [ ! -f "$(dirname "$got_path")/../include/cuda_runtime.h" ]; then
  fail "behind a wrapper, the grader's nvcc '$got_path' has no include/cuda_runtime.h beside its bin folder"
fi

read -r got_toolkit got_name got_path <<<"$(grader_toolkit_for "$toolkit_nvcc" direct)"
if [ "$got_toolkit $got_name" != "$toolkit nvcc" ]; then
  fail "named directly, the grader's nvcc is '$got_path' ('-': the configure failed), not $toolkit_nvcc"
  sed 's/^/  /' "$scratch/build-direct.log" | tail -20 >&2
fi

# 3. A toolkit folder without CUDA's headers: configuring stops, naming what to pass.
mkdir -p "$scratch/headless/bin"
cp "$scratch/wrapper/bin/nvcc" "$scratch/headless/bin/nvcc"
cat >"$scratch/headless.cmake" <<CMAKE
set(CUDAToolkit_NVCC_EXECUTABLE "$scratch/headless/bin/nvcc")
set(CUDAToolkit_BIN_DIR "$scratch/headless/bin")
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
