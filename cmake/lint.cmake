# Lint checks (preset ci): MODE=format runs clang-format --dry-run --Werror on every C++/CUDA source
# (the CTest test lint.clang-format); MODE=tidy runs clang-tidy (the root .clang-tidy) on every host
# .cpp with the build's compile_commands.json, one line per file as it goes: the CTest tests
# lint.clang-tidy:<file> run it file by file instead, in parallel. Fails on the first finding,
# listing every file with findings.
#   cmake -DMODE=tidy -DTOOL=clang-tidy -DSOURCE_DIR=. -DBUILD_DIR=build/ci -P cmake/lint.cmake
cmake_minimum_required(VERSION 3.25)
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/labs/*.cpp" "${SOURCE_DIR}/labs/*.hpp"
     "${SOURCE_DIR}/labs/*.cu" "${SOURCE_DIR}/labs/*.cuh" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp")
if(MODE STREQUAL "tidy")
  list(FILTER sources INCLUDE REGEX "\\.cpp$")
endif()
list(LENGTH sources count)
set(failed "")
set(index 0)
foreach(source IN LISTS sources)
  math(EXPR index "${index} + 1")
  if(MODE STREQUAL "format")
    execute_process(COMMAND "${TOOL}" --dry-run --Werror "${source}" WORKING_DIRECTORY "${SOURCE_DIR}"
                    RESULT_VARIABLE rc)
  elseif(MODE STREQUAL "tidy")
    message(STATUS "[${index}/${count}] clang-tidy ${source}")
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
message(STATUS "${MODE}: ${count} files clean")
