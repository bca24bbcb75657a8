// Sum-of-squares corpus: pasted-has-include-newer-arch. Assembles __has_include by token pasting,
// which no check of the text sees, and only where the device code is compiled for sm_80 or newer
// steers an include computed inside an allowed CUDA header outside the allowed files. A check that
// preprocessed for the oldest architecture alone would let it pass on a machine without a GPU;
// the grader preprocesses for every architecture there, and compiles for the GPU's own where there
// is one: refused either way.

#include <cstddef>
#define LABRUN_PASTE(a, b) a##b
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#if LABRUN_PASTE(__has_, include)(<thrust/universal_vector.h>)
#define cuda ../../../../../../../../../../../../../etc/labrun-escape>
#include <thrust/universal_vector.h>
#undef cuda
#endif
#endif
__device__ __forceinline__ float warp_total(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// The block's total: warp shuffles, one shared word per warp, then the first warp.
__device__ float block_total(float value) {
  __shared__ float warps[32];
  value = warp_total(value);
  if (threadIdx.x % 32 == 0) {
    warps[threadIdx.x / 32] = value;
  }
  __syncthreads();
  value = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warp_total(value) : 0.0f;
}
// Block b squares the elements it covers as it loads them and adds them with warp shuffles.
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  float total = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    total += x[i] * x[i];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

// One block: each thread adds every blockDim.x-th partial, then the block adds its threads'.
extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    *sum = total;
  }
}
