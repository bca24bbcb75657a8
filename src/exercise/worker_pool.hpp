#pragma once
// Grading workers: trusted grading-child processes that each keep one CUDA context on one GPU and
// grade one submission after another in it (load the module, check, time, unload), so that a batch
// pays for a context once per worker rather than once per submission. The driver creates contexts
// one at a time (about 0.3 s each on an H200), which bounded a batch to about one grading a second.
//
// A worker grades one submission at a time, and labrun waits for it to say the grading is over
// before it hands it another: a submission never shares a context with another's work in flight.
// Every grading keeps the one-shot child's turns and limits (grader.cpp's run_child): it is resident
// and holds a shared turn while it checks, trades it for an exclusive one to time, and waiting for a
// turn (or for a worker) never counts toward its limits; past its limit the worker is ended, as the
// one-shot child was. A worker is retired after any grading that could have left anything behind
// (grading/worker_reuse.hpp) and a fresh one takes its place.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exercise/submission_build.hpp"
#include "exercise/worker_protocol.hpp"
#include "grading/gpu_turns.hpp"
#include "process/process.hpp"

namespace labrun {

//! The shared turn of a grading whose child checks in `scratch` (in a worker or a child of its
//! own), given up whenever a drain waits and the child has stopped between calls, and asked for
//! again at once (it comes once the gathered timers have timed). The time without it is not the
//! grading's: `budget` is paused meanwhile.
class CheckTurn {
 public:
  CheckTurn(GpuTurns* turns, std::filesystem::path scratch, RunBudget& budget);
  CheckTurn(const CheckTurn&) = delete;
  CheckTurn& operator=(const CheckTurn&) = delete;
  //! In the loop that watches the child while it checks: asks it to stop when a drain waits, and
  //! trades the turn when it has.
  void poll();
  //! Gives the turn up for good (the child is ready to time); a request to stop is withdrawn.
  void release();
  //! Seconds the grading waited for its turn back, in all.
  [[nodiscard]] double yielded_seconds() const { return yielded_seconds_; }

 private:
  GpuTurns* turns_;
  std::filesystem::path scratch_;
  RunBudget& budget_;
  std::optional<SharedTurn> turn_;
  bool asked_ = false;
  double yielded_seconds_ = 0.0;
};

//! Appends a check's phases: "checking" (its `seconds` less the time it gave its turn up) and
//! "waiting while timers time" (that time, where there was any).
void add_check_phases(std::vector<std::pair<std::string, double>>& phases, double seconds, double yielded);

//! Appends a timing turn given back on the child's word (worker_protocol.hpp's kTimedFile): "timing"
//! (its `seconds`, from the turn given to "timed" seen) and, where the child said, its parts
//! "timing: sampling" (with its own parts "timing: sampling: preparing the calls" and "timing:
//! sampling: checking the calls"), "timing: clearing the GPU's memory" and "timing: freeing the GPU's
//! memory" (inside "timing", as "sanitizing: memcheck" is inside "sanitizing").
void add_timing_phases(std::vector<std::pair<std::string, double>>& phases, double seconds,
                       const std::optional<TurnSpent>& spent);

//! One worker process (labrun-grade-child --serve) and its private control folder.
class GradingWorker {
 public:
  //! on_end: called once the process has ended, when this object goes (GradingWorkers counts its
  //! live workers so).
  GradingWorker(const std::filesystem::path& program, const std::string& visible_devices,
                std::function<void()> on_end = {});
  //! Ends the process.
  ~GradingWorker();
  GradingWorker(const GradingWorker&) = delete;
  GradingWorker& operator=(const GradingWorker&) = delete;

  //! Waits until the worker has opened its context; false when it ended or took longer.
  bool wait_ready(double limit_seconds);
  [[nodiscard]] bool ended() const;
  //! Ends the worker at once (it holds nothing worth saving) and says how it ended.
  ProcessResult end();
  //! How the process ended by itself (ended() must be true).
  ProcessResult ended_result();
  [[nodiscard]] const std::filesystem::path& control() const { return control_.path(); }
  std::uint64_t next_job() { return ++jobs_; }

