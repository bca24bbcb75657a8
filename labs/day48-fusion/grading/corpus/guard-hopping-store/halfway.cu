// Grading corpus: guard-hopping-store. A correct pair plus one store 1031 floats past the end of y,
// just beyond the 1024 guard floats an earlier grader checked.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Correct, plus one store 1031 floats past the end: beyond a 1024-float guard, inside a 2 MiB one.
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
  if (i == 0) {
    y[n + 1031] = 0.0f;
  }
}
