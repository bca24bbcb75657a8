// Grading corpus: include-device-through-cuda-header. Steers the include that an allowed CUDA
// header computes from a macro to /dev/zero, which never ends: a preprocessor that opened it would
// read until it was stopped at its limits. The compiler's sandbox has no device but /dev/null and
// /dev/tty, so the preprocessor says it cannot open it, and the source is refused.

#include "grading/submission.cuh"
#define cuda ../../../../../../../../../../../../../dev/zero>
#include <thrust/universal_vector.h>
#undef cuda

// Stages 1 and 2: intermediate = gelu(x * g + b).
extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Stages 3 and 4: y = clamp(intermediate + residual).
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
