#pragma once
// GPU tests call this first: without a usable CUDA device the test is skipped (Catch2 SKIP, exit
// code 4, which CTest shows as skipped), never passed.

#include <catch2/catch_test_macros.hpp>

#include "device/device_info.hpp"

namespace labrun::testing {

inline void require_gpu() {
  const DeviceAvailability availability = probe_devices();
  if (!availability.usable) {
    SKIP("no usable CUDA device: " + availability.error);
  }
}

}  // namespace labrun::testing
