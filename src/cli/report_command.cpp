#include "cli/report_command.hpp"

#include "cli/exit_codes.hpp"
#include "evidence/markdown.hpp"
#include "evidence/transcript_file.hpp"
#include "registry/registry.hpp"

namespace labrun {

CLI::App* add_report_command(CLI::App& app, ReportRequest& request) {
  CLI::App* command = app.add_subcommand(
      "report",
      "Render the Markdown of a transcript to standard output, exactly as the run wrote it (no GPU needed).");
  command->add_option("file", request.file, "A transcript written by `labrun run` (.json)")->required();
  return command;
}

int run_report_command(const ReportRequest& request, std::ostream& out) {
  const Transcript transcript = read_transcript_file(request.file);
  const Lab* lab = registered_labs().find(transcript.lab_name);
  out << render_markdown_beside(transcript, lab, request.file);
  return exit_code::kOk;
}

}  // namespace labrun
