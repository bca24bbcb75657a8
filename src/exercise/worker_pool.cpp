#include "exercise/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <optional>
#include <thread>

#include "base/atomic_file.hpp"
#include "core/wall_clock.hpp"
#include "exercise/submission_build.hpp"
#include "exercise/worker_protocol.hpp"

namespace labrun {
namespace fs = std::filesystem;

namespace {

// A worker lives as long as the batch: its own wall clock is not what ends it.
constexpr double kWorkerLifetimeSeconds = 1e9;
// Seconds a fresh worker may take to open its context (16 at once take about 3.3 s on an H200).
constexpr double kWorkerStartSeconds = 120.0;
// Files a worker writes: its control files and the gradings' results, in their scratch folders.
constexpr std::uint64_t kWorkerFileSizeLimit = 64ull * 1024 * 1024;
constexpr auto kPoll = std::chrono::microseconds(500);
// Workers that did not start before the batch stops trying (one-shot children grade the rest).
constexpr std::uint64_t kFailedStartsMax = 3;

// The seconds a reason counts under in describe(): its first words, without what is particular.
std::string reason_class(const std::string& reason) {
  const std::size_t cut = reason.find_first_of("(:");
  std::string head = reason.substr(0, cut);
  while (!head.empty() && head.back() == ' ') {
    head.pop_back();
  }
  return head;
}

}  // namespace

void add_check_phases(std::vector<std::pair<std::string, double>>& phases, double seconds, double yielded) {
  phases.emplace_back("checking", std::max(seconds - yielded, 0.0));
  if (yielded > 0.0) {
    phases.emplace_back("waiting while timers time", yielded);
  }
}

void add_timing_phases(std::vector<std::pair<std::string, double>>& phases, double seconds,
                       const std::optional<TurnSpent>& spent) {
  phases.emplace_back("timing", seconds);
  if (spent) {
    phases.emplace_back("timing: sampling", spent->sampling_seconds);
    phases.emplace_back("timing: sampling: preparing the calls", spent->preparing_seconds);
    phases.emplace_back("timing: sampling: checking the calls", spent->checking_seconds);
    phases.emplace_back("timing: clearing the GPU's memory", spent->clearing_seconds);
    phases.emplace_back("timing: freeing the GPU's memory", spent->freeing_seconds);
  }
}

CheckTurn::CheckTurn(GpuTurns* turns, fs::path scratch, RunBudget& budget)
    : turns_(turns), scratch_(std::move(scratch)), budget_(budget) {
  turn_.emplace(turns_);
}

void CheckTurn::poll() {
  if (turns_ == nullptr || !turn_) {
    return;
  }
  std::error_code missing;
  if (!asked_) {
    if (turns_->draining()) {
      write_file_whole_unsynced(scratch_ / kYieldFile, "\n");
      asked_ = true;
    }
    return;
  }
  if (!fs::exists(scratch_ / kYieldedFile, missing)) {
    return;
  }
  // The child has stopped between calls: the drain need not wait for it.
  fs::remove(scratch_ / kYieldedFile, missing);
  turns_->note_yield();
  const auto since = std::chrono::steady_clock::now();
  budget_.pause();
  turn_.reset();
  turn_.emplace(turns_);
  budget_.resume();
  yielded_seconds_ += seconds_since(since);
  asked_ = false;
  write_file_whole_unsynced(scratch_ / kResumeFile, "\n");
}

void CheckTurn::release() {
  turn_.reset();
  if (asked_) {
    std::error_code missing;
    fs::remove(scratch_ / kYieldFile, missing);
    asked_ = false;
  }
}

GradingWorker::GradingWorker(const fs::path& program, const std::string& visible_devices,
                             std::function<void()> on_end)
    : budget_(kWorkerLifetimeSeconds), on_end_(std::move(on_end)) {
  SpawnOptions options =
      contained({program.string(), "--serve", control_.path().string()}, kWorkerLifetimeSeconds,
                control_.path(), kWorkerFileSizeLimit, visible_devices);
  options.budget = &budget_;
  running_ = std::async(std::launch::async, [options] { return run_contained(options); });
}

GradingWorker::~GradingWorker() {
  static_cast<void>(end());
  if (on_end_) {
    on_end_();
  }
}

bool GradingWorker::wait_ready(double limit_seconds) {
  const auto since = std::chrono::steady_clock::now();
  std::error_code missing;
  while (seconds_since(since) < limit_seconds) {
    if (fs::exists(control_.path() / kWorkerReadyFile, missing)) {
      return true;
    }
    if (ended()) {
      return false;
    }
    std::this_thread::sleep_for(kPoll);
  }
  return false;
}

bool GradingWorker::ended() const {
  return !running_.valid() || running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

ProcessResult GradingWorker::end() {
  if (!running_.valid()) {
    return finished_;
  }
  try {
    write_file_whole_unsynced(control_.path() / kWorkerStopFile, "\n");
  } catch (const std::exception&) {
    // ended below all the same
  }
  budget_.cap_remaining(0.0);
  finished_ = running_.get();
  return finished_;
}

ProcessResult GradingWorker::ended_result() {
  if (running_.valid()) {
    finished_ = running_.get();
  }
  return finished_;
}

GradingWorkers::GradingWorkers(fs::path child_program, std::string visible_devices, GpuTurns* turns,
                               std::size_t max_workers)
    : program_(std::move(child_program)),
      visible_devices_(std::move(visible_devices)),
      turns_(turns),
      max_workers_(std::max<std::size_t>(1, max_workers)) {}

// The idle workers end here, while what they report their end to still exists.
GradingWorkers::~GradingWorkers() {
  std::vector<std::unique_ptr<GradingWorker>> idle;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    idle.swap(idle_);
  }
}

std::unique_ptr<GradingWorker> GradingWorkers::take(std::vector<std::pair<std::string, double>>& phases) {
  const auto since = std::chrono::steady_clock::now();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    bool waited = false;
    while (idle_.empty() && alive_ >= max_workers_ && failed_starts_ < kFailedStartsMax) {
      waited = true;
      changed_.wait(lock);
    }
    if (!idle_.empty()) {
      std::unique_ptr<GradingWorker> worker = std::move(idle_.back());
      idle_.pop_back();
      lock.unlock();
      if (waited) {
        phases.emplace_back("waiting for a worker", seconds_since(since));
      }
      return worker;
    }
    if (failed_starts_ >= kFailedStartsMax) {
      return nullptr;  // the program serves no jobs here: one-shot children from now on
    }
    ++started_;
    ++alive_;
  }
  // Its context is made under a shared turn: never while another grading holds the GPU to time.
  const SharedTurn turn(turns_);
  auto worker = std::make_unique<GradingWorker>(program_, visible_devices_, [this] {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      --alive_;
    }
    changed_.notify_all();
  });
  const bool ready = worker->wait_ready(kWorkerStartSeconds);
  phases.emplace_back("waiting for a worker", seconds_since(since));
  if (!ready) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++retired_["a worker did not start"];
    ++failed_starts_;
    return nullptr;
  }
  return worker;
}

