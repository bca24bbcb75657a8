#include "cli/app.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <memory>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "cli/aggregate_command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/grade_command.hpp"
#include "cli/option_checks.hpp"
#include "cli/version.hpp"
#include "compare/compare.hpp"
#include "device/device_info.hpp"
#include "device/visible_devices.hpp"
#include "evidence/markdown.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "plots/draw_plots.hpp"
#include "process/process.hpp"
#include "profile/profiler.hpp"
#include "registry/registry.hpp"
#include "runner/plan.hpp"
#include "runner/runner.hpp"
#include "timeline/nsys_pass.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

// The options `run` and `profile` share.
void add_run_options(CLI::App* command, RunOptions& options, std::string& out_dir, bool& quiet,
                     std::string& timing_mode, std::string& case_order) {
  command->add_option("lab", options.lab_name, "Lab name, as `labrun list` shows it")->required();
  command->add_option("--case", options.case_patterns,
                      "Glob over case names ('*' and '?'), with or without the lab prefix, e.g. 'part2/*'; "
                      "repeatable; default: every case");
  command->add_option("--out", out_dir,
                      "Directory for the transcript and Markdown (default: evidence/<lab>/<device>)");
  command
      ->add_option("--reps", options.repetitions,
                   "Minimum timed samples per case and size (exactly this many with --target-ci 0)")
      ->check(whole_number_from(1, 100000))
      ->capture_default_str();
  command->add_option("--warmups", options.warmups, "Untimed executions before a case's first sample")
      ->check(whole_number_from(0, 1000))
      ->capture_default_str();
  command->add_option("--max-samples", options.max_samples, "Most timed samples per case and size")
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
                   "Seconds one case may spend sampling before it stops unconverged (it still takes --reps)")
      ->check(positive_number())
      ->capture_default_str();
  command
      ->add_option(
          "--timing", timing_mode,
          "hot: samples back to back, as the lesson times (the host's launch latency included); cold: the L2 "
          "is flushed (2 x its size read, persisting lines reset) before every sample; hot-gated: hot, each "
          "sample queued behind a gate kernel released once its launches are queued, so it is GPU time alone")
      ->check(CLI::IsMember({"hot", "cold", "hot-gated"}))
      ->capture_default_str();
  command
      ->add_option(
          "--order", case_order,
          "declared: cases in the lab's order; shuffle: a seeded random order; interleave: a batch of "
          "samples from every case in turn, so drift does not favour one case")
      ->check(CLI::IsMember({"declared", "shuffle", "interleave"}))
      ->capture_default_str();
  command->add_option("--seed", options.seed, "Seed of the random inputs (and of --order shuffle)")
      ->capture_default_str();
  command->add_flag(
      "--smoke", options.smoke,
      "Tiny sizes (n <= 65536), at most 3 samples, no adaptive sampling: checks the lab runs; the "
      "files are marked smoke");
  command->add_flag("--force", options.overwrite, "Replace existing evidence files of the same name");
  command->add_flag("--quiet", quiet, "No progress lines");
}

constexpr const char* kExitCodes =
    "Exit status: 0 success; 1 failure (CUDA error mid-run, unreadable or invalid transcript, I/O error); "
    "2 usage error; 3 no usable CUDA device; 4 an evidence file exists (use --force); "
    "5 a version failed its correctness check; 6 compare found a regression beyond --fail-on-regression.";

// --device N: narrows CUDA_VISIBLE_DEVICES before anything initialises CUDA.
void choose_device_or_throw(int index) {
  try {
    choose_device(index);
  } catch (const std::out_of_range& error) {
    throw UsageError(error.what());
  }
}

const Lab& find_lab_or_throw(const std::string& name) {
  const Lab* lab = registered_labs().find(name);
  if (lab == nullptr) {
    std::string known;
    for (const Lab& candidate : registered_labs().labs()) {
      known += (known.empty() ? "" : ", ") + candidate.name;
    }
    throw UsageError("unknown lab '" + name + "' (known: " + known + ")");
  }
  return *lab;
}

