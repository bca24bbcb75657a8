#include "grading/gpu_turns.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

TEST_CASE("an exclusive turn never overlaps a shared one, and shared turns overlap up to the cap") {
  labrun::GpuTurns turns(3);
  std::atomic<int> sharing{0};
  std::atomic<int> most_sharing{0};
  std::atomic<int> exclusive{0};
  std::atomic<bool> overlapped{false};
  std::vector<std::thread> workers;
  workers.reserve(8);
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&, w] {
      for (int round = 0; round < 20; ++round) {
        if ((w + round) % 4 == 0) {
          labrun::ExclusiveTurn turn(&turns);
          if (exclusive.fetch_add(1) != 0 || sharing.load() != 0) {
            overlapped = true;
          }
          std::this_thread::sleep_for(200us);
          exclusive.fetch_sub(1);
        } else {
          labrun::SharedTurn turn(&turns);
          const int now = sharing.fetch_add(1) + 1;
          int seen = most_sharing.load();
          while (now > seen && !most_sharing.compare_exchange_weak(seen, now)) {
          }
          if (exclusive.load() != 0) {
            overlapped = true;
          }
          std::this_thread::sleep_for(200us);
          sharing.fetch_sub(1);
        }
      }
    });
  }
  for (std::thread& t : workers) {
    t.join();
  }
  CHECK_FALSE(overlapped.load());
  CHECK(most_sharing.load() <= 3);
  CHECK(turns.sharers() == 0);
  CHECK_FALSE(turns.exclusive_held());
}

TEST_CASE("a waiting exclusive turn goes before new shared turns") {
  labrun::GpuTurns turns(8);
  turns.acquire_shared();
  std::atomic<bool> exclusive_got{false};
  std::atomic<bool> late_sharer_got{false};
  std::thread timer([&] {
    turns.acquire_exclusive();
    exclusive_got = true;
    std::this_thread::sleep_for(20ms);
    CHECK_FALSE(late_sharer_got.load());
    turns.release_exclusive();
  });
  std::this_thread::sleep_for(20ms);  // the timer is now waiting for the first sharer
  std::thread late([&] {
    turns.acquire_shared();
    late_sharer_got = true;
    turns.release_shared();
  });
  std::this_thread::sleep_for(20ms);
  CHECK_FALSE(late_sharer_got.load());
  CHECK_FALSE(exclusive_got.load());
  turns.release_shared();
  timer.join();
  late.join();
  CHECK(exclusive_got.load());
  CHECK(late_sharer_got.load());
}

TEST_CASE(
    "timers are gathered: sharers carry on until enough wait, then every waiting timer times before them") {
  labrun::GpuTurns turns(8, 2, 60.0);
  turns.acquire_shared();
  std::atomic<int> timed{0};
  std::thread first([&] {
    turns.acquire_exclusive();
    ++timed;
    turns.release_exclusive();
  });
  std::this_thread::sleep_for(20ms);
  // One timer waits, fewer than two: a sharer may still start.
  std::atomic<bool> sharer_got{false};
  std::thread sharer([&] {
    turns.acquire_shared();
    sharer_got = true;
    turns.release_shared();
  });
  sharer.join();
  CHECK(sharer_got.load());
  std::thread second([&] {
    turns.acquire_exclusive();
    ++timed;
    turns.release_exclusive();
  });
  std::this_thread::sleep_for(20ms);
  // Two wait: the drain has begun, so a new sharer waits behind both timers.
  std::atomic<bool> late_got{false};
  std::thread late([&] {
    turns.acquire_shared();
    late_got = true;
    CHECK(timed.load() == 2);
    turns.release_shared();
  });
  std::this_thread::sleep_for(20ms);
  CHECK_FALSE(late_got.load());
  turns.release_shared();
  first.join();
  second.join();
  late.join();
  CHECK(timed.load() == 2);
}

