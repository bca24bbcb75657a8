#include "timing/device_context.hpp"

#include <cuda_runtime_api.h>

#include "core/wall_clock.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {

double open_device_context() {
  const auto start = WallClock::now();
  LABRUN_CUDA_CHECK(cudaFree(nullptr));
  return seconds_since(start);
}

double renew_device_context() {
  const auto start = WallClock::now();
  LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  LABRUN_CUDA_CHECK(cudaDeviceReset());
  // The runtime creates the next context lazily, at the next call that needs one: create it here, so
  // that its cost is counted here and not in the first buffer's allocation.
  LABRUN_CUDA_CHECK(cudaFree(nullptr));
  return seconds_since(start);
}

}  // namespace labrun
