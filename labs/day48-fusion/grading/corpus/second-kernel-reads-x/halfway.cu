// Grading corpus: second-kernel-reads-x. The second kernel recomputes stages 1 and 2 from x, whose
// address the first kernel left in a device variable, and ignores the intermediate; the manifest
// still declares 20 bytes.

#include "grading/submission.cuh"

// The first kernel hands x's address to the second through a device variable; the second computes
// the whole chain from x and never reads the intermediate: 24 bytes per element, declared as 20.
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
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(day48::gelu(day48::scale_bias(g_x[i])), residual[i]));
  }
}
