#include "cli/run_command.hpp"

#include <filesystem>
#include <optional>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "cli/profile_command.hpp"
#include "core/rounds.hpp"
#include "evidence/writer.hpp"
#include "process/process.hpp"
#include "timeline/nsys_pass.hpp"

namespace labrun {

const char* const kRunDeviceHelp =
    "The GPU to run on, as labrun numbers them: CUDA's device N, or the N-th entry of CUDA_VISIBLE_DEVICES "
    "when "
    "that is set (labrun narrows CUDA_VISIBLE_DEVICES to it); default 0";
const char* const kNsysHelp =
    "With --timeline: also run the traced cases under Nsight Systems (nsys profile --trace=cuda,nvtx) and "
    "keep its <timestamp>.nsys-rep beside the transcript; needs nsys on PATH";

namespace {

// `--lock-clocks MHZ`: `nvidia-smi -i BUS -lgc MHZ,MHZ` on the run's device, and `-rgc` after it. A
// refusal (not root, no nvidia-smi, a clock the card does not take) is recorded, never fatal: the
// run goes on with the clocks as they are.
std::function<ClockLock(const std::string&)> nvidia_smi_clock_lock(int mhz) {
  return [mhz](const std::string& pci_bus_id) {
    ClockLock lock;
    const std::string asked = "asked for " + std::to_string(mhz) + " MHz";
    const std::filesystem::path smi = find_on_path("nvidia-smi");
    if (smi.empty()) {
      lock.record = asked + "; not locked: nvidia-smi is not on PATH";
      return lock;
    }
    const std::string range = std::to_string(mhz) + "," + std::to_string(mhz);
    const std::string command = "nvidia-smi -i " + pci_bus_id + " -lgc " + range;
    const ProcessResult locked = run_with_limit({smi.string(), "-i", pci_bus_id, "-lgc", range}, 30.0);
    if (!locked.succeeded()) {
      const std::string why = last_output_line(locked.output);
      lock.record =
          asked + "; not locked: `" + command + "` " + locked.describe() + (why.empty() ? "" : ": " + why);
      return lock;
    }
    lock.record = "locked to " + std::to_string(mhz) + " MHz by `" + command + "`, reset by `nvidia-smi -i " +
                  pci_bus_id + " -rgc` after the run";
    lock.release = [smi, pci_bus_id] {
      static_cast<void>(run_with_limit({smi.string(), "-i", pci_bus_id, "-rgc"}, 30.0));
    };
    return lock;
  };
}

}  // namespace

void add_run_options(CLI::App* command, RunArguments& arguments) {
  RunOptions& options = arguments.options;
  command->add_option("lab", options.lab_name, "Lab name, as `labrun list` shows it")->required();
  command->add_option("--case", options.case_patterns,
                      "Glob over case names ('*' and '?'), with or without the lab prefix, e.g. 'part2/*'; "
                      "repeatable; default: every case");
  command->add_option("--out", arguments.out_dir,
                      "Directory for the transcript and Markdown (default: evidence/<lab>/<device>)");
  std::string formats;
  for (const std::string& name : run_format_names()) {
    const TranscriptWriter& writer = *find_transcript_writer(name);
    formats +=
        (formats.empty() ? "" : ", ") + name + " (<timestamp>" + writer.suffix + ": " + writer.summary + ")";
  }
  command
      ->add_option("--write", options.formats,
                   "Also write the transcript as FORMAT beside it; repeatable: " + formats +
                       ". The JSON transcript and its Markdown are always written")
      ->allow_extra_args(false);
  command
      ->add_option("--reps", options.repetitions,
                   "Minimum timed samples per case and size, over all its rounds (exactly this many with "
                   "--target-ci 0)")
      ->check(whole_number_from(1, 100000))
      ->capture_default_str();
  command->add_option("--warmups", options.warmups, "Untimed executions before a case's first sample")
      ->check(whole_number_from(0, 1000))
      ->capture_default_str();
  command
      ->add_option("--max-samples", options.max_samples,
                   "Most timed samples per case and size, over all its rounds")
      ->check(whole_number_from(1, 1000000))
      ->capture_default_str();
  command
      ->add_option(
          "--target-ci", options.target_relative_median_ci,
          "Stop sampling a case once the 95% confidence interval of its median is within this fraction "
          "of the median (0.005 = 0.5%); 0 takes exactly --reps samples")
      ->check(number_from(0.0, 1.0))
      ->capture_default_str();
  command
      ->add_option("--case-time-limit", options.case_time_limit_s,
                   "Seconds one case may spend sampling, over all its rounds, before it stops unconverged "
                   "(it still takes --reps)")
      ->check(positive_number())
      ->capture_default_str();
  command
      ->add_option(
          "--timing", arguments.timing_mode,
          "hot: samples back to back, as the lesson times (the host's launch latency included; small cases "
          "and those a claim sets against a bound are also sampled behind a gate, and those claims judged "
          "on both); cold: the L2 "
          "is flushed (2 x its size read, persisting lines reset) before every sample; hot-gated: hot, each "
          "sample queued behind a gate kernel released once its launches are queued, so it is GPU time alone")
      ->check(CLI::IsMember({"hot", "cold", "hot-gated"}))
      ->capture_default_str();
  command
      ->add_option(
          "--order", arguments.case_order,
          "declared: cases in the lab's order; shuffle: a seeded random order; interleave: a batch of "
          "samples from every case in turn, so drift does not favour one case")
      ->check(CLI::IsMember({"declared", "shuffle", "interleave"}))
      ->capture_default_str();
  command
      ->add_option("--rounds", arguments.rounds,
                   "Measure every case this many times, each round on freshly allocated buffers and in a "
                   "case order of its own drawn from --seed; --reps, --max-samples and --case-time-limit "
                   "are shared between the rounds, and every figure a prediction or claim reads gets a 95% "
                   "interval from the spread between its CUDA contexts (1: one round, no interval). "
                   "Default: the lab's, 5 unless its claims need more (`labrun plan LAB` says)")
      ->check(whole_number_from(1, 1000));
  command
      ->add_option("--rounds-per-context", options.rounds_per_context,
                   "Rounds run in one CUDA context before the run destroys it and creates the next (each "
                   "about 0.3 s on an H200); the contexts are the units of every interval. 1: each round "
                   "in a context of its own; --rounds or more: every round in one context, as before "
                   "transcript 1.8.0")
      ->check(whole_number_from(1, 1000))
      ->capture_default_str();
  command
      ->add_option("--small-case-rounds", options.small_case_rounds,
                   "Rounds each case of at most 65536 elements (--small-case-rounds-max-elements) takes, "
                   "at least --rounds; the extra rounds time those cases alone, each in a CUDA context as "
                   "any round is, and their budget is shared between all their rounds. 0: " +
                       small_case_contexts_words() +
                       ", or --rounds where that is more, with 2 contexts or more (a small case's level "
                       "moves with its context), else --rounds; --rounds with --smoke")
      ->check(whole_number_from(0, 1000))
      ->capture_default_str();
  command
      ->add_option("--small-case-rounds-max-elements", options.small_case_rounds_max_elements,
                   "Precision experiment: the most elements a case may have and still take the small "
                   "cases' rounds (--small-case-rounds). A larger value, such as 16777216, times the "
                   "cases at the lesson's size in those extra CUDA contexts too; the transcript records "
                   "it (timing.small_case_rounds_max_elements), and every reader judges the run by it")
      ->check(whole_number_from(1, 1099511627776))
      ->capture_default_str();
  command
      ->add_option("--seed", options.seed,
                   "Seed of the random inputs (and of --order shuffle and each round's case order)")
      ->capture_default_str();
  command
      ->add_option("--small-case-batch", options.small_case_batch,
                   "Precision experiment, off at 1: time this many samples of a case of one execution per "
                   "sample and at most 262144 elements between one pair of events, recording their time "
                   "over this count (launch latency is then shared between them)")
      ->check(whole_number_from(1, 64))
      ->capture_default_str();
  command
      ->add_option("--pin-cpu", options.pin_cpu,
                   "Precision experiment: pin the thread that launches every sample to this CPU")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--device-warmup", options.device_warmup_s,
                   "Precision experiment: keep the GPU busy this many seconds before the first sample")
      ->check(number_from(0.0, 60.0))
      ->capture_default_str();
  command->add_option(
      "--lock-clocks", arguments.lock_clocks_mhz,
      "Precision experiment, opt-in: lock the SM clock to MHZ with nvidia-smi -lgc for the run (needs root) "
      "and reset it after; what was done, or why not, is recorded in the transcript");
  command->add_flag(
      "--smoke", options.smoke,
      "Tiny sizes (n <= 65536), at most 3 samples (in at most 3 rounds), no adaptive sampling: checks the "
      "lab runs; the files are marked smoke");
  command->add_flag("--force", options.overwrite, "Replace existing evidence files of the same name");
  command->add_flag("--quiet", arguments.quiet, "No progress lines");
}

