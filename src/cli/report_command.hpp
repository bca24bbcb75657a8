#pragma once
// `labrun report FILE.json`: the Markdown of a transcript, as the run wrote it.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace labrun {

struct ReportRequest {
  std::string file;  //!< the transcript
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_report_command(CLI::App& app, ReportRequest& request);

//! Prints the Markdown of the transcript, linking the plots drawn beside it. Returns 0; throws
//! InvalidTranscript for a file that is not a valid transcript.
int run_report_command(const ReportRequest& request, std::ostream& out);

}  // namespace labrun
