// Grading corpus: cached-answer. Caches the first call's output in device memory and returns it on
// later calls at the same size: every call gets fresh inputs, so the second is wrong.
//
// What it meant to do it cannot: the grader sets the submission's global variables back to their
// values at load before every call (src/exercise/child_session.hpp, restore_globals), so no call
// finds what an earlier one left in them. It does its work in every call; expected.json says how
// that is graded.

#include "grading/submission.cuh"

// Keeps the first call's output on the device and returns it on later calls at the same small size.
constexpr std::size_t kCached = std::size_t{1} << 21;
__device__ float g_cache[kCached];
__device__ unsigned g_calls = 0;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) {
    ++g_calls;
  }
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  if (g_calls > 1 && n <= kCached) {
    y[i] = g_cache[i];
    return;
  }
  const float value = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  y[i] = value;
  if (n <= kCached) {
    g_cache[i] = value;
  }
}
