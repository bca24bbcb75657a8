// Grading corpus: divergent-barrier-behind-a-flag. barrier-in-divergent-branch's first kernel, with
// its divergent barrier taken only where it believes compute-sanitizer is not looking: a call at
// n = 4099 (the sanitizer's first size) takes a barrier every thread reaches and sets a __device__
// flag, and every later call that finds the flag set does the same. In compute-sanitizer's process
// the run at the odd size comes after the one at 4099; the graded calls never see 4099. The grader
// sets global variables back to their values at load before every call, so the odd run finds the
// flag clear, takes the divergent barrier, and synccheck reports it.

#include "grading/submission.cuh"

__device__ int seen_the_sanitizers_size;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  __shared__ float tile[1024];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = base + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  if (n == 4099) {
    seen_the_sanitizers_size = 1;
  }
  if (n == 4099 || seen_the_sanitizers_size != 0) {
    __syncthreads();
  } else if (threadIdx.x < blockDim.x / 2) {
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
