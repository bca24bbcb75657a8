#pragma once
// The labrun command line, callable from tests with its own output streams.

#include <ostream>

namespace labrun {

//! Parses argv and runs one command; returns the exit status (cli/exit_codes.hpp). Normal output
//! goes to `out`; errors, progress and help-on-error go to `err`.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace labrun
