#include "exercise/grader.hpp"

#include <cuda_runtime_api.h>
#include <sys/stat.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <random>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/json_parse.hpp"
#include "core/install_layout.hpp"
#include "core/sizes.hpp"
#include "core/wall_clock.hpp"
#include "device/device_info.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/judge.hpp"
#include "exercise/sanitizer_screen.hpp"
#include "exercise/submission_build.hpp"
#include "exercise/worker_pool.hpp"
#include "exercise/worker_protocol.hpp"
#include "grading/device_image.hpp"
#include "grading/manifest.hpp"
#include "grading/sanitizer_log.hpp"
#include "grading/source_check.hpp"
#include "grading/utf8.hpp"
#include "grading/worker_reuse.hpp"
#include "process/process.hpp"
#include "runner/runner.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace fs = std::filesystem;

std::uint64_t sanitize_timed_elements(const std::string& tool, std::uint64_t card_elements) {
  return tool == "racecheck" ? std::min(card_elements, kRacecheckTimedElementsMax) : card_elements;
}

namespace {

constexpr std::uint64_t kContextBytes = std::uint64_t{1}
                                        << 30;  // a CUDA context and the child's small buffers
constexpr std::size_t kSanitizerLogMaxBytes = std::size_t{16} * 1024 * 1024;
constexpr std::size_t kPhaseMaxBytes = 4096;
constexpr std::uint64_t kChildFileSizeLimit = 64ull * 1024 * 1024;
// Buffers of the large size the child holds besides the exercise's: the harness's streams of the
// card's memory (child_session.hpp), read and written while it times the lab's kernels.
constexpr std::uint64_t kStreamBuffers = 2;
// Seconds the grading holds the GPU to itself beyond the child's own timing limit: its lab-time
// check and the end of the process. Past it labrun ends the child and gives the turn back.
constexpr double kTimingTurnMarginSeconds = 5.0;

// The grading child: the request's, $LABRUN_GRADE_CHILD, or the helper program installed with labrun
// (libexec/labrun, or beside labrun in a build tree). Throws DataFileNotFound naming where it
// looked.
fs::path child_program(const GradeRequest& request) {
  if (!request.child.empty()) {
    return request.child;
  }
  if (const char* from_environment = std::getenv("LABRUN_GRADE_CHILD")) {
    return from_environment;
  }
  return find_helper_program(kGradeChildProgram);
}

// What the grader needs of the GPU, read without creating a context (the child creates the only
// one), or the request's simulated GPU.
GradingGpu read_grading_gpu(const GradeRequest& request) {
  if (request.simulated_gpu) {
    return *request.simulated_gpu;
  }
  cudaDeviceProp properties{};
  if (const cudaError_t error = cudaGetDeviceProperties(&properties, request.device); error != cudaSuccess) {
    throw NoDeviceError("no usable CUDA device: " + describe_cuda_error(error));
  }
  return GradingGpu{properties.major,
                    properties.minor,
                    static_cast<std::uint64_t>(properties.l2CacheSize),
                    static_cast<std::uint64_t>(properties.totalGlobalMem),
                    properties.multiProcessorCount,
                    properties.maxThreadsPerMultiProcessor};
}

std::string architecture(const GradingGpu& gpu) {
  return "sm_" + std::to_string(gpu.major) + std::to_string(gpu.minor);
}

// The card-scaled size when the card reports its L2 and the child's buffers fit, else the lesson's.
std::uint64_t large_size(const Exercise& ex, const GradingGpu& gpu) {
  if (gpu.l2_bytes == 0) {
    return ex.lesson_elements;
  }
  const std::uint64_t card = card_scaled_elements(gpu.l2_bytes, 4, 8);
  const auto buffers = static_cast<std::uint64_t>(ex.child_buffers) + kStreamBuffers;
  return fits_in_device_memory(card * 4 * buffers, gpu.memory_bytes) ? card : ex.lesson_elements;
}

// The most device memory one grading can hold: its child's, and one of its compute-sanitizer runs'
// (each run holds a shared turn while it runs, and a GPU has no more shared turns at once than
// gradings, so counting one run a grading counts every run on the GPU). A process holds its buffers
// (the child: the exercise's and the streams'; a sanitizer run: its replica of a timed call's) and
// its context, and what the submission may take besides (its global variables, and the child's copy
// of them as loaded; the local memory reserved for every thread the GPU holds at its per-thread
// bound; the device heap).
std::uint64_t grading_memory_bytes(const Exercise& ex, const GradingGpu& gpu) {
  const std::uint64_t resident_threads =
      static_cast<std::uint64_t>(std::max(gpu.multiprocessors, 1)) *
      static_cast<std::uint64_t>(std::max(gpu.max_threads_per_multiprocessor, 1));
  const std::uint64_t globals = kStaticDeviceMemoryMaxBytes * 2;  // and the child's copy of them at load
  const std::uint64_t per_process =
      kContextBytes + globals + kLocalBytesPerThreadMax * resident_threads + kDeviceHeapBytes;
  const std::uint64_t large = large_size(ex, gpu) * 4;
  const std::uint64_t child = large * (static_cast<std::uint64_t>(ex.child_buffers) + kStreamBuffers);
  const std::uint64_t sanitizer_run = large * static_cast<std::uint64_t>(ex.timed_call_buffers);
  return child + sanitizer_run + 2 * per_process;
}

std::uint64_t fresh_seed() {
  std::random_device entropy;
  return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

void write_request(const fs::path& path, const ChildRequest& request) {
  write_file_atomically(path, to_json(request).dump(2) + "\n", true);
  ::chmod(path.c_str(), 0600);
}

// The request of `tool`'s run, "request-TOOL.json" in the scratch folder: its own fresh seed, and
// its replica of a timed call at the timed calls' size (racecheck: at most kRacecheckTimedElementsMax).
std::string write_sanitize_request(const fs::path& scratch, const ChildRequest& base,
                                   const std::string& tool) {
  ChildRequest request = base;
  request.mode = "sanitize";
  request.seed = fresh_seed();
  request.sanitize_timed_elements = sanitize_timed_elements(tool, base.card_elements);
  request.phase = "phase-" + tool + ".txt";
  std::string request_file = "request-" + tool + ".json";
  write_request(scratch / request_file, request);
  return request_file;
}

// compute-sanitizer's verdict comes from its own log file (--log-file), never from the program's
// output, which a kernel's printf could fill with anything. The child runs the submission's kernels
// once at each of the request's sanitizer sizes (the small odd one and the graded odd one) in
// buffers of exactly n elements, then in its replica of a timed call (ChildSession::sanitize_runs).
SanitizerRun sanitize(const fs::path& sanitizer, const std::string& tool, const fs::path& child,
                      const fs::path& scratch, const ChildRequest& base, double limit,
                      const std::string& visible_devices) {
  const std::string request_file = write_sanitize_request(scratch, base, tool);
  const std::string log_file = "sanitizer-" + tool + ".log";
  const auto since = std::chrono::steady_clock::now();
  std::vector<std::string> command = sanitizer_command(sanitizer.string(), tool, log_file);
  command.insert(command.end(), {child.string(), "--request", request_file});
  const ProcessResult run =
      run_contained(contained(std::move(command), limit, scratch, kChildFileSizeLimit, visible_devices));
  SanitizerRun result;
  result.tool = tool;
  result.seconds = seconds_since(since);
  std::string log;
  try {
    log = read_regular_file(scratch / log_file, kSanitizerLogMaxBytes);
  } catch (const std::exception&) {
    log.clear();
  }
  const SanitizerLogReading reading = read_sanitizer_log(log, run.succeeded(), run.describe());
  result.clean = run.succeeded() && reading.reports_no_errors;
  result.finished = !reading.summary.empty();
  result.summary = valid_utf8(reading.said);
  return result;
}

std::string read_phase(const fs::path& path) {
  try {
    std::string text = read_regular_file(path, kPhaseMaxBytes);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
      text.pop_back();
    }
    return valid_utf8(text);
  } catch (const std::exception&) {
    return "";
  }
}

JudgeInput read_manifest_into(const Exercise& ex, const GradeRequest& request, JudgeInput input) {
  const fs::path manifest_path =
      request.manifest.empty() ? manifest_beside(request.submission) : request.manifest;
  if (manifest_path.empty()) {
    input.manifest_missing = true;
    input.manifest_problem = "none given and none beside the submission (" +
                             request.submission.stem().string() + ".json or manifest.json)";
    return input;
  }
  std::error_code link_error;
  if (fs::is_symlink(manifest_path, link_error)) {
    input.manifest_problem = manifest_path.filename().string() +
                             " is a symbolic link, which the grader does not follow (it could name any "
                             "file of the grading machine): submit the manifest itself";
    return input;
  }
  try {
    input.manifest = read_manifest(manifest_path, ex.manifest_schema());
  } catch (const ManifestError& error) {
    input.manifest_problem = valid_utf8(error.what());
  }
  return input;
}

// The submission's source, or the problem that keeps it from being read, of the kind the report
// names: a link (never followed: it could name any file of the grading machine), a file over the
// size limit, anything but a regular file.
std::string read_source(const fs::path& path, std::vector<SourceProblem>& problems) {
  std::error_code error;
  if (fs::is_symlink(path, error)) {
    problems.push_back(
        {0,
         path.filename().string() +
             " is a symbolic link, which the grader does not follow (it could name any file of "
             "the grading machine): submit the source file itself",
         kSourceIsLink});
    return "";
  }
  const auto bytes = fs::file_size(path, error);
  if (!error && bytes > kSubmissionMaxBytes) {
    problems.push_back({0,
                        "the source is " + std::to_string(bytes) + " bytes, more than the " +
                            std::to_string(kSubmissionMaxBytes) + " a submission may have",
                        kSourceTooLarge});
    return "";
  }
  try {
    return read_regular_file(path, kSubmissionMaxBytes);
  } catch (const std::exception& failure) {
    problems.push_back({0, valid_utf8(failure.what()), kSourceUnreadable});
    return "";
  }
}

// Runs the grading child with a budget of `run_limit` seconds of its own work. In a batch (turns
// given, and the grading not alone) it holds a shared turn on its GPU while it checks; when it says
// it is ready to time, `checked` is called, and the budget stops while labrun trades the shared
// turn for an exclusive one,
// and from then on at most `timing_turn_limit` more seconds are spent, so that a child stalling
// while it holds the GPU to itself is ended then and the turn given back. Appends to `phases` the
// seconds spent waiting for each turn and running under it. The turn is given back when the
// process has ended, not when the child says its timing is over (kTimedFile, which a grading
// worker's turn ends on: worker_pool.hpp): ending a process destroys its context, work on the GPU
// that must not overlap the next timer.
ProcessResult run_child(SpawnOptions options, const fs::path& scratch, GpuTurns* turns, double run_limit,
                        double timing_turn_limit, std::vector<std::pair<std::string, double>>& phases,
                        const std::function<void()>& checked) {
  auto since = std::chrono::steady_clock::now();
  if (turns == nullptr) {
    RunBudget budget(run_limit);
    options.budget = &budget;
    ProcessResult result = run_contained(options);
    phases.emplace_back("child", seconds_since(since));
    return result;
  }
  const ResidentTurn resident(turns);
  RunBudget budget(run_limit);
  budget.pause();  // waiting for a turn is not the submission's time
  CheckTurn shared(turns, scratch, budget);
  budget.resume();
  phases.emplace_back("waiting to check", seconds_since(since));
  since = std::chrono::steady_clock::now();
  options.budget = &budget;
  auto running = std::async(std::launch::async, [&] { return run_contained(options); });
  std::error_code missing;
  while (running.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    if (!fs::exists(scratch / kReadyToTimeFile, missing)) {
      shared.poll();  // a drain waits for one call of this check, not all of it
    } else {
      add_check_phases(phases, seconds_since(since), shared.yielded_seconds());
      since = std::chrono::steady_clock::now();
      budget.pause();  // waiting for the GPU is not the submission's time
      shared.release();
      checked();
      const ExclusiveTurn exclusive(turns);
      phases.emplace_back("waiting to time", seconds_since(since));
      since = std::chrono::steady_clock::now();
      budget.resume();
      budget.cap_remaining(timing_turn_limit);
      write_file_whole_unsynced(scratch / kMayTimeFile, "\n");
      ProcessResult result = running.get();
      phases.emplace_back("timing", seconds_since(since));
      return result;
    }
  }
  ProcessResult result = running.get();
  add_check_phases(phases, seconds_since(since), shared.yielded_seconds());
  return result;
}

// compute-sanitizer's tools for a compiled submission, each with why it does not run where it need
// not. memcheck always runs. racecheck reports hazards on shared memory only, and the grader
// launches the kernels with no dynamic shared memory, so an image with no static shared memory gives
// it nothing to report (any shared access is then out of bounds: memcheck's finding). synccheck
// checks barriers and warp-synchronous instructions only, so an image none of whose kernels has
// either gives it nothing either. The image's own records say (grading/device_image.hpp); where they
// cannot be read, every tool runs.
struct SanitizerPlan {
  std::string tool;
  std::optional<std::string> not_needed;
};

std::vector<SanitizerPlan> sanitizer_plan(const DeviceCompile& compile) {
  return {{"memcheck", std::nullopt},
          {"racecheck", compile.shared_memory
                            ? std::nullopt
                            : std::optional<std::string>("no kernel of the submission has shared memory, the "
                                                         "only memory racecheck checks")},
          {"synccheck", compile.synchronisation ? std::nullopt
                                                : std::optional<std::string>(
                                                      "no kernel of the submission has a barrier or a "
                                                      "warp-synchronous instruction, all synccheck checks")}};
}

// Whether the grading ran beside others on its GPU when what went wrong happened, so that another
// grading could have caused it: a CUDA error, a hang, a time-out or an early end outside the
// timing phase (which holds the GPU alone), the child's own memory running short, or a sanitizer
// run that ended without its verdict.
std::optional<std::string> shared_gpu_may_explain(const JudgeInput& input) {
  const ChildResults* results = input.results ? &*input.results : nullptr;
  const std::string step =
      results != nullptr && !results->failed_step.empty() ? results->failed_step : input.last_step;
  const bool while_timing = step.rfind("timing", 0) == 0 || step.rfind("waiting for a turn to time", 0) == 0;
  if (results != nullptr && results->error_kind == "grader-out-of-memory") {
    return "the grading child could not allocate its buffers on the shared GPU";
  }
  const bool stopped =
      (results != nullptr && (results->error_kind == "cuda-error" || results->error_kind == "hang")) ||
      (input.child && !input.child->succeeded()) || results == nullptr ||
      (results != nullptr && !results->completed);
  if (stopped && !while_timing) {
    return "its run stopped while other gradings shared the GPU (" +
           (step.empty() ? std::string("at the start") : step) + ")";
  }
  for (const SanitizerRun& run : input.sanitizers) {
    if (!run.finished) {
      return "compute-sanitizer " + run.tool +
             " ended without its verdict while other gradings shared the GPU";
    }
  }
  return std::nullopt;
}

// Whether the results show a grading that finished with nothing a broken or hostile submission
// does: no error, and no call that wrote outside its buffers, changed an input or a guard.
bool results_clean(const std::optional<ChildResults>& results) {
  if (!results || !results->completed || !results->error_kind.empty() || !results->timing) {
    return false;
  }
  const TimingResult& timing = *results->timing;
  return timing.samples_writing_outside == 0 && timing.samples_changing_inputs == 0 &&
         timing.guard_words_changed == 0;
}

// compute-sanitizer's runs of one compiled submission, each tool side by side (each is mostly
// start-up, and the runs are small), each only where the image has something for it to check.
// In a batch they start as soon as the grading child says its checked calls are over, and run
// while it waits for its turn to time and times: they need nothing the timing measures, and each
// holds a shared turn on the GPU, never one while a timer holds it. An image that keeps no state
// in the context beyond its module is screened in a group first (exercise/sanitizer_screen.hpp): a
// clean group is each member's verdict, and anything else is decided by a run of the submission
// alone. A member waits for its group holding no turn (the group's run holds one), so that its wait
// never holds up a timer.
class SanitizerRuns {
 public:
  SanitizerRuns(const GradeRequest& request, const fs::path& child, const fs::path& scratch,
                const DeviceCompile& compile, const ChildRequest& child_request, GpuTurns* turns)
      : request_(request),
        child_(child),
        scratch_(scratch),
        child_request_(child_request),
        turns_(turns),
        plan_(sanitizer_plan(compile)),
        screen_(turns != nullptr && compile.outside_calls && compile.outside_calls->empty()
                    ? request.sanitizer_screen
                    : nullptr) {}
  SanitizerRuns(const SanitizerRuns&) = delete;
  SanitizerRuns& operator=(const SanitizerRuns&) = delete;
  ~SanitizerRuns() { discard(); }

