#include "grading/gpu_turns.hpp"

#include <algorithm>

namespace labrun {

GpuTurns::GpuTurns(std::size_t max_sharers) : max_sharers_(std::max<std::size_t>(1, max_sharers)) {}

void GpuTurns::acquire_shared() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !exclusive_ && waiting_exclusive_ == 0 && sharers_ < max_sharers_; });
  ++sharers_;
}

void GpuTurns::release_shared() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    --sharers_;
  }
  changed_.notify_all();
}

void GpuTurns::acquire_exclusive() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_exclusive_;
  changed_.wait(lock, [&] { return !exclusive_ && sharers_ == 0; });
  --waiting_exclusive_;
  exclusive_ = true;
}

void GpuTurns::release_exclusive() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    exclusive_ = false;
  }
  changed_.notify_all();
}

std::size_t GpuTurns::sharers() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return sharers_;
}

bool GpuTurns::exclusive_held() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return exclusive_;
}

}  // namespace labrun
