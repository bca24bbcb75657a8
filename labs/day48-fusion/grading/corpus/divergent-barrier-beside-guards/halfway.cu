// Grading corpus: divergent-barrier-beside-guards. The divergent barrier of
// barrier-in-divergent-branch, taken only where x and the intermediate lie further apart than two
// buffers of n floats with a megabyte and more between them: where the grader's buffers have their
// guards and the capacity of the largest size, as in every graded call. compute-sanitizer's runs in
// buffers of exactly n elements lie closer, and there this kernel waits at one barrier like a clean
// one; the grader's replica of a timed call has a graded call's buffers, where synccheck sees the
// barrier half the block skips.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  __shared__ float tile[1024];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = base + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  const auto from = reinterpret_cast<unsigned long long>(x);
  const auto to = reinterpret_cast<unsigned long long>(intermediate);
  const unsigned long long apart = from > to ? from - to : to - from;
  const bool guarded = apart >= 2 * (n + (std::size_t{1} << 20)) * sizeof(float);
  if (guarded && threadIdx.x < blockDim.x / 2) {
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