  [[nodiscard]] bool started() const { return started_; }

  //! Starts every tool the image needs (once; later calls do nothing). Waits for nothing.
  void start() {
    if (started_) {
      return;
    }
    started_ = true;
    since_ = std::chrono::steady_clock::now();
    const fs::path sanitizer = find_on_path("compute-sanitizer");
    screen_phases_.assign(plan_.size(), {});
    for (std::size_t t = 0; t < plan_.size(); ++t) {
      if (plan_[t].not_needed) {
        runs_.emplace_back();
        continue;
      }
      runs_.push_back(std::async(std::launch::async, [this, t, sanitizer, name = plan_[t].tool] {
        return run_tool(sanitizer, name, screen_phases_[t]);
      }));
    }
  }

  //! Waits for every run, appends each tool's row to input.sanitizers (a tool not needed says why)
  //! and the phases' seconds to input.phase_seconds.
  void finish(JudgeInput& input) {
    if (!started_) {
      return;
    }
    auto ended = since_;
    for (std::size_t t = 0; t < plan_.size(); ++t) {
      if (!runs_[t].valid()) {
        input.sanitizers.push_back(
            SanitizerRun{plan_[t].tool, true, "not run: " + *plan_[t].not_needed, true, 0.0});
        continue;
      }
      Finished run = runs_[t].get();
      ended = std::max(ended, run.at);
      input.sanitizers.push_back(std::move(run.run));
    }
    // The first screened tool's wait for its group stands for all of them (they wait side by side);
    // the rest of the phase, to the last tool's end, is sanitizing.
    double group_wait = 0.0;
    for (const auto& phases : screen_phases_) {
      if (!phases.empty()) {
        group_wait = phases.front().second;
        break;
      }
    }
    if (turns_ != nullptr) {
      input.phase_seconds.emplace_back("waiting to sanitize", group_wait + alone_wait_);
    }
    input.phase_seconds.emplace_back(
        "sanitizing",
        std::max(std::chrono::duration<double>(ended - since_).count() - group_wait - alone_wait_, 0.0));
    // Each tool's own wall seconds (they ran side by side, within the phase above).
    for (const SanitizerRun& run : input.sanitizers) {
      if (run.seconds > 0.0) {
        input.phase_seconds.emplace_back("sanitizing: " + run.tool, run.seconds);
      }
    }
    runs_.clear();
    started_ = false;
  }

