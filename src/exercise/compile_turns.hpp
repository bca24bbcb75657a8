#pragma once
// Compiles beside each other in a batch, and a compile that needs the machine's compiling to
// itself. A compile's processes may use its CPU seconds together (CompilerSetup::cpu_seconds) and
// the compile three times that of wall clock; beside other compiles on a busy machine an honest
// compile can reach that wall clock while it waits for a core, which says nothing about the
// submission. So in a batch every compile holds a shared turn, and one stopped at its wall clock is
// compiled again holding the turn alone: no other compile runs beside it, and the time it waited
// for the turn is not on its clock. Only what it does then decides its grade. A waiting "alone"
// stops new shared turns, so a stream of compiles cannot starve it.
//
// What a turn alone can cost the batch is bounded by the CPU limit, not the wall clock: nothing in
// the compile sandbox can make a compiler wait (sandbox.hpp), so a compile with the machine to
// itself ends at its CPU seconds, all its processes counted, before its wall clock. A submission
// cannot hold every other compile back for longer than that.
//
// Host logic only; thread-safe.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

#include "process/process.hpp"

namespace labrun {

class CompileTurns {
 public:
  void acquire_shared();
  void release_shared();
  //! Waits until no compile holds a turn; new shared turns wait behind it.
  void acquire_alone();
  void release_alone();

  //! For tests and progress: turns held and asked for now, and compiles compiled again alone so far.
  [[nodiscard]] std::size_t sharers() const;
  [[nodiscard]] bool alone_held() const;
  [[nodiscard]] std::size_t waiting_alone() const;
  [[nodiscard]] std::size_t compiled_again() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t sharers_ = 0;
  std::size_t waiting_alone_ = 0;
  bool alone_ = false;
  std::size_t compiled_again_ = 0;
};

//! One compiler run under `turns` (null: graded alone, run as it is): run once in a shared turn;
//! when it ends at its wall clock (ProcessResult::timed_out), `before_again` clears what the first
//! run left, and it is run once more in the turn alone, whose result stands. `again` is set true
//! when it was.
[[nodiscard]] ProcessResult run_compiler_in_turn(CompileTurns* turns,
                                                 const std::function<ProcessResult()>& run,
                                                 const std::function<void()>& before_again, bool& again);

}  // namespace labrun
