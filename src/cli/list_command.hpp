#pragma once
// `labrun list [LAB]`: the labs and their case names.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace labrun {

struct ListRequest {
  std::string lab;  //!< empty: every lab
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_list_command(CLI::App& app, ListRequest& request);

//! Prints each lab (or only the one asked for) with its cases and their sizes. Returns 0; throws
//! UsageError for an unknown lab.
int run_list_command(const ListRequest& request, std::ostream& out);

}  // namespace labrun