TEST_CASE("a lone timer starts the drain itself once it has waited long enough") {
  labrun::GpuTurns turns(4, 3, 0.05);
  turns.acquire_shared();
  std::atomic<bool> timed{false};
  std::thread timer([&] {
    turns.acquire_exclusive();
    timed = true;
    turns.release_exclusive();
  });
  std::this_thread::sleep_for(150ms);
  CHECK_FALSE(timed.load());  // still waiting for the sharer to finish
  turns.release_shared();
  timer.join();
  CHECK(timed.load());
}

TEST_CASE("no more gradings are resident than the memory holds, and one graded alone overlaps none") {
  labrun::GpuTurns turns(4, 1, 0.0, 3);
  std::atomic<int> resident{0};
  std::atomic<int> most_resident{0};
  std::atomic<int> alone{0};
  std::atomic<bool> overlapped{false};
  std::vector<std::thread> workers;
  workers.reserve(8);
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&, w] {
      for (int round = 0; round < 15; ++round) {
        if ((w + round) % 5 == 0) {
          const labrun::AloneTurn turn(&turns);
          if (alone.fetch_add(1) != 0 || resident.load() != 0) {
            overlapped = true;
          }
          std::this_thread::sleep_for(200us);
          alone.fetch_sub(1);
        } else {
          const labrun::ResidentTurn here(&turns);
          const int now = resident.fetch_add(1) + 1;
          int seen = most_resident.load();
          while (now > seen && !most_resident.compare_exchange_weak(seen, now)) {
          }
          {
            // A resident grading checks under a shared turn, then times under an exclusive one.
            const labrun::SharedTurn check(&turns);
            if (alone.load() != 0) {
              overlapped = true;
            }
            std::this_thread::sleep_for(100us);
          }
          const labrun::ExclusiveTurn time(&turns);
          if (alone.load() != 0) {
            overlapped = true;
          }
          std::this_thread::sleep_for(100us);
          resident.fetch_sub(1);
        }
      }
    });
  }
  for (std::thread& t : workers) {
    t.join();
  }
  CHECK_FALSE(overlapped.load());
  CHECK(most_resident.load() <= 3);
  CHECK(turns.sharers() == 0);
}

TEST_CASE("the GPU's time is told by what held it: a timer, shared turns, a drain, or nothing") {
  labrun::GpuTurns turns(2);
  {
    const labrun::SharedTurn shared(&turns);
    std::this_thread::sleep_for(60ms);
  }
  {
    const labrun::ExclusiveTurn timing(&turns);
    std::this_thread::sleep_for(60ms);
  }
  std::this_thread::sleep_for(60ms);
  const labrun::GpuTurns::TimeByState spent = turns.time_by_state();
  CHECK(spent.shared >= 0.05);
  CHECK(spent.timing >= 0.05);
  CHECK(spent.idle >= 0.05);
  CHECK(spent.alone == 0.0);
  CHECK(spent.drains == 1);
  CHECK(spent.yields == 0);
  CHECK(turns.describe_time().rfind("timing ", 0) == 0);
  CHECK(turns.describe_time().find("(1 drain; 0 checks gave way)") != std::string::npos);
}

TEST_CASE("a scoped turn made empty holds nothing until acquired, and gives back once however it ends") {
  labrun::GpuTurns turns(2);
  {
    labrun::ExclusiveTurn later;
    CHECK_FALSE(later.held());
    CHECK_FALSE(turns.exclusive_held());
    later.acquire(&turns);
    CHECK(later.held());
    CHECK(turns.exclusive_held());
    later.release();
    CHECK_FALSE(later.held());
    CHECK_FALSE(turns.exclusive_held());
    later.release();  // idempotent: nothing is given back twice
    later.acquire(&turns);
    CHECK(turns.exclusive_held());
  }
  CHECK_FALSE(turns.exclusive_held());  // the scope's end gave it back
  {
    labrun::SharedTurn none;
    none.acquire(nullptr);  // without turns, nothing is taken
    CHECK_FALSE(none.held());
    CHECK(turns.sharers() == 0);
    none.acquire(&turns);
    none.acquire(&turns);  // the one held is given back before the next is taken
    CHECK(turns.sharers() == 1);
  }
  CHECK(turns.sharers() == 0);
}
