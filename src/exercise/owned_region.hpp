#pragma once
// A range of device memory, as the grading child names the memory it owns and the ranges a call is
// given. Host logic only.

#include <cstddef>

namespace labrun {

//! Memory the child owns, as (first byte, bytes).
struct OwnedRegion {
  const void* data = nullptr;
  std::size_t bytes = 0;
};

}  // namespace labrun