CLI::App* add_run_command(CLI::App& app, RunArguments& arguments) {
  CLI::App* run = app.add_subcommand(
      "run",
      "Run a lab on one GPU (device 0 unless --device): correctness first, then every selected case; writes "
      "<timestamp>.json and <timestamp>.md and prints the Markdown.");
  add_run_options(run, arguments);
  run->add_option("--device", arguments.device, kRunDeviceHelp)->check(CLI::NonNegativeNumber);
  const char* timeline_help =
      "Once every case is timed, trace each one with CUPTI (kernels, copies, runtime calls): the transcript "
      "gets each case's kernels, the gaps between them and its launch-call time, and <timestamp>.trace.json "
      "(Perfetto, chrome://tracing) and <timestamp>.timeline.svg are written beside it";
  run->add_flag("--timeline", arguments.options.timeline, timeline_help);
  run->add_flag("--nsys", arguments.nsys, kNsysHelp);
  run->add_option(
      "--submission", arguments.submission,
      "A folder holding a student's exercise as `labrun grade` takes it (one .cu file and its manifest): it "
      "is "
      "checked, compiled to device code and loaded the grader's way, and timed as one more case beside the "
      "lab's own, with the manifest's bytes and launches; with --case, its case is added to those selected. "
      "Only labs with a graded exercise take one (day48-fusion, fusion-verdicts)");
  return run;
}

