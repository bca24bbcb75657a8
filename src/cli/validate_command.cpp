#include "cli/validate_command.hpp"

#include "base/format.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "evidence/transcript_file.hpp"

namespace labrun {

CLI::App* add_validate_command(CLI::App& app, ValidateRequest& request) {
  CLI::App* command = app.add_subcommand(
      "validate", "Check transcripts against the JSON Schema of their schema_version (no GPU needed).");
  command->add_option("files", request.files, "Transcript files (.json, or .json.gz compressed)")->required();
  return command;
}

int run_validate_command(const ValidateRequest& request, std::ostream& out, std::ostream& err) {
  int status = exit_code::kOk;
  for (const std::string& file : request.files) {
    const TranscriptCheck check = check_transcript_file(file, registered_lab_lookup());
    if (!check.transcript) {
      err << "labrun: " << check.problem;
      if (check.more_problems > 0) {
        err << " (" << check.more_problems << " more)";
      }
      err << "\n";
      status = exit_code::kFailure;
      continue;
    }
    const Transcript& transcript = *check.transcript;
    out << one_line(file) << ": valid (schema " << transcript.schema_version << ", " << transcript.provenance
        << ")";
    if (!transcript.not_recorded.empty()) {
      std::string lacking;
      for (const std::string& item : transcript.not_recorded) {
        lacking += (lacking.empty() ? "" : ", ") + item;
      }
      out << "; read as " << kTranscriptSchemaVersion << " with not recorded: " << lacking;
    }
    // What could not be confirmed is said, never passed as checked (evidence/declaration_check.hpp).
    const std::vector<UncheckedFigure>& unchecked = check.declaration.unchecked;
    if (!check.declaration.lab_known) {
      out << "; lab " << one_line(transcript.lab_name)
          << " is not part of this labrun: its claims are as recorded, unchecked";
    } else if (!unchecked.empty()) {
      out << "; " << unchecked.size() << " recorded " << (unchecked.size() == 1 ? "figure" : "figures")
          << " unchecked, never counted as evidence (first: " << unchecked.front().pointer << ": "
          << one_line(unchecked.front().reason) << ")";
    }
    out << "\n";
  }
  return status;
}

}  // namespace labrun
