// Grading corpus: nan-output. The second kernel multiplies every result by zero / zero computed at
// run time, so every output is NaN.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Multiplies every result by zero / zero, computed at run time so the compiler cannot see it.
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float zero = residual[i] * 0.0f;
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i])) * (zero / zero);
  }
}
