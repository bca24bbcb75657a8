#pragma once
// Runs labrun's command line in the test process, as `labrun ARGS...` would, and keeps what it
// printed.

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace labrun::testing {

struct CliOutcome {
  int status = 0;
  std::string out;  //!< standard output
  std::string err;  //!< standard error: progress and errors
};

//! `args` without the program name.
inline CliOutcome run_labrun(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"labrun"};
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream out;
  std::ostringstream err;
  const int status = run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {status, out.str(), err.str()};
}

}  // namespace labrun::testing
