# Runs labrun_fuzz_readers over the committed seeds and regressions for SECONDS (tests/fuzz/CMakeLists.txt).
# Fails on any finding (libFuzzer's exit status is not 0), naming the inputs it wrote to fuzz-crashes/;
# either way it writes what the run executed to fuzz-summary.txt beside them, and prints it.
cmake_minimum_required(VERSION 3.25)
set(corpus "${WORK_DIR}/fuzz-corpus")
set(crashes "${WORK_DIR}/fuzz-crashes")
set(summary_file "${WORK_DIR}/fuzz-summary.txt")
file(MAKE_DIRECTORY "${corpus}" "${crashes}")
file(REMOVE "${summary_file}")
file(GLOB_RECURSE seeds "${SOURCE_DIR}/evidence/*.json" "${SOURCE_DIR}/evidence/*.json.gz" "${SOURCE_DIR}/tests/evidence/*.json"
     "${SOURCE_DIR}/labs/*/grading/corpus/*.json")
foreach(seed IN LISTS seeds)
  string(SHA1 name "${seed}")
  file(COPY_FILE "${seed}" "${corpus}/seed-${name}" ONLY_IF_DIFFERENT)
endforeach()
file(GLOB found_before "${crashes}/*")
list(LENGTH seeds seed_count)
file(GLOB regressions "${SOURCE_DIR}/tests/fuzz/regressions/*.json")
list(LENGTH regressions regression_count)
execute_process(COMMAND "${FUZZER}" "${corpus}" "${SOURCE_DIR}/tests/fuzz/regressions"
                        -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=4096 -max_len=1048576
                        -print_final_stats=1 "-artifact_prefix=${crashes}/"
                RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output
                ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)

# libFuzzer's final statistics (-print_final_stats=1): "stat::number_of_executed_units: 1529".
set(executed "unknown")
set(per_second "unknown")
if(output MATCHES "stat::number_of_executed_units: *([0-9]+)")
  set(executed "${CMAKE_MATCH_1}")
endif()
if(output MATCHES "stat::average_exec_per_sec: *([0-9]+)")
  set(per_second "${CMAKE_MATCH_1}")
endif()
set(summary "fuzz.readers: ${executed} inputs executed in ${SECONDS} s (${per_second} per second), from ${seed_count} seeds and ${regression_count} regressions")
file(GLOB found_after "${crashes}/*")
set(found_now ${found_after})
if(found_before)
  list(REMOVE_ITEM found_now ${found_before})
endif()
if(rc EQUAL 0)
  string(APPEND summary "; no crash, hang, leak or sanitizer finding")
else()
  string(APPEND summary "; a finding (exit status ${rc})")
endif()
file(WRITE "${summary_file}" "${summary}\n")
message("${summary}")
if(NOT rc EQUAL 0)
  list(JOIN found_now "\n  " listing)
  message(FATAL_ERROR "the fuzzer found an input that crashes, hangs, leaks or trips a sanitizer. It wrote:\n"
                      "  ${listing}\nKeep each under tests/fuzz/regressions/, named for what it broke "
                      "(tests/fuzz/regressions/README.md), and fix the reader.")
endif()
