#include "grading/gpu_turns.hpp"

#include <algorithm>

#include "base/format.hpp"

namespace labrun {

GpuTurns::GpuTurns(std::size_t max_sharers, std::size_t gather, double gather_seconds,
                   std::size_t max_residents)
    : max_sharers_(std::max<std::size_t>(1, max_sharers)),
      gather_(std::max<std::size_t>(1, gather)),
      gather_seconds_(gather_seconds),
      max_residents_(std::max<std::size_t>(1, max_residents)) {}

void GpuTurns::acquire_resident() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !alone_ && waiting_alone_ == 0 && residents_ < max_residents_; });
  ++residents_;
}

void GpuTurns::release_resident() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    --residents_;
  }
  changed_.notify_all();
}

void GpuTurns::acquire_alone() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_alone_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return !alone_ && !exclusive_ && residents_ == 0 && sharers_ == 0; });
  --waiting_alone_;
  account_locked();
  alone_ = true;
}

void GpuTurns::release_alone() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    account_locked();
    alone_ = false;
  }
  changed_.notify_all();
}

void GpuTurns::acquire_shared() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !alone_ && !exclusive_ && !draining_ && sharers_ < max_sharers_; });
  account_locked();
  ++sharers_;
}

void GpuTurns::release_shared() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    account_locked();
    --sharers_;
  }
  changed_.notify_all();
}

void GpuTurns::acquire_exclusive() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_exclusive_;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(gather_seconds_);
  // Gather: until enough timers wait, or this one has waited long enough, sharers carry on.
  while (!draining_) {
    if (waiting_exclusive_ >= gather_ || std::chrono::steady_clock::now() >= deadline) {
      account_locked();
      draining_ = true;
      ++spent_.drains;
      changed_.notify_all();
      break;
    }
    changed_.wait_until(lock, deadline);
  }
  changed_.wait(lock, [&] { return !alone_ && !exclusive_ && sharers_ == 0; });
  --waiting_exclusive_;
  account_locked();
  exclusive_ = true;
}

void GpuTurns::release_exclusive() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    account_locked();
    exclusive_ = false;
    if (waiting_exclusive_ == 0) {
      draining_ = false;  // every gathered timer has timed: sharers start again
    }
  }
  changed_.notify_all();
}

std::size_t GpuTurns::sharers() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return sharers_;
}

void GpuTurns::account_locked() const {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - since_).count();
  since_ = now;
  if (exclusive_) {
    spent_.timing += seconds;
  } else if (alone_) {
    spent_.alone += seconds;
  } else if (draining_) {
    spent_.draining += seconds;
  } else if (sharers_ > 0) {
    spent_.shared += seconds;
  } else {
    spent_.idle += seconds;
  }
}

GpuTurns::TimeByState GpuTurns::time_by_state() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  account_locked();  // the current state's time, up to now
  return spent_;
}

std::string GpuTurns::describe_time() const {
  const TimeByState t = time_by_state();
  const auto part = [](const char* name, double seconds) {
    return std::string(name) + " " + fixed(seconds, 1) + " s";
  };
  return part("timing", t.timing) + " · " + part("draining", t.draining) + " (" + std::to_string(t.drains) +
         (t.drains == 1 ? " drain; " : " drains; ") + std::to_string(t.yields) +
         (t.yields == 1 ? " check gave way) · " : " checks gave way) · ") + part("shared", t.shared) + " · " +
         part("alone", t.alone) + " · " + part("idle", t.idle);
}

void GpuTurns::note_yield() {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++spent_.yields;
}

bool GpuTurns::draining() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return draining_;
}

bool GpuTurns::exclusive_held() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return exclusive_;
}

}  // namespace labrun
