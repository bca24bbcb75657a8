// Grading corpus: correct-but-slow. Correct output, but 32-thread blocks with 64 consecutive
// elements per thread make every access uncoalesced and the pair several times slower.

#include "grading/submission.cuh"

// 64 CONSECUTIVE elements per thread: neighbouring lanes are 64 floats apart, so no warp access is
// coalesced. Right results, several times slower.
constexpr std::size_t kPerThread = 64;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kPerThread;
  for (std::size_t k = 0; k < kPerThread; ++k) {
    const std::size_t i = first + k;
    if (i < n) {
      intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
    }
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kPerThread;
  for (std::size_t k = 0; k < kPerThread; ++k) {
    const std::size_t i = first + k;
    if (i < n) {
      y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
    }
  }
}
