# Lint checks, run as CTest tests by the ci preset (tests/CMakeLists.txt).
#
# MODE=format: clang-format --dry-run --Werror on every C++/CUDA source and header under src/, labs/
#   and tests/; and no source includes another source file (#include "x.cpp"), which the unity
#   build below relies on.
# MODE=tidy: clang-tidy (the root .clang-tidy) on the host C++ translation units of one CMake target
#   (TARGET), as the build compiled them: the entries of BUILD_DIR/compile_commands.json whose
#   object goes to <TARGET>.dir. In a unity build (the ci preset) those are CMake's unity files:
#   one per target, which includes every .cpp file of the target, so the system and library headers
#   are parsed once per target instead of once per file; the header filter then also admits our .cpp
#   files, so every finding in them is reported as in a per-file run. clang-tidy's
#   suspicious-include check is off for the unity files alone (including .cpp files is what they
#   are for); MODE=format checks that no source of ours does it.
# One line per translation unit as it goes; fails after the last one, listing each with findings.
#   cmake -DMODE=tidy -DTOOL=clang-tidy -DSOURCE_DIR=. -DBUILD_DIR=build/ci -DTARGET=labrun_cli -P cmake/lint.cmake
cmake_minimum_required(VERSION 3.25)
set(failed "")
if(MODE STREQUAL "format")
  file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
       "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/labs/*.cpp" "${SOURCE_DIR}/labs/*.hpp"
       "${SOURCE_DIR}/labs/*.cu" "${SOURCE_DIR}/labs/*.cuh" "${SOURCE_DIR}/src/*.cu" "${SOURCE_DIR}/src/*.cuh"
       "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp")
  list(FILTER sources EXCLUDE REGEX "^labs/[^/]+/grading/corpus/")  # submissions, hostile ones included
  if(NOT sources)
    message(FATAL_ERROR "lint.cmake: no C++ or CUDA source under ${SOURCE_DIR} (SOURCE_DIR must be the repository root, absolute)")
  endif()
  # One clang-format for every file (a process each took 10 s of CI's two cores in starts alone): it
  # checks each file whatever it found in the ones before, and names the file in each finding.
  execute_process(COMMAND "${TOOL}" --dry-run --Werror ${sources} WORKING_DIRECTORY "${SOURCE_DIR}"
                  RESULT_VARIABLE rc ERROR_VARIABLE findings)
  if(NOT rc EQUAL 0)
    message("${findings}")
    string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error: code should be clang-formatted" finding_lines "${findings}")
    foreach(finding IN LISTS finding_lines)
      string(REGEX REPLACE ":[0-9]+:[0-9]+: error: code should be clang-formatted$" "" finding_file "${finding}")
      list(APPEND failed "${finding_file}")
    endforeach()
    if(NOT finding_lines)
      list(APPEND failed "clang-format failed (exit status ${rc}) without naming a file; its output is above")
    endif()
  endif()
  foreach(source IN LISTS sources)
    file(STRINGS "${SOURCE_DIR}/${source}" source_includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*\\.(c|cc|cpp|cxx|cu)[\">]")
    if(source_includes)
      message("${source}: includes a source file: ${source_includes}")
      list(APPEND failed "${source}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES failed)
elseif(MODE STREQUAL "tidy")
  if(NOT TARGET)
    message(FATAL_ERROR "lint.cmake: MODE=tidy needs TARGET, the CMake target whose sources to check")
  endif()
  file(READ "${BUILD_DIR}/compile_commands.json" database)
  string(JSON entries LENGTH "${database}")
  set(sources "")
  math(EXPR last "${entries} - 1")
  foreach(i RANGE ${last})
    string(JSON file GET "${database}" ${i} file)
    string(JSON command GET "${database}" ${i} command)
    string(FIND "${command}" "/${TARGET}.dir/" at)
    if(at GREATER_EQUAL 0 AND file MATCHES "\\.(cpp|cxx)$")
      list(APPEND sources "${file}")
    endif()
  endforeach()
  list(LENGTH sources count)
  if(count EQUAL 0)
    message(FATAL_ERROR "lint.cmake: no C++ translation unit of ${TARGET} in ${BUILD_DIR}/compile_commands.json")
  endif()
  set(index 0)
  foreach(source IN LISTS sources)
    math(EXPR index "${index} + 1")
    set(extra "")
    if(source MATCHES "/Unity/unity_[0-9]+_cxx\\.cxx$")
      set(extra "--checks=-bugprone-suspicious-include")
    endif()
    message(STATUS "[${index}/${count}] clang-tidy ${source}")
    # GCC-only warning flags in compile_commands.json (-Wno-restrict) are not clang's to judge.
    execute_process(COMMAND "${TOOL}" -p "${BUILD_DIR}" --quiet --extra-arg=-Wno-unknown-warning-option
                            "--header-filter=(src|labs|tests)/.*\\.(hpp|cpp)$" ${extra} "${source}"
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_QUIET)
    if(NOT rc EQUAL 0)
      message("${output}")
      list(APPEND failed "${source}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "lint.cmake: MODE must be format or tidy")
endif()
if(failed)
  list(JOIN failed "\n  " listing)
  message(FATAL_ERROR "${MODE} findings in:\n  ${listing}")
endif()
message(STATUS "${MODE}: clean")