  //! Waits for every run and forgets what it found (the checks did not run: nothing to report).
  void discard() {
    for (auto& run : runs_) {
      if (run.valid()) {
        run.wait();
      }
    }
    runs_.clear();
    started_ = false;
  }

 private:
  struct Finished {
    SanitizerRun run;
    std::chrono::steady_clock::time_point at;
  };

  Finished run_tool(const fs::path& sanitizer, const std::string& name,
                    std::vector<std::pair<std::string, double>>& screen_phases) {
    if (screen_ != nullptr) {
      const fs::path member = fs::absolute(scratch_ / write_sanitize_request(scratch_, child_request_, name));
      const ScreenVerdict group = screen_->screen(name, member, request_.run_limit_seconds, screen_phases);
      if (group.clean) {
        const std::size_t others = group.members - 1;
        const std::string with = others == 0 ? "in a run of its own"
                                 : others == 1
                                     ? "with 1 other submission in one run"
                                     : "with " + std::to_string(others) + " other submissions in one run";
        return {SanitizerRun{name, true, group.summary + " (screened " + with + ")", true, group.seconds},
                std::chrono::steady_clock::now()};
      }
    }
    // Checked alone: in a batch, under a shared turn of its own.
    const auto asked = std::chrono::steady_clock::now();
    const SharedTurn turn(turns_);
    if (screen_ == nullptr && turns_ != nullptr) {
      const std::lock_guard<std::mutex> lock(mutex_);
      alone_wait_ = std::max(alone_wait_, seconds_since(asked));
    }
    SanitizerRun run = sanitize(sanitizer, name, child_, scratch_, child_request_, request_.run_limit_seconds,
                                request_.visible_devices);
    return {std::move(run), std::chrono::steady_clock::now()};
  }

