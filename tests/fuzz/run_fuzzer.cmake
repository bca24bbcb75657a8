# Runs labrun_fuzz_readers over the committed seeds and regressions for SECONDS (tests/fuzz/CMakeLists.txt).
cmake_minimum_required(VERSION 3.25)
set(corpus "${WORK_DIR}/fuzz-corpus")
set(crashes "${WORK_DIR}/fuzz-crashes/")
file(MAKE_DIRECTORY "${corpus}" "${crashes}")
file(GLOB_RECURSE seeds "${SOURCE_DIR}/evidence/*.json" "${SOURCE_DIR}/tests/evidence/*.json"
     "${SOURCE_DIR}/tests/grading/corpus/*.json")
foreach(seed IN LISTS seeds)
  string(SHA1 name "${seed}")
  file(COPY_FILE "${seed}" "${corpus}/seed-${name}" ONLY_IF_DIFFERENT)
endforeach()
execute_process(COMMAND "${FUZZER}" "${corpus}" "${SOURCE_DIR}/tests/fuzz/regressions"
                        -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=4096 -max_len=1048576
                        -print_final_stats=1 "-artifact_prefix=${crashes}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found an input that crashes, hangs or trips a sanitizer: see ${crashes}")
endif()