void list_labs(const std::string& only, std::ostream& out) {
  for (const Lab& lab : registered_labs().labs()) {
    if (!only.empty() && lab.name != only) {
      continue;
    }
    out << lab.name << "  " << lab.title << "\n  " << lab.summary << "\n";
    for (const CaseSpec& spec : lab.cases) {
      out << "    " << spec.name << "  [" << spec.describe_sizes() << "]\n";
    }
  }
}

// One line per file: "FILE: valid (schema X, provenance)" on out, or "FILE: POINTER: problem" on err.
int validate_files_and_report(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
  int status = exit_code::kOk;
  for (const std::string& file : files) {
    const TranscriptCheck check = check_transcript_file(file);
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
    out << file << ": valid (schema " << transcript.schema_version << ", " << transcript.provenance << ")";
    if (!transcript.not_recorded.empty()) {
      std::string lacking;
      for (const std::string& item : transcript.not_recorded) {
        lacking += (lacking.empty() ? "" : ", ") + item;
      }
      out << "; read as " << kTranscriptSchemaVersion << " with not recorded: " << lacking;
    }
    out << "\n";
  }
  return status;
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "labrun: runs GPU course labs and records their evidence (raw CUDA-event timings, "
      "device and build metadata) as JSON transcripts with Markdown tables."};
  app.footer(kExitCodes);
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "Print labrun's version, git commit, CUDA versions and data folder, and exit");

  std::string list_lab;
  CLI::App* list = app.add_subcommand("list", "List the labs and their case names (no GPU needed).");
  list->add_option("lab", list_lab, "Only this lab");

  std::string plan_lab;
  CLI::App* plan =
      app.add_subcommand("plan", "Print a lab's byte model and predicted ratios (no GPU needed).");
  plan->add_option("lab", plan_lab, "Lab name, as `labrun list` shows it")->required();

  std::string report_file;
  CLI::App* report = app.add_subcommand(
      "report",
      "Render the Markdown of a transcript to standard output, exactly as the run wrote it (no GPU needed).");
  report->add_option("file", report_file, "A transcript written by `labrun run` (.json)")->required();

  std::string plot_file;
  std::string plot_format = kPlotsBesideFormat;
  bool plot_force = false;
  CLI::App* plot = app.add_subcommand(
      "plot",
      "Draw a transcript's plots (matplotlib, no GPU needed) beside it as <stem>.<plot>.svg (or .png); with "
      "--force, also render the Markdown beside it again so that it links them.");
  plot->add_option("file", plot_file, "A transcript written by `labrun run` (.json)")->required();
  plot->add_option("--format", plot_format, "svg or png (the Markdown links svg plots only)")
      ->check(CLI::IsMember({"svg", "png"}))
      ->capture_default_str();
  plot->add_flag("--force", plot_force, "Replace existing plot files and the Markdown beside the transcript");

  std::vector<std::string> validate_files;
  CLI::App* validate = app.add_subcommand(
      "validate", "Check transcripts against the JSON Schema of their schema_version (no GPU needed).");
  validate->add_option("files", validate_files, "Transcript files (.json)")->required();

  AggregateRequest aggregate_request;
  CLI::App* aggregate = add_aggregate_command(app, aggregate_request);

  std::string compare_baseline;
  std::string compare_candidate;
  std::string compare_format = "md";
  std::optional<double> fail_on_regression;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "Compare two transcripts of one lab: shared cases, a verdict per case from the raw samples and "
      "their spread, predicted ratios, and the claims whose verdict differs (no GPU needed).");
  compare->add_option("baseline", compare_baseline, "The transcript to compare against (.json)")->required();
  compare->add_option("candidate", compare_candidate, "The transcript being judged (.json)")->required();
  compare->add_option("--format", compare_format, "md or json")
      ->check(CLI::IsMember({"md", "json"}))
      ->capture_default_str();
  compare
      ->add_option("--fail-on-regression", fail_on_regression,
                   "Exit 6 when a case of the candidate is slower than the baseline by more than PCT percent")
      ->check(non_negative_number());

  GradeCommand grade_command;
  std::string grade_lab = "day48-fusion";
  std::vector<std::string> grade_merge;
  std::string grade_shard;
  std::optional<int> grade_device;
  CLI::App* grade = app.add_subcommand(
      "grade",
      "Grade a student's submission for a lab's exercise: check and compile its device code, run its kernels "
      "in "
      "the grader's own process with a time limit, check them, and report (needs a GPU). Students run it on "
      "their "
      "own work too. Exit status: 0 graded, whatever the score; 3 no usable GPU (with --out the reports are "
      "still written, scoring 0 with a message for staff); 1 the grader could not run; 4 a report exists.");
  grade->add_option("submission", grade_command.submission, "The submission's .cu file (docs/grading.md)");
  grade->add_option(
      "--batch", grade_command.batch,
      "Grade every folder of DIR (one .cu file each); needs --out; skips folders whose report exists "
      "unless --force; writes summary.md, .json and .csv with one row per folder, those that could not "
      "be graded included (docs/grading-at-scale.md)");
  grade
      ->add_option(
          "--jobs", grade_command.jobs,
          "With --batch: gradings at once (compiles run side by side on the CPU; checks share a GPU; a "
          "submission's timing never overlaps other GPU work on its GPU); default: one per CPU core")
      ->check(CLI::Range(1, 4096));
  grade->add_option(
      "--devices", grade_command.devices,
      "With --batch: the GPUs to grade on, as labrun numbers them (after CUDA_VISIBLE_DEVICES), e.g. "
      "0,1; default: every GPU");
  grade->add_option(
      "--shard", grade_shard,
      "With --batch: grade only slice I of N (0-based; folder k in name order belongs to slice k % N); "
      "default: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT in a Slurm job array, else all");
  grade
      ->add_option("--merge", grade_merge,
                   "OUT [DIR...]: rebuild one summary in OUT from the per-submission reports under the DIRs "
                   "(default: OUT itself), as the tasks of a job array wrote them")
      ->expected(1, -1);
  grade
      ->add_option("--device", grade_device,
                   "The GPU to grade one submission on, as labrun numbers them (after CUDA_VISIBLE_DEVICES)")
      ->check(CLI::NonNegativeNumber);
  grade->add_option("--manifest", grade_command.manifest,
                    "The manifest (default: NAME.json or manifest.json beside the submission)");
  grade->add_option(
      "--out", grade_command.out,
      "Write results.json (Gradescope), report.json and report.md here (per submission with --batch)");
  grade->add_option("--format", grade_command.format, "What to print: md, json or gradescope")
      ->check(CLI::IsMember({"md", "json", "gradescope"}))
      ->capture_default_str();
  CLI::Option* grade_seed = grade
                                ->add_option("--seed", grade_command.request.seed,
                                             "Base seed of the inputs (each call gets fresh ones)")
                                ->capture_default_str();
  grade->add_flag(
      "--secret-seed", grade_command.secret_seed,
      "Draw the seed from /dev/urandom (per submission) and keep it out of the reports (for graders)");
  grade
      ->add_option("--time-limit", grade_command.request.run_limit_seconds,
                   "Seconds the grading run may take before it is killed")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  grade->add_option("--lab", grade_lab, "The lab whose exercise this is")->capture_default_str();
  grade->add_flag("--force", grade_command.force, "Replace existing report files");

  RunOptions options;
  std::string out_dir;
  bool quiet = false;
  std::string timing_mode = "hot";
  std::string case_order = "declared";
  CLI::App* run = app.add_subcommand(
      "run",
      "Run a lab on one GPU (device 0 unless --device): correctness first, then every selected case; writes "
      "<timestamp>.json and <timestamp>.md and prints the Markdown.");
  add_run_options(run, options, out_dir, quiet, timing_mode, case_order);
  std::optional<int> run_device;
  const char* device_help =
      "The GPU to run on, as labrun numbers them: CUDA's device N, or the N-th entry of CUDA_VISIBLE_DEVICES "
      "when "
      "that is set (labrun narrows CUDA_VISIBLE_DEVICES to it); default 0";
  run->add_option("--device", run_device, device_help)->check(CLI::NonNegativeNumber);
  bool nsys = false;
  const char* timeline_help =
      "Once every case is timed, trace each one with CUPTI (kernels, copies, runtime calls): the transcript "
      "gets each case's kernels, the gaps between them and its launch-call time, and <timestamp>.trace.json "
      "(Perfetto, chrome://tracing) and <timestamp>.timeline.svg are written beside it";
  const char* nsys_help =
      "With --timeline: also run the traced cases under Nsight Systems (nsys profile --trace=cuda,nvtx) and "
      "keep its <timestamp>.nsys-rep beside the transcript; needs nsys on PATH";
  run->add_flag("--timeline", options.timeline, timeline_help);
  run->add_flag("--nsys", nsys, nsys_help);

  CLI::App* timeline = app.add_subcommand(
      "timeline",
      "`labrun run LAB --timeline`: run a lab, then trace its cases with CUPTI (see `run --help`).");
  add_run_options(timeline, options, out_dir, quiet, timing_mode, case_order);
  timeline->add_option("--device", run_device, device_help)->check(CLI::NonNegativeNumber);
  timeline->add_flag("--nsys", nsys, nsys_help);

  std::string profile_dir;
  std::string ncu_path;
  CLI::App* profile = app.add_subcommand(
      "profile",
      "Run a lab as `run` does, then run each case once more under Nsight Compute (ncu) at its largest size "
      "and record the DRAM bytes it moved beside its byte model; keeps the .ncu-rep report.");
  add_run_options(profile, options, out_dir, quiet, timing_mode, case_order);
  profile->add_option("--device", run_device, device_help)->check(CLI::NonNegativeNumber);
  profile->add_option("--profile-dir", profile_dir,
                      "Directory for the .ncu-rep report (default: profiles/<lab>/<device>)");
  profile->add_option("--ncu", ncu_path, "The ncu executable (default: ncu on PATH)");

  // The profiled child of `labrun profile`; not for direct use.
  std::string pass_lab;
  std::vector<std::string> pass_items;
  std::uint64_t pass_seed = 48;
  CLI::App* profile_pass = app.add_subcommand("profile-pass", "");
  profile_pass->group("");
  profile_pass->add_option("lab", pass_lab)->required();
  profile_pass->add_option("--item", pass_items)->required();
  profile_pass->add_option("--seed", pass_seed);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error, out, err);
    return status == 0 ? exit_code::kOk : exit_code::kUsage;
  }

  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err);
  spdlog::logger log("labrun", sink);
  log.set_pattern("labrun [%H:%M:%S] %v");
  log.set_level(quiet ? spdlog::level::warn : spdlog::level::info);
  log.flush_on(spdlog::level::info);
  const auto fail = [&err](int status, const std::string& message) {
    err << "labrun: error: " << message << "\n";
    return status;
  };

  try {
    if (list->parsed()) {
      if (!list_lab.empty()) {
        static_cast<void>(find_lab_or_throw(list_lab));
      }
      list_labs(list_lab, out);
      return exit_code::kOk;
    }
    if (plan->parsed()) {
      out << render_plan(find_lab_or_throw(plan_lab));
      return exit_code::kOk;
    }
    if (validate->parsed()) {
      return validate_files_and_report(validate_files, out, err);
    }
    if (aggregate->parsed()) {
      return run_aggregate_command(aggregate_request, out, err,
                                   [&log](const std::string& line) { log.info(line); });
    }
    if (grade->parsed()) {
      const Lab& lab = find_lab_or_throw(grade_lab);
      if (!lab.grade) {
        throw UsageError("lab " + lab.name + " has no grader");
      }
      grade_command.seed_given = grade_seed->count() > 0;
      if (!grade_merge.empty()) {
        grade_command.merge = grade_merge.front();
        grade_command.merge_from.assign(grade_merge.begin() + 1, grade_merge.end());
      }
      if (!grade_shard.empty()) {
        grade_command.shard = parse_shard(grade_shard);
      } else if (!grade_command.batch.empty()) {
        grade_command.shard = shard_from_slurm([](const char* name) { return std::getenv(name); });
      }
      if (grade_device) {
        if (!grade_command.batch.empty()) {
          throw UsageError("--device is for one submission; a batch takes --devices");
        }
        choose_device_or_throw(*grade_device);
      }
      check_grade_usage(grade_command);
      return run_grade_command(
          lab, grade_command, [&log](const std::string& line) { log.info(line); }, out);
    }
    if (compare->parsed()) {
      const Transcript baseline = read_transcript_file(compare_baseline);
      const Transcript candidate = read_transcript_file(compare_candidate);
      if (baseline.lab_name != candidate.lab_name) {
        throw UsageError("the transcripts are of different labs (" + baseline.lab_name + ", " +
                         candidate.lab_name + ")");
      }
      const Lab* lab = registered_labs().find(baseline.lab_name);
      const TranscriptComparison comparison =
          compare_transcripts(baseline, candidate, lab != nullptr ? &lab->claims : nullptr);
      if (compare_format == "json") {
        out << comparison_to_json(comparison).dump(2) << "\n";
      } else {
        out << comparison_to_markdown(comparison);
      }
      if (fail_on_regression) {
        const auto slower = regressions(comparison, *fail_on_regression);
        for (const CaseComparison* row : slower) {
          err << "labrun: regression: " << row->name << " at n = " << row->elements << " is "
              << fixed((row->time_ratio - 1.0) * 100.0, 1) << "% slower (limit "
              << fixed(*fail_on_regression, 1) << "%)\n";
        }
        if (!slower.empty()) {
          return exit_code::kRegression;
        }
      }
      return exit_code::kOk;
    }
    if (report->parsed()) {
      const Transcript transcript = read_transcript_file(report_file);
      const Lab* lab = registered_labs().find(transcript.lab_name);
      out << render_markdown_beside(transcript, lab, report_file);
      return exit_code::kOk;
    }
    if (plot->parsed()) {
      // The plots and the Markdown go beside the transcript as <stem>.<plot>.svg and <stem>.md: a
      // transcript not named .json could be one of them, and be overwritten by its own rendering.
      if (std::filesystem::path(plot_file).extension() != ".json") {
        throw UsageError(plot_file +
                         ": a transcript to plot must be named .json (its plots and Markdown are "
                         "written beside it as <name>.<plot>.svg and <name>.md)");
      }
      const Transcript transcript = read_transcript_file(plot_file);
      const Lab* lab = registered_labs().find(transcript.lab_name);
      if (lab == nullptr || !lab->plots) {
        throw UsageError("lab " + transcript.lab_name + " draws no plots in this build");
      }
      const std::filesystem::path json_path(plot_file);
      const std::filesystem::path dir = json_path.parent_path().empty() ? "." : json_path.parent_path();
      const std::string stem = json_path.stem().string();
      const PlotOutcome outcome = draw_plots(lab->plots(transcript), dir, stem, plot_format, plot_force);
      if (!outcome.skipped_reason.empty()) {
        return fail(exit_code::kFailure, "no plots drawn: " + outcome.skipped_reason);
      }
      for (const DrawnPlot& drawn : outcome.drawn) {
        out << drawn.file.string() << "\n";
      }
      // The Markdown beside the transcript is a rendering of it: with --force it is rendered again,
      // now linking the plots; without, it is left as it is.
      const std::filesystem::path markdown_path = dir / (stem + ".md");
      if (plot_format == kPlotsBesideFormat) {
        const std::string markdown = render_markdown_beside(transcript, lab, json_path);
        if (!std::filesystem::exists(markdown_path) || plot_force) {
          write_file_atomically(markdown_path, markdown, true);
          log.info("rendered " + markdown_path.string() + " with links to the plots");
        } else if (read_file(markdown_path) != markdown) {
          log.warn(markdown_path.string() +
                   " does not link the plots; pass --force to render it again with them");
        }
      }
      return exit_code::kOk;
    }
    if (profile_pass->parsed()) {
      const Lab& lab = find_lab_or_throw(pass_lab);
      std::vector<ProfileItem> items;
      for (const std::string& text : pass_items) {
        const auto [name, elements] = parse_item_argument(text);
        items.push_back(ProfileItem{name, "", elements, 0.0});
      }
      if (const DeviceAvailability availability = probe_devices(); !availability.usable) {
        throw NoDeviceError("no usable CUDA device: " + availability.error);
      }
      run_profile_pass(lab, items, pass_seed);
      return exit_code::kOk;
    }
    // run or profile
    const Lab& lab = find_lab_or_throw(options.lab_name);
    if (run_device) {
      choose_device_or_throw(*run_device);
    }
    options.out_dir = out_dir;
    try {
      options.mode = timing_mode_from_name(timing_mode);
      options.order = case_order_from_name(case_order);
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
    if (timeline->parsed()) {
      options.timeline = true;
    }
    if (nsys) {
      if (!options.timeline) {
        throw UsageError("--nsys goes with --timeline (or `labrun timeline`)");
      }
      const std::filesystem::path nsys_program = find_on_path("nsys");
      if (nsys_program.empty()) {
        throw UsageError(
            "--nsys needs Nsight Systems, and nsys is not on PATH; `labrun timeline` without --nsys "
            "records the CUPTI trace alone");
      }
      options.nsys = [&, nsys_program](const std::vector<ProfileItem>& items,
                                       const std::filesystem::path& report_base) {
        NsysRequest request;
        request.lab_name = lab.name;
        request.items = items;
        request.seed = options.seed;
        request.nsys = nsys_program;
        request.report_base = report_base;
        request.overwrite = options.overwrite;
        return record_nsys_report(request, [&log](const std::string& line) { log.info(line); }).string();
      };
    }
    if (profile->parsed()) {
      options.profiler = [&](const std::vector<ProfileItem>& items, const std::string& stem) {
        ProfileRequest request;
        request.lab_name = lab.name;
        request.items = items;
        request.seed = options.seed;
        request.ncu = ncu_path;
        const std::filesystem::path dir = profile_dir.empty() ? std::filesystem::path("profiles") / lab.name /
                                                                    device_slug(read_device_sizing().name)
                                                              : std::filesystem::path(profile_dir);
        request.report_file = dir / (stem + ".ncu-rep");
        request.overwrite = options.overwrite;
        ProfileRecord record = profile_lab(request, [&log](const std::string& line) { log.info(line); });
        if (record.status != "measured") {
          log.warn("no DRAM counts: " + record.detail);
        }
        return record;
      };
    }
    for (int i = 0; i < argc; ++i) {
      options.command_line.emplace_back(argv[i]);
    }
    const RunReport result = run_lab(lab, options, [&log](const std::string& line) { log.info(line); });
    out << result.markdown;
    log.info("wrote " + result.json_path.string() + " and " + result.markdown_path.string());
    if (!result.transcript.all_correct()) {
      return fail(exit_code::kIncorrect, "a version failed its correctness check; its cases were not timed");
    }
    return exit_code::kOk;
  } catch (const UsageError& error) {
    return fail(exit_code::kUsage, error.what());
  } catch (const NoDeviceError& error) {
    return fail(exit_code::kNoDevice, error.what());
  } catch (const FileExistsError& error) {
    return fail(exit_code::kFileExists, error.what());
  } catch (const CudaError& error) {
    return fail(exit_code::kFailure, std::string("CUDA failure: ") + error.what());
  } catch (const std::exception& error) {
    return fail(exit_code::kFailure, error.what());
  }
}

}  // namespace labrun
