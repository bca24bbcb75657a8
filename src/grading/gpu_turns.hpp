#pragma once
// Turns on one GPU for the submissions graded side by side on it. Checking a submission may share
// the GPU with other checks; timing one may not share it with anything: a submission's timing
// phase never overlaps GPU work of any other submission on the same GPU, so its times are those of
// a serial run. The number of sharers at once is capped (each holds the GPU memory of a full
// grading run).
//
// An exclusive turn must wait for every shared turn in progress to end, and while it waits no new
// one starts: a drain that leaves the GPU half idle. Timers are therefore gathered: a drain begins
// once `gather` timers wait, or once the first of them has waited `gather_seconds`, and every timer
// waiting then times, one after another, before sharers start again. No timer waits for ever.
//
// Memory is counted apart from turns: a grading's process is *resident* on the GPU from its start
// to its end, holding its buffers whether it checks, waits for its turn to time or times, and at
// most `max_residents` are resident at once (what fits in the GPU's memory). A grading graded
// again *alone* (its first verdict could have been another's doing: grader.cpp) waits until no
// other process is resident and no turn is held, and no new one starts until it ends.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace labrun {

class GpuTurns {
 public:
  //! max_sharers: processes that may hold a shared turn at once (at least 1); gather: timers that
  //! start a drain (at least 1); gather_seconds: the longest a timer waits before it starts one.
  explicit GpuTurns(std::size_t max_sharers, std::size_t gather = 1, double gather_seconds = 0.0,
                    std::size_t max_residents = SIZE_MAX);

  //! Before a grading's process starts on the GPU; waits while max_residents are, or while a
  //! grading waits to be alone.
  void acquire_resident();
  void release_resident();
  //! The GPU entirely to the caller (which holds nothing else): waits until no process is resident
  //! and no turn is held; from when it asks, no new process becomes resident.
  void acquire_alone();
  void release_alone();

  void acquire_shared();
  void release_shared();
  //! Waits until no one else holds a turn; new sharers wait behind it.
  void acquire_exclusive();
  void release_exclusive();

  //! For tests and progress: turns held now.
  [[nodiscard]] std::size_t sharers() const;
  [[nodiscard]] bool exclusive_held() const;
  //! Whether gathered timers wait for the shared turns held now to end: a sharer that can stop
  //! between steps should give its turn up (and ask again: it gets one once they have timed).
  [[nodiscard]] bool draining() const;

  //! Wall seconds the GPU has spent, since these turns were made, in each of its states: a timer
  //! holding it (timing), a grading holding it alone, a drain waiting for shared turns to end,
  //! shared turns held, and nothing held.
  struct TimeByState {
    double timing = 0.0;
    double alone = 0.0;
    double draining = 0.0;
    double shared = 0.0;
    double idle = 0.0;
    std::size_t drains = 0;  //!< drains begun
    std::size_t yields = 0;  //!< shared turns given up to a drain before their work ended
  };
  [[nodiscard]] TimeByState time_by_state() const;
  //! "timing 48.1 s · draining 9.5 s (21 drains; 37 checks gave way) · shared 25.3 s · alone 0.0 s
  //! · idle 2.0 s"
  [[nodiscard]] std::string describe_time() const;
  //! A sharer gave its turn up to a drain before its work ended (exercise/worker_pool.hpp's
  //! CheckTurn): counted for describe_time.
  void note_yield();

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t max_sharers_;
  std::size_t gather_;
  double gather_seconds_;
  std::size_t max_residents_;
  std::size_t sharers_ = 0;
  std::size_t waiting_exclusive_ = 0;
  bool draining_ = false;  // sharers wait; waiting timers time, one by one
  bool exclusive_ = false;
  std::size_t residents_ = 0;
  std::size_t waiting_alone_ = 0;
  bool alone_ = false;
  // Adds the time since the last change of state to the state it was in; called before each change.
  void account_locked() const;
  mutable TimeByState spent_;
  mutable std::chrono::steady_clock::time_point since_ = std::chrono::steady_clock::now();
};

//! A turn of one kind held for a scope: acquired when made (nothing without turns), or later with
//! acquire(); given back when it goes, or earlier with release() (idempotent).
template <void (GpuTurns::*Acquire)(), void (GpuTurns::*Release)()>
class ScopedTurn {
 public:
  //! Holds nothing until acquire().
  ScopedTurn() : turns_(nullptr) {}
  explicit ScopedTurn(GpuTurns* turns) : turns_(nullptr) { acquire(turns); }
  ~ScopedTurn() { release(); }
  ScopedTurn(const ScopedTurn&) = delete;
  ScopedTurn& operator=(const ScopedTurn&) = delete;
  //! Takes the turn from `turns` (nothing when null), giving back first any turn already held.
  void acquire(GpuTurns* turns) {
    release();
    if (turns != nullptr) {
      (turns->*Acquire)();
      turns_ = turns;
    }
  }
  //! Whether a turn is held now (never without turns).
  [[nodiscard]] bool held() const { return turns_ != nullptr; }
  void release() {
    if (turns_ != nullptr) {
      (turns_->*Release)();
      turns_ = nullptr;
    }
  }

 private:
  GpuTurns* turns_;
};

using SharedTurn = ScopedTurn<&GpuTurns::acquire_shared, &GpuTurns::release_shared>;
using ExclusiveTurn = ScopedTurn<&GpuTurns::acquire_exclusive, &GpuTurns::release_exclusive>;
//! A grading's residence on the GPU (its process is alive there).
using ResidentTurn = ScopedTurn<&GpuTurns::acquire_resident, &GpuTurns::release_resident>;
//! The GPU entirely to one grading.
using AloneTurn = ScopedTurn<&GpuTurns::acquire_alone, &GpuTurns::release_alone>;

}  // namespace labrun