  const GradeRequest& request_;
  fs::path child_;
  fs::path scratch_;
  ChildRequest child_request_;
  GpuTurns* turns_;
  std::vector<SanitizerPlan> plan_;
  SanitizerScreen* screen_;
  bool started_ = false;
  std::chrono::steady_clock::time_point since_;
  std::vector<std::future<Finished>> runs_;
  std::vector<std::vector<std::pair<std::string, double>>> screen_phases_;
  std::mutex mutex_;
  double alone_wait_ = 0.0;  // the longest wait of an unscreened tool for its shared turn
};

// Everything the grading child and compute-sanitizer do with a compiled submission. With `turns`
// the child checks under a shared turn and times under an exclusive one, and compute-sanitizer
// starts once the checks are over; without, the child runs as if alone (a single grading, or one
// that holds the GPU to itself already) and compute-sanitizer after it.
void run_and_check(const Exercise& ex, const GradeRequest& request, const fs::path& child,
                   const fs::path& scratch, const DeviceCompile& compile, ChildRequest child_request,
                   GpuTurns* turns, JudgeInput& input,
                   const std::function<void(const std::string&)>& progress) {
  input.child.reset();
  input.results.reset();
  input.last_step.clear();
  input.sanitizers.clear();
  child_request.wait_for_timing_turn = turns != nullptr;
  write_request(scratch / "request.json", child_request);
  std::error_code ignored;
  for (const char* signal_file :
       {kReadyToTimeFile, kMayTimeFile, kTimedFile, kYieldFile, kYieldedFile, kResumeFile, "results.json"}) {
    fs::remove(scratch / signal_file, ignored);
  }
  progress("running it at n = " + std::to_string(ex.odd_elements) + " and " +
           std::to_string(child_request.card_elements) + " in the grading child (limit " +
           std::to_string(static_cast<int>(request.run_limit_seconds)) + " s of its own time)");
  SanitizerRuns sanitizers(request, child, scratch, compile, child_request, turns);
  const auto announce_sanitizers = [&] {
    std::string running;
    std::string smaller_replicas;  // the tools whose replica is smaller than the timed calls
    for (const SanitizerPlan& tool : sanitizer_plan(compile)) {
      if (tool.not_needed) {
        continue;
      }
      running += (running.empty() ? "" : ", ") + tool.tool;
      const std::uint64_t replica = sanitize_timed_elements(tool.tool, child_request.card_elements);
      if (replica != child_request.card_elements) {
        smaller_replicas +=
            (smaller_replicas.empty() ? "; " : ", ") + tool.tool + "'s at n = " + std::to_string(replica);
      }
    }
    progress("compute-sanitizer " + running + " at n = " + std::to_string(ex.sanitize_elements) + " and " +
             std::to_string(ex.odd_elements) +
             (child_request.card_elements > 0
                  ? ", and a timed call's replica at n = " + std::to_string(child_request.card_elements) +
                        smaller_replicas
                  : std::string()));
  };
  // Called when the child is ready to time: every checked call ran.
  const std::function<void()> checked = [&] {
    if (input.sanitizer_available && turns != nullptr) {
      announce_sanitizers();
      sanitizers.start();
    }
  };
  // In a batch a worker grades it in the context it keeps (exercise/worker_pool.hpp); graded alone,
  // or where no worker starts, a child of its own does.
  GradingWorkers* workers = turns != nullptr ? request.workers : nullptr;
  std::unique_ptr<GradingWorker> worker = workers != nullptr ? workers->take(input.phase_seconds) : nullptr;
  WorkerRun worker_run;
  if (worker != nullptr) {
    worker_run =
        workers->run(*worker, scratch, request.run_limit_seconds,
                     request.timing_limit_seconds + kTimingTurnMarginSeconds, input.phase_seconds, checked);
    input.child = worker_run.child;
  } else {
    input.child =
        run_child(contained({child.string(), "--request", "request.json"}, request.run_limit_seconds, scratch,
                            kChildFileSizeLimit, request.visible_devices),
                  scratch, turns, request.run_limit_seconds,
                  request.timing_limit_seconds + kTimingTurnMarginSeconds, input.phase_seconds, checked);
  }
  input.last_step = read_phase(scratch / child_request.phase);
  try {
    input.results = child_results_from_json(read_json_file(scratch / child_request.results, kResultsMaxBytes),
                                            ex.record_checks);
  } catch (const std::exception& error) {
    if (input.child->succeeded()) {
      progress(std::string("the child's results could not be read: ") + error.what());
    }
  }
  if (worker != nullptr) {
    const WorkerJobFacts facts{worker_run.answered, worker_run.child.exit_code, worker_run.worker_problem,
                               compile.outside_calls, results_clean(input.results)};
    workers->give_back(std::move(worker), worker_retires_because(facts));
  }
  // compute-sanitizer's verdicts count once every checked call ran: after a finished run, and after
  // one that stopped while timed (the rubric's third tier), whose memory safety still decides a grade.
  const bool checks_ran =
      input.results && (input.results->completed || input.results->failed_step.rfind("timing", 0) == 0 ||
                        input.last_step.rfind("timing", 0) == 0);
  if (!input.sanitizer_available || !checks_ran) {
    sanitizers.discard();
    return;
  }
  if (!sanitizers.started()) {
    announce_sanitizers();
    sanitizers.start();
  }
  // Nothing of this grading runs on the GPU now but compute-sanitizer's processes: the next
  // submission may start while it waits for their verdict.
  const SlotGivenUp waiting(turns != nullptr ? request.slots : nullptr);
  sanitizers.finish(input);
}

// Every step after the checks before compiling; runs only where a GPU (or a simulated one) and the
// grader's programs exist.
void compile_run_and_check(const Exercise& ex, const GradeRequest& request, const GradingGpu& gpu,
                           const fs::path& scratch, const CompilerSetup& setup, JudgeInput& input,
                           const std::function<void(const std::string&)>& progress) {
  fs::path child;
  try {
    child = child_program(request);
  } catch (const DataFileNotFound& error) {
    input.grader_problem = std::string(error.what()) + " (build or install labrun's programs)";
    return;
  }
  if (!fs::exists(child)) {
    input.grader_problem =
        "the grading child " + child.string() + " is missing (build or install labrun's programs)";
    return;
  }
  const std::string arch = architecture(gpu);
  progress("compiling " + request.submission.string() + " to device code for " + arch);
  const DeviceCompile compile = compile_to_cubin(scratch, setup, arch);
  input.phase_seconds.emplace_back("compiling", compile.seconds);
  if (!compile.include_problems.empty()) {
    input.source_problems = compile.include_problems;
    return;
  }
  input.compiled = compile.compiled;
  input.compiler_messages = compile.messages;
  input.image_refusal = compile.image_refusal;
  input.image_refusal_message = compile.image_refusal_message;
  if (!input.compiled) {
    return;
  }
  ChildRequest child_request;
  child_request.lab = ex.lab;
  child_request.exercise = ex.name;
  child_request.seed = request.seed;
  child_request.odd_elements = ex.odd_elements;
  child_request.card_elements = large_size(ex, gpu);
  child_request.sanitize_elements = ex.sanitize_elements;
  child_request.kernel_time_limit_s = request.kernel_time_limit_seconds;
  child_request.timing_limit_s = request.timing_limit_seconds;
  for (const ContractKernel& kernel : ex.kernels) {
    const auto found = input.manifest ? input.manifest->kernels.find(kernel.name)
                                      : std::map<std::string, LaunchShape>::const_iterator{};
    if (input.manifest && found != input.manifest->kernels.end()) {
      child_request.shapes.push_back(found->second);
    } else {
      input.default_launch_shapes = true;
      child_request.shapes.push_back(ex.default_shape);
    }
  }
  child_request.image_globals = compile.globals;  // set back to their values at load before every call
  if (request.shared.contains("lab_times")) {
    child_request.lab_times = lab_times_from_json(request.shared.at("lab_times"));
  }
  run_and_check(ex, request, child, scratch, compile, child_request, request.turns, input, progress);
  if (request.turns == nullptr) {
    return;
  }
  // A grading that shared its GPU when it went wrong is graded again with the GPU to itself, and
  // that verdict stands: no other grading can have caused it.
  if (const std::optional<std::string> why = shared_gpu_may_explain(input)) {
    progress("grading it again with the GPU to itself: " + *why);
    auto since = std::chrono::steady_clock::now();
    const AloneTurn alone(request.turns);
    input.phase_seconds.emplace_back("waiting to grade alone", seconds_since(since));
    input.graded_alone_because = *why;
    run_and_check(ex, request, child, scratch, compile, child_request, nullptr, input, progress);
  }
  if (input.results && input.results->error_kind == "grader-out-of-memory") {
    input.grader_problem =
        "the grading child could not allocate its buffers on the GPU, even with the GPU to "
        "itself (" +
        input.results->error + ")";
  }
}

}  // namespace

