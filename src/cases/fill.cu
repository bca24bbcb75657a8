#include "cases/fill.hpp"

#include "cases/seeded_uniform.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

constexpr unsigned kFillThreads = 256;

__global__ void fill_seeded_uniform_kernel(float* __restrict__ out, std::size_t n, std::uint64_t seed,
                                           std::uint64_t stream_id, float low, float high) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    out[i] = seeded_uniform(seed, stream_id, i, low, high);
  }
}

}  // namespace

void fill_seeded_uniform(float* out, std::size_t n, std::uint64_t seed, std::uint64_t stream_id, float low,
                         float high, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  const auto blocks = static_cast<unsigned>((n + kFillThreads - 1) / kFillThreads);
  fill_seeded_uniform_kernel<<<blocks, kFillThreads, 0, stream>>>(out, n, seed, stream_id, low, high);
  LABRUN_CHECK_LAUNCH("fill_seeded_uniform_kernel");
}

void poison(float* out, std::size_t n, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(out, 0xFF, n * sizeof(float), stream));
}

void poison(std::uint8_t* out, std::size_t n, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(out, 0xFF, n, stream));
}

}  // namespace labrun
