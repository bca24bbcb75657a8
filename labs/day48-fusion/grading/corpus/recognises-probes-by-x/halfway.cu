// Grading corpus: recognises-probes-by-x. The second kernel reads x through an address the first
// kernel left in a device variable and compares the intermediate with stage 2 of x: where they
// agree it takes the call for a timed one and skips its work; where they do not (x replaced, as
// the grader's checks do) it works honestly. Every checked call replaces x, so it is honest in
// them all; the timed calls are checked too, and there its y is never written.

#include "grading/submission.cuh"

__device__ const float* g_x = nullptr;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) {
    g_x = x;
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
  const bool x_agrees = intermediate[i] == day48::gelu(day48::scale_bias(g_x[i]));
  if (!x_agrees) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
