# Lint checks run as CTest tests (preset ci): MODE=format runs clang-format --dry-run --Werror on
# every C++/CUDA source; MODE=tidy runs clang-tidy (the root .clang-tidy) on every host .cpp with
# the build's compile_commands.json. Fails on the first finding, listing every file with findings.
# SHARD and SHARDS (optional) split the files: this run takes every SHARDS-th file from SHARD on,
# so that CTest can run the shards of the slow clang-tidy pass side by side.
cmake_minimum_required(VERSION 3.25)
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/labs/*.cpp" "${SOURCE_DIR}/labs/*.hpp"
     "${SOURCE_DIR}/labs/*.cu" "${SOURCE_DIR}/labs/*.cuh" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp")
if(DEFINED SHARDS AND SHARDS GREATER 1)
  set(shard_sources "")
  set(index 0)
  foreach(source IN LISTS sources)
    math(EXPR remainder "${index} % ${SHARDS}")
    if(remainder EQUAL SHARD)
      list(APPEND shard_sources "${source}")
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(sources ${shard_sources})
endif()
set(failed "")
foreach(source IN LISTS sources)
  if(MODE STREQUAL "format")
    execute_process(COMMAND "${TOOL}" --dry-run --Werror "${source}" WORKING_DIRECTORY "${SOURCE_DIR}"
                    RESULT_VARIABLE rc)
  elseif(MODE STREQUAL "tidy")
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    # GCC-only warning flags in compile_commands.json (-Wno-restrict) are not clang's to judge.
    execute_process(COMMAND "${TOOL}" -p "${BUILD_DIR}" --quiet --extra-arg=-Wno-unknown-warning-option "${source}"
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_QUIET)
    if(NOT rc EQUAL 0)
      message("${output}")
    endif()
  else()
    message(FATAL_ERROR "lint.cmake: MODE must be format or tidy")
  endif()
  if(NOT rc EQUAL 0)
    list(APPEND failed "${source}")
  endif()
endforeach()
if(failed)
  list(JOIN failed "\n  " listing)
  message(FATAL_ERROR "${MODE} findings in:\n  ${listing}")
endif()
list(LENGTH sources count)
message(STATUS "${MODE}: ${count} files clean")
