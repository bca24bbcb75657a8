// Grading corpus: divergent-barrier-at-powers-of-two. The divergent barrier of
// barrier-in-divergent-branch, taken only where n is a power of two: the card-scaled size, where
// every timed call runs. compute-sanitizer's runs in buffers of exactly n elements are at odd sizes
// (4099 and 1,049,187), where this kernel waits at one barrier like a clean one; the grader's replica
// of a timed call is at the card-scaled size, where synccheck sees the barrier half the block skips.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  __shared__ float tile[1024];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = base + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  const bool power_of_two = (n & (n - 1)) == 0;
  if (power_of_two && threadIdx.x < blockDim.x / 2) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  const unsigned int mirror = blockDim.x - 1 - threadIdx.x;
  const std::size_t j = base + mirror;
  if (j < n) {
    intermediate[j] = day48::gelu(day48::scale_bias(tile[mirror]));
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
