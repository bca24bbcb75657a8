#include "cli/app.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/descriptor_output.hpp"
#include "base/format.hpp"
#include "cli/aggregate_command.hpp"
#include "cli/command_support.hpp"
#include "cli/compare_command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/grade_command.hpp"
#include "cli/list_command.hpp"
#include "cli/plan_command.hpp"
#include "cli/plot_command.hpp"
#include "cli/profile_command.hpp"
#include "cli/report_command.hpp"
#include "cli/run_command.hpp"
#include "cli/timeline_command.hpp"
#include "cli/validate_command.hpp"
#include "cli/version.hpp"
#include "registry/lab.hpp"
#include "registry/registry.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

static_assert(exit_code::kSubmission == kSubmissionExitStatus, "one exit status for an unusable submission");

constexpr const char* kExitCodes =
    "Exit status: 0 success; 1 failure (CUDA error mid-run, unreadable or invalid transcript, I/O error); "
    "2 usage error; 3 no usable CUDA device; 4 an evidence file exists (use --force); "
    "5 a version failed its correctness check; 6 compare found a regression beyond --fail-on-regression; "
    "7 run --submission: the submission cannot be used (the message says why).";

// The first word after the command that starts with '-' and is neither an option of the command
// or of labrun, "-", a number, nor after "--": CLI11 reads it as an option it does not know, and
// says only what is then missing ("files is required"). Empty when there is none.
std::string unknown_dash_word(const CLI::App& app, int argc, const char* const* argv,
                              std::string& command_name) {
  const CLI::App* command = nullptr;
  const std::function<bool(const CLI::App*)> every = [](const CLI::App*) { return true; };
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") {
      return "";
    }
    if (command == nullptr) {
      for (const CLI::App* candidate : app.get_subcommands(every)) {
        if (candidate->check_name(word)) {
          command = candidate;
          command_name = candidate->get_name();
        }
      }
      continue;
    }
    if (word.size() < 2 || word[0] != '-' || word.find_first_not_of("-0123456789.eE+") == std::string::npos) {
      continue;
    }
    const std::string name = word.substr(0, word.find('='));
    if (command->get_option_no_throw(name) == nullptr && app.get_option_no_throw(name) == nullptr) {
      return word;
    }
  }
  return "";
}

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const int status = run_command(argc, argv, out, err);
  // What a command printed counts only once it is written: a short or failed write is exit 1.
  out.flush();
  if (out.good()) {
    return status;
  }
  return report_error(err, exit_code::kFailure,
                      output_failure(out.rdbuf(), "standard output") + " (what was printed is incomplete)");
}

namespace {

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "labrun: runs GPU course labs and records their evidence (raw CUDA-event timings, "
      "device and build metadata) as JSON transcripts with Markdown tables."};
  app.footer(kExitCodes);
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "Print labrun's version, git commit, CUDA versions and data folder, and exit");

  // Each command has its own file (cli/<command>_command.cpp); they are added in the order
  // `labrun --help` lists them.
  ListRequest list_request;
  CLI::App* list = add_list_command(app, list_request);
  PlanRequest plan_request;
  CLI::App* plan = add_plan_command(app, plan_request);
  ReportRequest report_request;
  CLI::App* report = add_report_command(app, report_request);
  PlotRequest plot_request;
  CLI::App* plot = add_plot_command(app, plot_request);
  ValidateRequest validate_request;
  CLI::App* validate = add_validate_command(app, validate_request);
  AggregateRequest aggregate_request;
  CLI::App* aggregate = add_aggregate_command(app, aggregate_request);
  CompareRequest compare_request;
  CLI::App* compare = add_compare_command(app, compare_request);
  GradeArguments grade_arguments;
  CLI::App* grade = add_grade_command(app, grade_arguments);
  // run, timeline and profile fill the same arguments: one of them is parsed.
  RunArguments run_arguments;
  add_run_command(app, run_arguments);
  CLI::App* timeline = add_timeline_command(app, run_arguments);
  CLI::App* profile = add_profile_command(app, run_arguments);
  ProfilePassRequest profile_pass_request;
  CLI::App* profile_pass = add_profile_pass_command(app, profile_pass_request);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::string command;
    if (error.get_exit_code() != 0) {
      if (const std::string word = unknown_dash_word(app, argc, argv, command); !word.empty()) {
        return report_error(err, exit_code::kUsage,
                            "'" + one_line(word) + "' is not an option of `labrun " + command +
                                "`; a file whose name starts with '-' goes after --, as in `labrun " +
                                command + " -- " + one_line(word) + "`, or is named ./" + one_line(word));
      }
    }
    const int status = app.exit(error, out, err);
    return status == 0 ? exit_code::kOk : exit_code::kUsage;
  }

  // A lab whose declaration has a mistake is left out of the build's registry (registry/registry.hpp):
  // every command says so in one line, and every other lab still works.
  for (const LeftOutLab& left_out : registered_labs().left_out()) {
    err << left_out_line(left_out) << "\n";
  }
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err);
  spdlog::logger log("labrun", sink);
  log.set_pattern("labrun [%H:%M:%S] %v");
  log.set_level(run_arguments.quiet ? spdlog::level::warn : spdlog::level::info);
  log.flush_on(spdlog::level::info);
  const auto info = [&log](const std::string& line) { log.info(line); };
  const auto warn = [&log](const std::string& line) { log.warn(line); };

  try {
    if (list->parsed()) {
      return run_list_command(list_request, out);
    }
    if (plan->parsed()) {
      return run_plan_command(plan_request, out);
    }
    if (validate->parsed()) {
      return run_validate_command(validate_request, out, err);
    }
    if (aggregate->parsed()) {
      return run_aggregate_command(aggregate_request, out, err, info);
    }
    if (grade->parsed()) {
      return run_grade_arguments(grade_arguments, info, out);
    }
    if (compare->parsed()) {
      return run_compare_command(compare_request, out, err);
    }
    if (report->parsed()) {
      return run_report_command(report_request, out);
    }
    if (plot->parsed()) {
      return run_plot_command(plot_request, out, err, info, warn);
    }
    if (profile_pass->parsed()) {
      return run_profile_pass_command(profile_pass_request);
    }
    // run, timeline or profile
    const RunCommandKind kind = timeline->parsed()  ? RunCommandKind::kTimeline
                                : profile->parsed() ? RunCommandKind::kProfile
                                                    : RunCommandKind::kRun;
    return run_run_command(run_arguments, kind, std::vector<std::string>(argv, argv + argc), info, warn, out,
                           err);
  } catch (const UsageError& error) {
    return report_error(err, exit_code::kUsage, error.what());
  } catch (const NoDeviceError& error) {
    return report_error(err, exit_code::kNoDevice, error.what());
  } catch (const FileExistsError& error) {
    return report_error(err, exit_code::kFileExists, error.what());
  } catch (const SubmissionError& error) {
    return report_error(err, exit_code::kSubmission, error.what());
  } catch (const CudaError& error) {
    return report_error(err, exit_code::kFailure, std::string("CUDA failure: ") + error.what());
  } catch (const std::exception& error) {
    return report_error(err, exit_code::kFailure, error.what());
  }
}

}  // namespace

}  // namespace labrun
