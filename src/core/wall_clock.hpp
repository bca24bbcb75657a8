#pragma once
// Wall time on the monotonic clock, for progress lines, limits and phase records.

#include <chrono>

namespace labrun {

using WallClock = std::chrono::steady_clock;

//! Seconds elapsed on the monotonic clock since `start`.
[[nodiscard]] inline double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

}  // namespace labrun
