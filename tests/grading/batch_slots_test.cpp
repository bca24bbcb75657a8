#include "grading/batch_slots.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>

TEST_CASE("a grading that gives its slot up lets another start, and takes one again before it goes on") {
  labrun::BatchSlots slots(1);
  std::atomic<int> stage{0};
  std::thread first([&] {
    const labrun::SlotHeld held(slots);
    stage = 1;
    {
      const labrun::SlotGivenUp waiting(&slots);  // waits for its sanitizer verdict
      while (stage.load() != 2) {
        std::this_thread::yield();
      }
    }
    stage = 3;  // only once the other has given its slot back
  });
  while (stage.load() != 1) {
    std::this_thread::yield();
  }
  {
    const labrun::SlotHeld second(slots);  // the first holds none now
    stage = 2;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(stage.load() == 2);  // the first cannot go on while this one holds the only slot
  }
  first.join();
  CHECK(stage.load() == 3);
}