GradeReport grade_submission(const Exercise& ex, const GradeRequest& request,
                             const std::function<void(const std::string&)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  JudgeInput input;
  input.submission = valid_utf8(request.submission.string());
  input.run_limit_seconds = request.run_limit_seconds;
  input = read_manifest_into(ex, request, std::move(input));
  // Known before anything else, so that every submission on this machine has the same maximum score.
  // A simulated GPU (tests of the scheduler) has no device for compute-sanitizer to watch.
  input.sanitizer_available = !request.simulated_gpu && !find_on_path("compute-sanitizer").empty();
  const std::string source = read_source(request.submission, input.source_problems);
  GradeReport report;
  if (input.source_problems.empty()) {
    try {
      // The GPU's properties, read without a context; none on a machine without a GPU, where the
      // include checks still run (for the oldest architecture) and refuse what they would refuse.
      std::optional<GradingGpu> gpu;
      std::string no_gpu_because;
      if (request.simulated_gpu) {
        gpu = request.simulated_gpu;
      } else if (const DeviceAvailability availability = probe_devices(); availability.usable) {
        gpu = read_grading_gpu(request);
      } else {
        no_gpu_because = "no usable CUDA device on the grading machine (" + availability.error + ")";
      }
      if (containment_program().empty()) {
        throw std::runtime_error(
            "labrun-contain is missing beside labrun (build or install labrun's programs)");
      }
      CompilerSetup setup = grader_compiler_setup(ex, request.compile_limit_seconds);
      setup.turns = request.compile_turns;
      const ScratchFolder scratch;
      const SourceVerdict verdict = check_before_compiling(
          source, scratch.path(), setup, gpu ? std::vector<std::string>{} : toolkit_architectures(setup));
      input.source_problems = verdict.problems;
      if (!verdict.grader_problem.empty()) {
        input.grader_problem = "the submission cannot be compiled safely here: " + verdict.grader_problem;
        report.grader_problem_kind = "sandbox";
      } else if (!input.source_problems.empty()) {
        // refused: nothing else runs
      } else if (!verdict.compiler_stopped.empty()) {
        input.compiler_messages = verdict.compiler_stopped;  // a compile error, without compiling again
      } else if (!gpu) {
        input.grader_problem = no_gpu_because;
        report.grader_problem_kind = "no-device";
      } else {
        compile_run_and_check(ex, request, *gpu, scratch.path(), setup, input, progress);
      }
    } catch (const NoDeviceError& error) {
      input.grader_problem = error.what();
      report.grader_problem_kind = "no-device";
    } catch (const std::exception& error) {
      input.grader_problem = std::string("the grader failed: ") + error.what();
    }
    if (!input.grader_problem.empty() && report.grader_problem_kind.empty()) {
      report.grader_problem_kind = "setup";
    }
  }
  input.seconds = elapsed();
  const std::string problem_kind = report.grader_problem_kind;
  report = judge(ex, input);
  report.grader_problem_kind = problem_kind;
  report.execution_seconds = elapsed();
  report.phase_seconds = input.phase_seconds;
  if (!input.graded_alone_because.empty()) {
    report.figures.emplace_back("graded again with the GPU to itself", input.graded_alone_because);
  }
  if (input.results) {
    report.raw = to_json(*input.results);
    report.device = input.results->device;
    report.device_uuid = input.results->device_uuid;
  }
  return report;
}

