// Grading corpus: stale-intermediate-at-large-size. The first kernel writes nothing at large sizes,
// so the second reads whatever the intermediate held before: right at the odd size, wrong at the
// card-scaled one.

#include "grading/submission.cuh"

// Skips its work at large sizes, hoping the intermediate still holds an earlier run's values.
extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n > (std::size_t{1} << 24)) {
    return;
  }
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
