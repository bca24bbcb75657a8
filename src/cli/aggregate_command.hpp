#pragma once
// `labrun aggregate FILE_OR_DIR... --out DIR`: the command-line side of src/aggregate.

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
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

//! Every file in `dir` (by name) named as some aggregate's output: aggregate.md, aggregate.json,
//! aggregate.<lab>.csv, aggregate.<lab>-ratios.svg or aggregate.<lab>-claims.svg; empty when there is
//! none (or no folder). The set an aggregate in `dir` owns: --force replaces it as a whole.
[[nodiscard]] std::vector<std::filesystem::path> existing_aggregate_outputs(const std::filesystem::path& dir);

//! The first of existing_aggregate_outputs, or nullopt.
[[nodiscard]] std::optional<std::filesystem::path> existing_aggregate_output(
    const std::filesystem::path& dir);

//! Aggregates, writes aggregate.md, aggregate.json, aggregate.<lab>.csv and the plots into the out
//! folder as one set (all or none: base/atomic_file.hpp's FileSet); with overwriting, every earlier
//! aggregate output the new set does not write (a lab the new run lacks) leaves with it, prints the Markdown
//! to `out`, and names every file left out on `err`, one line each. Returns the exit status: 0, 1 when no
//! file was a usable transcript, 4 when, without overwriting, the folder holds a file named as an
//! aggregate's output (found before any input is read; nothing is written then). A write failure
//! throws WriteError naming the file, and nothing of the set is left.
int run_aggregate_command(const AggregateRequest& request, std::ostream& out, std::ostream& err,
                          const std::function<void(const std::string&)>& progress);

}  // namespace labrun
