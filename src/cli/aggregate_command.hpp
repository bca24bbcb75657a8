#pragma once
// `labrun aggregate FILE_OR_DIR... --out DIR`: the command-line side of src/aggregate.

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace labrun {

struct AggregateRequest {
  std::vector<std::string> paths;  //!< transcript files and folders
  std::string out_dir;
  std::string timing_mode = "any";  //!< "any", or only runs sampled "hot", "cold" or "hot-gated"
  bool overwrite = false;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_aggregate_command(CLI::App& app, AggregateRequest& request);

//! Aggregates, writes aggregate.md, aggregate.json, aggregate.<lab>.csv and the plots into the out
//! folder, prints the Markdown to `out`, and names every file left out on `err`, one line each.
//! Returns the exit status: 0, 1 when no file was a usable transcript, 4 when an output file exists
//! and overwriting was not asked for (nothing is written then).
int run_aggregate_command(const AggregateRequest& request, std::ostream& out, std::ostream& err,
                          const std::function<void(const std::string&)>& progress);

}  // namespace labrun
