# Writes OUTPUT (a C++ file defining labrun::build_info::git_commit/git_dirty/git_source) from
# the git state of SOURCE_DIR; rewrites it only when the content changes. Run at build time.
# When the environment variables LABRUN_GIT_COMMIT and LABRUN_GIT_DIRTY are set (a copied tree, built
# elsewhere), they are used instead of git, and recorded as such.
set(commit "")
set(dirty "")
set(reason "")
set(source "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE commit ERROR_VARIABLE git_error RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0)
    execute_process(COMMAND "${GIT_EXECUTABLE}" status --porcelain --untracked-files=no
                    WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE status RESULT_VARIABLE rc2)
    if(rc2 EQUAL 0)
      if(status STREQUAL "")
        set(dirty "false")
      else()
        set(dirty "true")
      endif()
    endif()
    set(source "git at build time")
  else()
    set(commit "")
    string(STRIP "${git_error}" git_error)
    set(reason "not a git checkout at build time (${git_error})")
  endif()
else()
  set(reason "git not found at build time")
endif()
# Set explicitly, the environment wins: a copied tree may carry a .git that is not its state.
if(DEFINED ENV{LABRUN_GIT_COMMIT} AND NOT "$ENV{LABRUN_GIT_COMMIT}" STREQUAL "")
  set(commit "$ENV{LABRUN_GIT_COMMIT}")
  set(dirty "$ENV{LABRUN_GIT_DIRTY}")
  set(source "environment variables LABRUN_GIT_COMMIT/LABRUN_GIT_DIRTY at build time (copied tree)")
  set(reason "")
endif()
string(REPLACE "\"" "'" reason "${reason}")
string(REPLACE "\n" " " reason "${reason}")
set(dirty_reason "${reason}")
if(NOT commit STREQUAL "" AND dirty STREQUAL "")
  set(dirty_reason "git status failed or LABRUN_GIT_DIRTY was not set")
endif()
set(content "// Generated at build time by cmake/git_info.cmake; do not edit.
#include \"device/build_info.hpp\"

namespace labrun::build_info {

Item git_commit() { return {\"${commit}\", \"${reason}\"}; }
Item git_dirty() { return {\"${dirty}\", \"${dirty_reason}\"}; }
const char* git_source() { return \"${source}\"; }

}  // namespace labrun::build_info
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
