#pragma once
// `labrun compare BASELINE CANDIDATE`: two transcripts of one lab side by side.

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>

namespace labrun {

struct CompareRequest {
  std::string baseline;
  std::string candidate;
  std::string format = "md";  //!< what to print: "md" or "json"
  //! Percent: exit 6 when a shared case of the candidate is slower than the baseline by more.
  std::optional<double> fail_on_regression;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_compare_command(CLI::App& app, CompareRequest& request);

//! Prints the comparison on `out` and each regression beyond the limit as one line on `err`.
//! Returns 0, or 6 when a case regressed beyond --fail-on-regression; throws InvalidTranscript for
//! an invalid file and UsageError for transcripts of different labs.
int run_compare_command(const CompareRequest& request, std::ostream& out, std::ostream& err);

}  // namespace labrun
