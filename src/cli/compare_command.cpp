#include "cli/compare_command.hpp"

#include "base/format.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "compare/compare.hpp"
#include "evidence/transcript_file.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace labrun {

CLI::App* add_compare_command(CLI::App& app, CompareRequest& request) {
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare two transcripts of one lab: shared cases, a verdict per case from the raw samples and "
      "their spread, predicted ratios, and the claims whose verdict differs (no GPU needed).");
  command
      ->add_option("baseline", request.baseline,
                   "The transcript to compare against (.json, or .json.gz compressed)")
      ->required();
  command
      ->add_option("candidate", request.candidate,
                   "The transcript being judged (.json, or .json.gz compressed)")
      ->required();
  command->add_option("--format", request.format, "md or json")
      ->check(CLI::IsMember({"md", "json"}))
      ->capture_default_str();
  command
      ->add_option("--fail-on-regression", request.fail_on_regression,
                   "Exit 6 when a case of the candidate is slower than the baseline by more than PCT percent")
      ->check(non_negative_number());
  return command;
}

int run_compare_command(const CompareRequest& request, std::ostream& out, std::ostream& err) {
  const Transcript baseline = read_transcript_file(request.baseline, registered_lab_lookup());
  const Transcript candidate = read_transcript_file(request.candidate, registered_lab_lookup());
  if (baseline.lab_name != candidate.lab_name) {
    throw UsageError("the transcripts are of different labs (" + baseline.lab_name + ", " +
                     candidate.lab_name + ")");
  }
  const Lab* lab = registered_labs().find(baseline.lab_name);
  const TranscriptComparison comparison =
      compare_transcripts(baseline, candidate, lab != nullptr ? &lab->claims : nullptr);
  if (request.format == "json") {
    out << comparison_to_json(comparison).dump(2) << "\n";
  } else {
    out << comparison_to_markdown(comparison);
  }
  if (request.fail_on_regression) {
    const auto slower = regressions(comparison, *request.fail_on_regression);
    for (const CaseComparison* row : slower) {
      err << "labrun: regression: " << row->name << " at n = " << row->elements << " is "
          << fixed((row->time_ratio - 1.0) * 100.0, 1) << "% slower (limit "
          << fixed(*request.fail_on_regression, 1) << "%)\n";
    }
    if (!slower.empty()) {
      return exit_code::kRegression;
    }
  }
  return exit_code::kOk;
}

}  // namespace labrun