WorkerRun GradingWorkers::run(GradingWorker& worker, const fs::path& scratch, double run_limit,
                              double timing_turn_limit, std::vector<std::pair<std::string, double>>& phases,
                              const std::function<void()>& checked) {
  auto since = std::chrono::steady_clock::now();
  const ResidentTurn resident(turns_);
  RunBudget budget(run_limit);
  budget.pause();  // waiting for a turn is not the submission's time
  CheckTurn shared(turns_, scratch, budget);
  budget.resume();
  ExclusiveTurn exclusive;  // taken when the child is ready to time
  if (turns_ != nullptr) {
    phases.emplace_back("waiting to check", seconds_since(since));
  }
  since = std::chrono::steady_clock::now();
  const std::uint64_t number = worker.next_job();
  hand_job(worker.control(), WorkerJob{number, fs::absolute(scratch), "request.json"});
  WorkerRun run;
  std::error_code missing;
  // The child said its timing is over and nothing of the grading is left on the GPU
  // (worker_protocol.hpp's kTimedFile): the exclusive turn has been given back, and the grading
  // writes its results, and the worker checks its context, beside whatever runs next.
  bool timed = false;
  // Takes the child's word once it is written: the exclusive turn goes back, and the turn's parts
  // are recorded. Also where the child's answer is seen in the same look, so that a grading that
  // finishes at once after "timed" is accounted as one that takes longer is.
  const auto take_timed_word = [&] {
    if (exclusive.held() && fs::exists(scratch / kTimedFile, missing)) {
      add_timing_phases(phases, seconds_since(since), turn_spent(scratch / kTimedFile));
      since = std::chrono::steady_clock::now();
      // The budget goes on, still capped at timing_turn_limit from the turn's start: a worker that
      // does not say the grading is over within it is ended, as before.
      exclusive.release();
      timed = true;
    }
  };
  while (true) {
    if (const std::optional<WorkerDone> done = job_done(worker.control(), number)) {
      take_timed_word();
      run.answered = true;
      run.worker_problem = done->problem;
      run.child.started = true;
      run.child.exit_code = done->status;
      break;
    }
    if (worker.ended()) {
      take_timed_word();
      run.child = worker.ended_result();  // it ended itself: a hang it saw, or a failure
      break;
    }
    if (budget.exhausted()) {
      run.child = worker.end();
      run.child.timed_out = true;
      run.child.limit_seconds_spent = budget.spent();
      break;
    }
    if (turns_ != nullptr && !exclusive.held() && !timed &&
        !fs::exists(scratch / kReadyToTimeFile, missing)) {
      shared.poll();
    } else if (turns_ != nullptr && !exclusive.held() && !timed) {
      add_check_phases(phases, seconds_since(since), shared.yielded_seconds());
      since = std::chrono::steady_clock::now();
      budget.pause();  // waiting for the GPU is not the submission's time
      shared.release();
      if (checked) {
        checked();
      }
      exclusive.acquire(turns_);
      phases.emplace_back("waiting to time", seconds_since(since));
      since = std::chrono::steady_clock::now();
      budget.resume();
      budget.cap_remaining(timing_turn_limit);
      // Only a "timed" written after this turn was given counts (the child writes it once it has
      // timed in it; run_and_check removes any before the run).
      fs::remove(scratch / kTimedFile, missing);
      write_file_whole_unsynced(scratch / kMayTimeFile, "\n");
    } else {
      take_timed_word();
    }
    std::this_thread::sleep_for(kPoll);
  }
  run.child.wall_seconds = seconds_since(since);
  if (timed) {
    phases.emplace_back("finishing after timing", seconds_since(since));
  } else if (exclusive.held()) {
    phases.emplace_back("timing", seconds_since(since));
  } else if (turns_ != nullptr) {
    add_check_phases(phases, seconds_since(since), shared.yielded_seconds());
  } else {
    phases.emplace_back("child", seconds_since(since));
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  ++gradings_;
  return run;
}

void GradingWorkers::give_back(std::unique_ptr<GradingWorker> worker,
                               const std::optional<std::string>& retire_because) {
  if (worker == nullptr) {
    return;
  }
  if (!retire_because && !worker->ended()) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      idle_.push_back(std::move(worker));
    }
    changed_.notify_all();
    return;
  }
  static_cast<void>(worker->end());
  const std::lock_guard<std::mutex> lock(mutex_);
  ++retired_[retire_because ? reason_class(*retire_because) : "the worker ended"];
}

std::string GradingWorkers::describe() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::uint64_t retired = 0;
  std::string reasons;
  for (const auto& [reason, count] : retired_) {
    retired += count;
    reasons += (reasons.empty() ? "" : "; ") + reason + " (" + std::to_string(count) + ")";
  }
  return std::to_string(gradings_) + " gradings in " + std::to_string(started_) + " workers" +
         (retired > 0 ? ", " + std::to_string(retired) + " retired: " + reasons : std::string());
}

}  // namespace labrun
