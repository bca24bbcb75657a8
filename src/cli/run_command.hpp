#pragma once
// `labrun run LAB`: a lab run on one GPU, its transcript and renderings written. `timeline` and
// `profile` are `run` with a pass added (timeline_command.cpp, profile_command.cpp); the options
// all three share are added here.

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "runner/runner.hpp"

namespace labrun {

//! The options of `run`, `timeline` and `profile`, as parsed.
struct RunArguments {
  RunOptions options;
  std::string out_dir;
  bool quiet = false;
  std::string timing_mode = "hot";
  std::string case_order = "declared";
  std::optional<int> device;           //!< --device N
  bool nsys = false;                   //!< --nsys (with --timeline)
  std::string submission;              //!< `run --submission DIR`: a student's exercise as one more case
  std::string profile_dir;             //!< `profile`: where the .ncu-rep goes
  std::string ncu_path;                //!< `profile`: the ncu executable
  std::optional<int> lock_clocks_mhz;  //!< --lock-clocks MHZ (opt-in; needs root)
  std::optional<int> rounds;           //!< --rounds N; without it, the lab's Lab::default_rounds
};

//! Which command asked for the run.
enum class RunCommandKind { kRun, kTimeline, kProfile };

//! The help of --device and --nsys, the same in each command that takes them.
extern const char* const kRunDeviceHelp;
extern const char* const kNsysHelp;

//! Adds the options `run`, `timeline` and `profile` share (the lab, --case, --out, sampling,
//! --timing, --order, --rounds, --seed, the small-n precision options, --smoke, --force, --quiet) to
//! `command`.
void add_run_options(CLI::App* command, RunArguments& arguments);

//! Adds the subcommand and its options to `app`, filling `arguments` when parsed.
CLI::App* add_run_command(CLI::App& app, RunArguments& arguments);

//! Runs the lab (runner/runner.hpp) with the pass `kind` adds, prints the Markdown on `out` and
//! the files written through `info`. `command_line` is recorded in the transcript. Returns 0, or 5
//! when a version failed its correctness check; throws UsageError (before any device is touched),
//! NoDeviceError, FileExistsError, CudaError or std::runtime_error.
int run_run_command(RunArguments& arguments, RunCommandKind kind,
                    const std::vector<std::string>& command_line,
                    const std::function<void(const std::string&)>& info,
                    const std::function<void(const std::string&)>& warn, std::ostream& out,
                    std::ostream& err);

}  // namespace labrun
