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

// However a group's run ends, an exception in labrun included, its process is ended and waited
// for before the budget it reads goes (a future of std::async waits for its thread, which waits
// for the process).
class EndsTheRun {
 public:
  EndsTheRun(RunBudget& budget, std::future<ProcessResult>& running) : budget_(budget), running_(running) {}
  ~EndsTheRun() {
    if (running_.valid()) {
      budget_.cap_remaining(0.0);  // run_contained ends the process tree at once
      running_.wait();
    }
  }
  EndsTheRun(const EndsTheRun&) = delete;
  EndsTheRun& operator=(const EndsTheRun&) = delete;

 private:
  RunBudget& budget_;
  std::future<ProcessResult>& running_;
};

}  // namespace

SanitizerScreen::SanitizerScreen(fs::path sanitizer, fs::path child_program, std::string visible_devices,
                                 GpuTurns* turns, std::size_t members, double window_seconds)
    : sanitizer_(std::move(sanitizer)),
      program_(std::move(child_program)),
      visible_devices_(std::move(visible_devices)),
      turns_(turns),
      members_(std::max<std::size_t>(members, 1)),
      window_seconds_(window_seconds) {}

ScreenVerdict SanitizerScreen::screen(const std::string& tool, const fs::path& request, double limit_seconds,
                                      std::vector<std::pair<std::string, double>>& phases) {
  const auto since = std::chrono::steady_clock::now();
  Member me{request, limit_seconds, false, false, 0.0, {}};
  std::unique_lock<std::mutex> lock(mutex_);
  Queue& queue = queues_[tool];
  queue.waiting.push_back(&me);
  queue.last_arrival = since;
  changed_.notify_all();
  while (!me.done) {
    if (me.taken || queue.open || queue.waiting.front() != &me) {
      changed_.wait(lock);
      continue;
    }
    // The first waiting member opens a group: it runs the group's process, takes the members that
    // come while the group is open, and gives each its verdict.
    queue.open = true;
    queue.waiting.pop_front();
    me.taken = true;
    lock.unlock();
    run_group(tool, &me);
    lock.lock();
  }
  lock.unlock();
  phases.emplace_back("waiting to sanitize", std::max(seconds_since(since) - me.own_seconds, 0.0));
  phases.emplace_back("screening", me.own_seconds);
  return me.verdict;
}

void SanitizerScreen::no_more_gradings() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    no_more_ = true;
  }
  changed_.notify_all();
}

SanitizerScreen::Member* SanitizerScreen::next_member(std::unique_lock<std::mutex>& lock, Queue& queue,
                                                      std::chrono::steady_clock::time_point opened,
                                                      std::size_t served) {
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const Clock::time_point window_end = opened + seconds(window_seconds_);
  const std::size_t size = queue.group_size == 0 ? members_ : queue.group_size;
  while (served < size) {
    const Clock::time_point now = Clock::now();
    if (now >= window_end) {
      break;
    }
    if (!queue.waiting.empty()) {
      Member* next = queue.waiting.front();
      queue.waiting.pop_front();
      next->taken = true;
      return next;
    }
    Clock::time_point until = window_end;
    if (no_more_) {
      const Clock::time_point quiet_end = queue.last_arrival + seconds(kQuietSeconds);
      if (now >= quiet_end) {
        break;
      }
      until = std::min(until, quiet_end);
    }
    changed_.wait_until(lock, until);
  }
  queue.open = false;
  changed_.notify_all();  // the next waiting member opens the next group
  return nullptr;
}

