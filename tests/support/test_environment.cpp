// Linked into every test program: child processes run under labrun-contain (process.hpp), which a
// test program finds through $LABRUN_CONTAIN because it is not beside it. Set before any test runs;
// an explicit $LABRUN_CONTAIN wins.

#include <cstdlib>

namespace {

const bool contain_program_set = [] {
  ::setenv("LABRUN_CONTAIN", LABRUN_CONTAIN_PATH, 0);
  return true;
}();

}  // namespace