std::string BatchGradingHelpers::describe() const {
  std::string text = workers != nullptr ? workers->describe() : std::string("no grading workers");
  if (screen != nullptr) {
    text += "; " + screen->describe();
  }
  return text;
}

BatchGradingHelpers batch_grading_helpers(const GradeRequest& request, std::size_t in_flight) {
  BatchGradingHelpers helpers;
  fs::path child;
  try {
    child = child_program(request);
  } catch (const DataFileNotFound&) {
    return helpers;  // each grading reports the missing program itself
  }
  helpers.workers =
      std::make_unique<GradingWorkers>(child, request.visible_devices, request.turns, in_flight);
  const fs::path sanitizer = find_on_path("compute-sanitizer");
  if (!request.simulated_gpu && !sanitizer.empty() && in_flight >= 2) {
    helpers.screen =
        std::make_unique<SanitizerScreen>(sanitizer, child, request.visible_devices, request.turns,
                                          kSanitizerGroupMembers, kSanitizerWindowSeconds);
  }
  return helpers;
}

nlohmann::ordered_json prepare_grading(const Exercise& ex, const GradeRequest& request,
                                       const std::function<void(const std::string&)>& progress) {
  const GradingGpu gpu = read_grading_gpu(request);
  const fs::path child = child_program(request);
  ChildRequest lab_request;
  lab_request.lab = ex.lab;
  lab_request.exercise = ex.name;
  lab_request.mode = "lab-times";
  lab_request.seed = fresh_seed();
  lab_request.card_elements = large_size(ex, gpu);
  const ScratchFolder scratch_folder;
  const fs::path& scratch = scratch_folder.path();
  write_request(scratch / "request.json", lab_request);
  progress("timing the lab's own kernels at n = " + std::to_string(lab_request.card_elements) +
           ", once for the batch, on GPU " + std::to_string(request.device));
  const ExclusiveTurn turn(request.turns);
  const ProcessResult run =
      run_contained(contained({child.string(), "--request", "request.json"}, request.run_limit_seconds,
                              scratch, kChildFileSizeLimit, request.visible_devices));
  ChildResults results;
  try {
    results = child_results_from_json(read_json_file(scratch / lab_request.results, kResultsMaxBytes));
  } catch (const std::exception& error) {
    throw std::runtime_error("timing the lab's kernels for the batch failed (" + run.describe() +
                             "): " + error.what());
  }
  if (!results.completed || !results.timing) {
    throw std::runtime_error("timing the lab's kernels for the batch failed: " + results.error + " (" +
                             run.describe() + ")");
  }
  // Each grading holds at most grading_memory_bytes: what fits in 85% of the card's memory runs at once.
  const std::uint64_t fits = gpu.memory_bytes / 100 * 85 / grading_memory_bytes(ex, gpu);
  return nlohmann::ordered_json{{"lab_times", to_json(results.timing->lab)},
                                {"max_concurrent", std::max<std::uint64_t>(1, fits)},
                                {"device", results.device},
                                {"device_uuid", results.device_uuid}};
}

}  // namespace labrun