void SanitizerScreen::run_group(const std::string& tool, Member* first) {
  // Whatever happens to the group's run, an exception in labrun included, every member it took is
  // given a verdict and the tool's queue is free again: no member waits for a group that is gone.
  std::vector<Member*> served{first};
  bool open = true;  // the tool's queue is this group's
  ScreenVerdict verdict;
  try {
    verdict = run_group_process(tool, served, open);
  } catch (const std::exception& error) {
    verdict = ScreenVerdict{};
    verdict.members = served.size();
    verdict.summary = valid_utf8(std::string("the group's run failed in labrun: ") + error.what());
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  Queue& queue = queues_[tool];
  if (open) {
    queue.open = false;
  }
  ++groups_;
  screened_ += served.size();
  largest_group_ = std::max(largest_group_, served.size());
  const std::size_t size = queue.group_size == 0 ? members_ : queue.group_size;
  if (verdict.clean) {
    queue.group_size = std::min(members_, size * 2);
  } else {
    ++unclean_groups_;
    queue.group_size = std::max(std::min<std::size_t>(members_, 2), size / 2);
  }
  for (Member* each : served) {
    each->verdict = verdict;
    each->verdict.seconds = each->own_seconds;
    each->done = true;
  }
  changed_.notify_all();
}

ScreenVerdict SanitizerScreen::run_group_process(const std::string& tool, std::vector<Member*>& served,
                                                 bool& open) {
  // The group's process is a grading worker (labrun-grade-child --serve) under compute-sanitizer:
  // it opens its context under a shared turn, then grades the members one by one, each under a
  // shared turn of its own, and ends once told to stop. Between members it holds no turn and does
  // no GPU work, so a timer's drain waits for one member's run at most, never the group's. Each
  // stretch under a turn has a limit of its own (the opening and the first member's run, the
  // first member's; each later member's run, its own; the end, the last member's), so a member
  // whose run never ends holds its turn for its own limit, never for what the members before it
  // left unspent; waiting for a turn, or for the next member, counts toward none.
  Member* member = served.front();
  const auto opened = std::chrono::steady_clock::now();
  const ScratchFolder scratch;
  const fs::path control = scratch.path() / "control";
  fs::create_directory(control);
  const fs::path log_file = scratch.path() / ("sanitizer-" + tool + ".log");
  RunBudget budget(member->limit_seconds);
  budget.pause();
  std::vector<std::string> command = sanitizer_command(sanitizer_.string(), tool, log_file.string());
  command.insert(command.end(), {program_.string(), "--serve", control.string()});
  SpawnOptions options = contained(std::move(command), member->limit_seconds, scratch.path(),
                                   kGroupFileSizeLimit, visible_devices_);
  options.budget = &budget;
  // Runs `stretch` under a shared turn, counting its time toward the budget; says how long it held
  // the turn.
  const auto under_turn = [&](const auto& stretch, double& held) {
    const SharedTurn turn(turns_);
    const auto since = std::chrono::steady_clock::now();
    budget.resume();
    const bool went_on = stretch();
    budget.pause();
    held = seconds_since(since);
    return went_on;
  };
  std::future<ProcessResult> running;
  const EndsTheRun ends_the_run(budget, running);
  const auto ended = [&] { return running.wait_for(std::chrono::seconds(0)) == std::future_status::ready; };
  std::error_code missing;
  double opening = 0.0;
  // The process starts, and opens its context, under the first turn.
  bool going = under_turn(
      [&] {
        running = std::async(std::launch::async, [options] { return run_contained(options); });
        while (!fs::exists(control / kWorkerReadyFile, missing)) {
          if (ended() || budget.exhausted()) {
            return false;
          }
          std::this_thread::sleep_for(kGroupPoll);
        }
        return true;
      },
      opening);
  std::uint64_t number = 0;
  while (going) {
    ++number;
    if (number > 1) {
      budget.set_remaining(member->limit_seconds);
    }
    going = under_turn(
        [&] {
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
        },
        member->own_seconds);
    if (!going) {
      break;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    Member* next = next_member(lock, queues_[tool], opened, served.size());
    if (next == nullptr) {
      open = false;  // next_member closed the queue
      break;
    }
    served.push_back(next);
    member = next;
  }
  if (open) {
    // A run that stopped short ends the group: the members still queued go to the next one.
    const std::lock_guard<std::mutex> lock(mutex_);
    queues_[tool].open = false;
    open = false;
    changed_.notify_all();
  }
  // The end (its context's included) under a turn too, within the last member's limit; a run that
  // stopped short is ended.
  ProcessResult run;
  double closing = 0.0;
  under_turn(
      [&] {
        budget.set_remaining(going ? member->limit_seconds : 0.0);
        if (going) {
          write_file_whole_unsynced(control / kWorkerStopFile, "\n");
        }
        while (going && !ended() && !budget.exhausted()) {
          std::this_thread::sleep_for(kGroupPoll);
        }
        if (!ended()) {
          budget.cap_remaining(0.0);  // run_contained ends the process tree at once
        }
        run = running.get();
        return true;
      },
      closing);
  std::string log;
  try {
    log = read_regular_file(log_file, kGroupLogMaxBytes);
  } catch (const std::exception&) {
    log.clear();
  }
  const std::string summary = sanitizer_summary_lines(log);
  ScreenVerdict verdict;
  verdict.members = served.size();
  verdict.clean = going && run.succeeded() && sanitizer_reports_no_errors(summary);
  verdict.summary = valid_utf8(summary.empty() ? "no summary (" + run.describe() + ")" : summary);
  return verdict;
}

std::string SanitizerScreen::describe() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (groups_ == 0) {
    return "no sanitizer groups";
  }
  return std::to_string(screened_) + " sanitizer runs in " + std::to_string(groups_) + " groups (at most " +
         std::to_string(largest_group_) + " in one), " + std::to_string(unclean_groups_) +
         " not clean (their members checked alone)";
}

}  // namespace labrun
