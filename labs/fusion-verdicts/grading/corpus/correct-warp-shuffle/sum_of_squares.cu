// Sum-of-squares corpus: correct-warp-shuffle. A correct grid-stride pair whose blocks and finish
// add with warp shuffles, then one shared word per warp.

#include <cstddef>
__device__ __forceinline__ float warp_total(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// The block's total of `value`: warp shuffles, one shared word per warp, then the first warp.
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
