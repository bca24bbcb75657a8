#include "cli/report_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "evidence/markdown.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/writer.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace labrun {

CLI::App* add_report_command(CLI::App& app, ReportRequest& request) {
  CLI::App* command = app.add_subcommand(
      "report",
      "Render a transcript to standard output (no GPU needed): its Markdown, exactly as the run wrote it, or "
      "with --format another rendering of it.");
  command
      ->add_option("file", request.file,
                   "A transcript written by `labrun run` (.json, or .json.gz compressed)")
      ->required();
  command
      ->add_option("--format", request.format,
                   "What to print: " + describe_formats(report_format_names()) +
                       "; an unknown name exits 2 naming the known ones")
      ->capture_default_str();
  return command;
}

int run_report_command(const ReportRequest& request, std::ostream& out) {
  const TranscriptWriter* writer = find_transcript_writer(request.format);
  if (writer == nullptr || !writer->rendering) {
    throw UsageError(unknown_format_message(request.format, report_format_names()));
  }
  // Read once: the text a writer shows is the text that was checked.
  const TranscriptWithText read = read_transcript_file_with_text(request.file, registered_lab_lookup());
  const Transcript& transcript = read.transcript;
  const std::string& json_text = read.text;
  const Lab* lab = registered_labs().find(transcript.lab_name);
  const WriterInput input{json_text, transcript, lab,
                          writer->links_plots ? plots_section_beside(transcript, lab, request.file) : ""};
  out << writer->render(input);
  return exit_code::kOk;
}

}  // namespace labrun