int run_run_command(RunArguments& arguments, RunCommandKind kind,
                    const std::vector<std::string>& command_line,
                    const std::function<void(const std::string&)>& info,
                    const std::function<void(const std::string&)>& warn, std::ostream& out,
                    std::ostream& err) {
  RunOptions& options = arguments.options;
  const Lab& registered = find_lab_or_throw(options.lab_name);
  options.rounds = arguments.rounds.value_or(registered.default_rounds);
  std::error_code not_a_folder;
  if (!arguments.submission.empty() && !std::filesystem::is_directory(arguments.submission, not_a_folder)) {
    throw UsageError("--submission " + arguments.submission + ": not a folder");
  }
  const LabExercise* exercise =
      arguments.submission.empty() ? nullptr : submission_exercise(registered, arguments.submission);
  if (arguments.device) {
    choose_device_or_throw(*arguments.device);
  }
  options.out_dir = arguments.out_dir;
  try {
    options.mode = timing_mode_from_name(arguments.timing_mode);
    options.order = case_order_from_name(arguments.case_order);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  if (kind == RunCommandKind::kTimeline) {
    options.timeline = true;
  }
  if (arguments.nsys) {
    if (!options.timeline) {
      throw UsageError("--nsys goes with --timeline (or `labrun timeline`)");
    }
    const std::filesystem::path nsys_program = find_on_path("nsys");
    if (nsys_program.empty()) {
      throw UsageError(
          "--nsys needs Nsight Systems, and nsys is not on PATH; `labrun timeline` without --nsys "
          "records the CUPTI trace alone");
    }
    options.nsys = [&options, lab_name = registered.name, info, nsys_program](
                       const std::vector<ProfileItem>& items, const std::filesystem::path& report_base) {
      NsysRequest request;
      request.lab_name = lab_name;
      request.items = items;
      request.seed = options.seed;
      request.nsys = nsys_program;
      request.report_base = report_base;
      request.overwrite = options.overwrite;
      return record_nsys_report(request, info).string();
    };
  }
  if (kind == RunCommandKind::kProfile) {
    options.profiler = ncu_profiler(registered, arguments, info, warn);
  }
  if (arguments.lock_clocks_mhz) {
    options.lock_clocks = nvidia_smi_clock_lock(*arguments.lock_clocks_mhz);
  }
  // The lab as this run declares it: with a student's submission, one more case (and its check,
  // predictions and facts); the lab's own cases are unchanged.
  std::optional<Lab> with_student;
  if (!arguments.submission.empty()) {
    with_student = exercise->with_submission(registered, arguments.submission, info);
    if (!options.case_patterns.empty()) {
      for (const CaseSpec& added : with_student->cases) {
        if (registered.find_case(added.name) == nullptr) {
          options.case_patterns.push_back(added.name);
          info("--submission adds " + added.name + " to the cases --case selects");
        }
      }
    }
  }
  const Lab& lab = with_student ? *with_student : registered;
  options.command_line.insert(options.command_line.end(), command_line.begin(), command_line.end());
  const RunReport result = run_lab(lab, options, info);
  out << result.markdown;
  std::string written = result.json_path.string();
  for (const std::filesystem::path& file : result.format_files) {
    written += ", " + file.string();
  }
  info("wrote " + written + " and " + result.markdown_path.string());
  if (!result.transcript.all_correct()) {
    return report_error(err, exit_code::kIncorrect,
                        "a version failed its correctness check; its cases were not timed");
  }
  return exit_code::kOk;
}

}  // namespace labrun
