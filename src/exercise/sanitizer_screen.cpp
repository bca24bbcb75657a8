#include "exercise/sanitizer_screen.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "core/wall_clock.hpp"
#include "exercise/submission_build.hpp"
#include "exercise/worker_protocol.hpp"
#include "grading/sanitizer_log.hpp"
#include "grading/utf8.hpp"
#include "process/process.hpp"

namespace labrun {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kGroupLogMaxBytes = std::size_t{16} * 1024 * 1024;
constexpr std::uint64_t kGroupFileSizeLimit = 64ull * 1024 * 1024;
constexpr auto kGroupPoll = std::chrono::microseconds(500);

}  // namespace

SanitizerScreen::SanitizerScreen(fs::path sanitizer, fs::path child_program, std::string visible_devices,
                                 GpuTurns* turns, std::size_t members, double gather_seconds)
    : sanitizer_(std::move(sanitizer)),
      program_(std::move(child_program)),
      visible_devices_(std::move(visible_devices)),
      turns_(turns),
      members_(std::max<std::size_t>(members, 1)),
      gather_seconds_(gather_seconds) {}

ScreenVerdict SanitizerScreen::screen(const std::string& tool, const fs::path& request, double limit_seconds,
                                      std::vector<std::pair<std::string, double>>& phases) {
  const auto since = std::chrono::steady_clock::now();
  Member me{request, limit_seconds, false, {}};
  std::unique_lock<std::mutex> lock(mutex_);
  Queue& queue = queues_[tool];
  queue.waiting.push_back(&me);
  changed_.notify_all();
  while (!me.done) {
    if (queue.forming || queue.waiting.front() != &me) {
      changed_.wait(lock);
      continue;
    }
    // The first waiting member gathers a group, runs it, and gives every member its verdict.
    queue.forming = true;
    const auto gathered_by =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(gather_seconds_));
    changed_.wait_until(lock, gathered_by, [&] { return queue.waiting.size() >= members_; });
    std::vector<Member*> group;
    while (!queue.waiting.empty() && group.size() < members_) {
      group.push_back(queue.waiting.front());
      queue.waiting.pop_front();
    }
    queue.forming = false;
    changed_.notify_all();  // the next waiting member gathers the next group
    lock.unlock();
    const ScreenVerdict verdict = run_group(tool, group);
    lock.lock();
    ++groups_;
    screened_ += group.size();
    unclean_groups_ += verdict.clean ? 0 : 1;
    for (Member* member : group) {
      member->verdict = verdict;
      member->done = true;
    }
    changed_.notify_all();
  }
  lock.unlock();
  phases.emplace_back("waiting to sanitize", std::max(seconds_since(since) - me.verdict.seconds, 0.0));
  phases.emplace_back("screening", me.verdict.seconds);
  return me.verdict;
}

ScreenVerdict SanitizerScreen::run_group(const std::string& tool, const std::vector<Member*>& group) const {
  // The group's process is a grading worker (labrun-grade-child --serve) under compute-sanitizer:
  // it opens its context under a shared turn, then grades the members one by one, each under a
  // shared turn of its own, and ends once told to stop. Between members it holds no turn and does
  // no GPU work, so a timer's drain waits for one member's run at most, never the group's; and
  // waiting for a turn does not count toward the group's limit.
  const ScratchFolder scratch;
  const fs::path control = scratch.path() / "control";
  fs::create_directory(control);
  double limit = 0.0;
  for (const Member* member : group) {
    limit += member->limit_seconds;
  }
  const fs::path log_file = scratch.path() / ("sanitizer-" + tool + ".log");
  RunBudget budget(limit);
  budget.pause();
  SpawnOptions options = contained(
      {sanitizer_.string(), "--tool", tool, "--log-file", log_file.string(), "--error-exitcode", "99",
       "--report-api-errors", "no", "--print-limit", "20", program_.string(), "--serve", control.string()},
      limit, scratch.path(), kGroupFileSizeLimit, visible_devices_);
  options.budget = &budget;
  double seconds = 0.0;  // under a turn: the group's own time
  // Runs `stretch` under a shared turn, counting its time toward the budget and `seconds`.
  const auto under_turn = [&](const auto& stretch) {
    const SharedTurn turn(turns_);
    const auto since = std::chrono::steady_clock::now();
    budget.resume();
    const bool went_on = stretch();
    budget.pause();
    seconds += seconds_since(since);
    return went_on;
  };
  std::future<ProcessResult> running;
  const auto ended = [&] { return running.wait_for(std::chrono::seconds(0)) == std::future_status::ready; };
  std::error_code missing;
  // The process starts, and opens its context, under the first turn.
  bool going = under_turn([&] {
    running = std::async(std::launch::async, [options] { return run_contained(options); });
    while (!fs::exists(control / kWorkerReadyFile, missing)) {
      if (ended() || budget.exhausted()) {
        return false;
      }
      std::this_thread::sleep_for(kGroupPoll);
    }
    return true;
  });
  std::uint64_t number = 0;
  for (const Member* member : group) {
    if (!going) {
      break;
    }
    ++number;
    going = under_turn([&] {
      hand_job(control,
               WorkerJob{number, member->request.parent_path(), member->request.filename().string()});
      while (true) {
        if (const std::optional<WorkerDone> done = job_done(control, number)) {
          return done->status == 0 && done->problem.empty();
        }
        if (ended() || budget.exhausted()) {
          return false;
        }
        std::this_thread::sleep_for(kGroupPoll);
      }
    });
  }
  // The end (its context's included) under a turn too; a run that stopped short is ended.
  ProcessResult run;
  under_turn([&] {
    if (going) {
      write_file_atomically(control / kWorkerStopFile, "\n", true);
    }
    while (going && !ended() && !budget.exhausted()) {
      std::this_thread::sleep_for(kGroupPoll);
    }
    if (!ended()) {
      budget.cap_remaining(0.0);  // run_contained ends the process tree at once
    }
    run = running.get();
    return true;
  });
  ScreenVerdict verdict;
  verdict.members = group.size();
  verdict.seconds = seconds;
  std::string log;
  try {
    log = read_regular_file(log_file, kGroupLogMaxBytes);
  } catch (const std::exception&) {
    log.clear();
  }
  const std::string summary = sanitizer_summary_lines(log);
  verdict.clean = going && run.succeeded() && sanitizer_reports_no_errors(summary);
  verdict.summary = valid_utf8(summary.empty() ? "no summary (" + run.describe() + ")" : summary);
  return verdict;
}

std::string SanitizerScreen::describe() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (groups_ == 0) {
    return "no sanitizer groups";
  }
  return std::to_string(screened_) + " sanitizer runs in " + std::to_string(groups_) + " groups, " +
         std::to_string(unclean_groups_) + " not clean (their members checked alone)";
}

}  // namespace labrun
