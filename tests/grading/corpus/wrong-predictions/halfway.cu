// Fixture: correct kernels (same as `correct`); the mistake is in manifest.json, which predicts
// ratios of 2.0 and 2.0 (the launch-count ratios) instead of the byte ratios 1.8 and 1.67.

#include "grading/submission.hpp"
#include "stages.cuh"

namespace {

constexpr unsigned kThreads = 256;

// Stages 1 and 2: intermediate = gelu(scale_bias(x)).
__global__ void scale_bias_gelu(const float* __restrict__ x, float* __restrict__ intermediate,
                                std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Stages 3 and 4: y = clamp_range(add_residual(intermediate, residual)).
__global__ void residual_clamp(const float* __restrict__ intermediate, const float* __restrict__ residual,
                               float* __restrict__ y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}

}  // namespace

extern "C" void day48_halfway_launch(const day48::HalfwayBuffers* buffers, std::size_t n,
                                     cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  scale_bias_gelu<<<blocks, kThreads, 0, stream>>>(buffers->x, buffers->intermediate, n);
  residual_clamp<<<blocks, kThreads, 0, stream>>>(buffers->intermediate, buffers->residual, buffers->y, n);
}