 private:
  ScratchFolder control_;
  RunBudget budget_;
  std::future<ProcessResult> running_;
  ProcessResult finished_;
  std::uint64_t jobs_ = 0;
  std::function<void()> on_end_;
};

//! One grading run in a worker, as a one-shot child's run would be reported.
struct WorkerRun {
  //! The grading's exit status as the worker gave it (or the worker's own end, where it ended:
  //! a hang it ended itself, a kill at the grading's limit, which says timed out).
  ProcessResult child;
  //! The worker said the grading was over, and is still running.
  bool answered = false;
  //! The worker's check of its context after the grading (empty: it passed).
  std::string worker_problem;
};

//! The workers of one GPU. Thread-safe: each of a batch's threads takes a worker for a grading and
//! gives it back (or retires it) when it has judged the grading.
class GradingWorkers {
 public:
  //! child_program: labrun-grade-child; visible_devices: CUDA_VISIBLE_DEVICES naming the GPU;
  //! turns: that GPU's turns (a worker opens its context under a shared turn, never while another
  //! grading times); max_workers: workers alive at once, idle ones included (at least 1): a grading
  //! that finds none idle and max_workers alive waits for one to be given back or to end.
  GradingWorkers(std::filesystem::path child_program, std::string visible_devices, GpuTurns* turns,
                 std::size_t max_workers = SIZE_MAX);
  ~GradingWorkers();
  GradingWorkers(const GradingWorkers&) = delete;
  GradingWorkers& operator=(const GradingWorkers&) = delete;

  //! An idle worker, or a fresh one once its context is open (once fewer than max_workers are
  //! alive); null when none could be started (the caller grades with a one-shot child; after 3
  //! workers that did not start, no more are tried). The wait is appended to `phases` as "waiting
  //! for a worker". Every worker it gives must come back through give_back, or be destroyed.
  [[nodiscard]] std::unique_ptr<GradingWorker> take(std::vector<std::pair<std::string, double>>& phases);
  //! Grades the request "request.json" in `scratch` in `worker`, with a budget of `run_limit`
  //! seconds of its own work and at most `timing_turn_limit` once it holds the GPU to itself, as
  //! grader.cpp's run_child runs the one-shot child; appends each turn's wait and work to `phases`.
  //! `checked` (may be empty) is called on this thread once the worker says its checked calls are
  //! over and it is ready to time, after the shared turn is given back and before the exclusive one
  //! is asked for; it must not wait for the GPU. The exclusive turn is given back as soon as the
  //! worker says the timing is over and nothing of the grading is left on the GPU (kTimedFile: the
  //! phases then end with "timing" and "finishing after timing"), else when the grading is over.
  [[nodiscard]] WorkerRun run(GradingWorker& worker, const std::filesystem::path& scratch, double run_limit,
                              double timing_turn_limit, std::vector<std::pair<std::string, double>>& phases,
                              const std::function<void()>& checked = {});
  //! After the grading is judged: back to the idle workers, or, with a reason, ended.
  void give_back(std::unique_ptr<GradingWorker> worker, const std::optional<std::string>& retire_because);

  //! "N gradings in M workers; K retired: reason (count), ..."
  [[nodiscard]] std::string describe() const;

 private:
  std::filesystem::path program_;
  std::string visible_devices_;
  GpuTurns* turns_;
  std::size_t max_workers_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a worker given back idle, or one ended
  std::size_t alive_ = 0;            // workers started and not yet ended, idle ones included
  std::vector<std::unique_ptr<GradingWorker>> idle_;
  std::uint64_t started_ = 0;
  std::uint64_t failed_starts_ = 0;
  std::uint64_t gradings_ = 0;
  std::map<std::string, std::uint64_t> retired_;
};

}  // namespace labrun
