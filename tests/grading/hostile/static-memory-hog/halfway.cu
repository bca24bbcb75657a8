// Hostile to the batch: static-memory-hog. Declares a 64 GiB __device__ array, so that loading its
// image would take most of the GPU's memory from the submissions graded beside it: refused before
// it is loaded.

#include "grading/submission.cuh"

__device__ float hoard[1ull << 34];

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    hoard[i] = x[i];
    intermediate[i] = day48::gelu(day48::scale_bias(hoard[i]));
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
