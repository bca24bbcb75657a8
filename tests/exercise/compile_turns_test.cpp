// The batch's compile turns (exercise/compile_turns.hpp): a compiler run stopped at its wall clock
// beside other compiles runs again with none beside it, and only the second run's result stands.
// The runs here are stand-ins (no compiler): what is checked is the rule, not nvcc.

#include "exercise/compile_turns.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>

namespace {

labrun::ProcessResult finished() {
  labrun::ProcessResult r;
  r.started = true;
  r.exit_code = 0;
  return r;
}

labrun::ProcessResult stopped_at_wall_clock() {
  labrun::ProcessResult r;
  r.started = true;
  r.timed_out = true;
  r.signal = 9;
  return r;
}

}  // namespace

TEST_CASE("a compile graded alone runs once, whatever its end") {
  int runs = 0;
  bool again = true;
  const labrun::ProcessResult r = labrun::run_compiler_in_turn(
      nullptr,
      [&] {
        ++runs;
        return stopped_at_wall_clock();
      },
      [] {}, again);
  CHECK(runs == 1);
  CHECK_FALSE(again);
  CHECK(r.timed_out);
}

TEST_CASE("a compile that finishes beside others runs once, in a shared turn") {
  labrun::CompileTurns turns;
  int runs = 0;
  bool again = true;
  const labrun::ProcessResult r = labrun::run_compiler_in_turn(
      &turns,
      [&] {
        ++runs;
        CHECK(turns.sharers() == 1);
        CHECK_FALSE(turns.alone_held());
        return finished();
      },
      [] { FAIL("nothing to clear"); }, again);
  CHECK(runs == 1);
  CHECK_FALSE(again);
  CHECK(r.succeeded());
  CHECK(turns.sharers() == 0);
  CHECK(turns.compiled_again() == 0);
}

TEST_CASE("a compile stopped at its wall clock beside others runs again alone, once others have ended") {
  labrun::CompileTurns turns;
  // Another compile in progress beside it, ending a little later.
  std::atomic<bool> neighbour_done{false};
  turns.acquire_shared();
  std::thread neighbour([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    neighbour_done = true;
    turns.release_shared();
  });
  int runs = 0;
  bool cleared = false;
  bool again = false;
  const labrun::ProcessResult r = labrun::run_compiler_in_turn(
      &turns,
      [&] {
        ++runs;
        if (runs == 1) {
          CHECK(turns.sharers() == 2);  // itself and the neighbour
          return stopped_at_wall_clock();
        }
        // The second run: no compile beside it, the neighbour ended, what the first left cleared.
        CHECK(turns.alone_held());
        CHECK(turns.sharers() == 0);
        CHECK(neighbour_done);
        CHECK(cleared);
        return finished();
      },
      [&] { cleared = true; }, again);
  neighbour.join();
  CHECK(runs == 2);
  CHECK(again);
  CHECK(r.succeeded());  // the second run's result stands
  CHECK_FALSE(turns.alone_held());
  CHECK(turns.compiled_again() == 1);
}

TEST_CASE("a compile waiting to run alone is not starved by compiles that keep starting") {
  labrun::CompileTurns turns;
  turns.acquire_shared();  // a compile in progress
  std::atomic<bool> alone_started{false};
  std::thread waiting([&] {
    turns.acquire_alone();
    alone_started = true;
    turns.release_alone();
  });
  // Once the alone turn is asked for, a new compile waits behind it.
  while (turns.waiting_alone() == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::atomic<bool> late_started{false};
  std::thread late([&] {
    turns.acquire_shared();
    late_started = true;
    CHECK(alone_started);  // the alone turn went first
    turns.release_shared();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(late_started);   // behind the waiting alone turn, though no one holds it yet
  CHECK_FALSE(alone_started);  // the first compile still runs
  turns.release_shared();
  waiting.join();
  late.join();
  CHECK(alone_started);
  CHECK(late_started);
}
