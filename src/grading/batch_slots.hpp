#pragma once
// The slots of a batch: how many gradings work at once (compile, check, time; `labrun grade
// --batch --jobs N`). A grading whose child has ended gives its slot up while it only waits for
// compute-sanitizer's verdict, which runs in processes of its own (exercise/sanitizer_screen.hpp),
// and takes one again before it does anything else; so a grading waiting for its screening group
// to form and run does not keep the next submission from starting. Thread-safe.

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace labrun {

class BatchSlots {
 public:
  explicit BatchSlots(std::size_t slots) : free_(slots == 0 ? 1 : slots) {}

  void acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return free_ > 0; });
    --free_;
  }
  void release() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ++free_;
    }
    changed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t free_;
};

//! A slot held for a scope: taken when made, given back when it goes.
class SlotHeld {
 public:
  explicit SlotHeld(BatchSlots& slots) : slots_(slots) { slots_.acquire(); }
  ~SlotHeld() { slots_.release(); }
  SlotHeld(const SlotHeld&) = delete;
  SlotHeld& operator=(const SlotHeld&) = delete;

 private:
  BatchSlots& slots_;
};

//! A slot given up for a scope (nothing without slots), and taken again when the scope ends.
class SlotGivenUp {
 public:
  explicit SlotGivenUp(BatchSlots* slots) : slots_(slots) {
    if (slots_ != nullptr) {
      slots_->release();
    }
  }
  ~SlotGivenUp() {
    if (slots_ != nullptr) {
      slots_->acquire();
    }
  }
  SlotGivenUp(const SlotGivenUp&) = delete;
  SlotGivenUp& operator=(const SlotGivenUp&) = delete;

 private:
  BatchSlots* slots_;
};

}  // namespace labrun
