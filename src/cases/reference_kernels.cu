// The harness's reference kernels (reference_kernels.hpp). Every kernel guards i < n.

#include "cases/reference_kernels.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

__device__ __forceinline__ std::size_t global_index() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}

// `scale` and `offset` arrive as arguments, so the compiler cannot fold the chains away.
__global__ void peak_fma(float* __restrict__ out, std::size_t n, float scale, float offset) {
  const std::size_t i = global_index();
  if (i >= n) {
    return;
  }
  float x[kPeakFmaChains];
#pragma unroll
  for (int c = 0; c < kPeakFmaChains; ++c) {
    x[c] = peak_fma_start(i, c);
  }
#pragma unroll 16
  for (int step = 0; step < kPeakFmaSteps; ++step) {
#pragma unroll
    for (int c = 0; c < kPeakFmaChains; ++c) {
      x[c] = fmaf(x[c], scale, offset);
    }
  }
  float sum = x[0];
#pragma unroll
  for (int c = 1; c < kPeakFmaChains; ++c) {
    sum += x[c];
  }
  out[i] = sum;
}

__global__ void copy_elements(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = in[i];
  }
}

__global__ void empty_kernel() {}

}  // namespace

void launch_peak_fma(float* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  peak_fma<<<blocks_for(n), kThreads, 0, stream>>>(out, n, kPeakFmaScale, kPeakFmaOffset);
  LABRUN_CHECK_LAUNCH("peak_fma");
}

const void* peak_fma_kernel() {
  return reinterpret_cast<const void*>(&peak_fma);
}

void launch_copy(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  copy_elements<<<blocks_for(n), kThreads, 0, stream>>>(in, out, n);
  LABRUN_CHECK_LAUNCH("copy_elements");
}

void launch_copy_memcpy(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  LABRUN_CHECK_LAUNCH("empty_kernel");
}

}  // namespace labrun
