#pragma once
// The labrun command line, callable from tests with its own output streams.

#include <ostream>

namespace labrun {

//! Parses argv and runs one command; returns the exit status (cli/exit_codes.hpp). Normal output
//! goes to `out`; errors, progress and help-on-error go to `err`. `out` is flushed and checked last:
//! when any of it could not be written (a full disk, /dev/full, a file-size limit, a closed pipe), the
//! status is 1 and one line on `err` says why (base/descriptor_output.hpp), whatever the command did.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace labrun
