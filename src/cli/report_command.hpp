#pragma once
// `labrun report FILE.json [--format NAME]`: a transcript rendered, by default as the Markdown the
// run wrote.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace labrun {

struct ReportRequest {
  std::string file;           //!< the transcript
  std::string format = "md";  //!< a rendering's name (evidence/writer.hpp: report_format_names())
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_report_command(CLI::App& app, ReportRequest& request);

//! Prints the transcript in the format asked for (the Markdown links the plots drawn beside it).
//! Returns 0; throws UsageError for a format report does not render (before the file is read) and
//! InvalidTranscript for a file that is not a valid transcript.
int run_report_command(const ReportRequest& request, std::ostream& out);

}  // namespace labrun
