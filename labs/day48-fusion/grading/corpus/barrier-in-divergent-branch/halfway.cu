// Grading corpus: barrier-in-divergent-branch. The first kernel stages its block's inputs through
// shared memory and waits for them at a barrier inside a branch half the block takes, the other
// half at a second barrier in the other branch. The arrivals add up and the output comes out right
// on the H200, but a __syncthreads() that not every thread of the block reaches is undefined
// behaviour: compute-sanitizer's synccheck reports it.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  __shared__ float tile[1024];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = base + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  if (threadIdx.x < blockDim.x / 2) {
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
