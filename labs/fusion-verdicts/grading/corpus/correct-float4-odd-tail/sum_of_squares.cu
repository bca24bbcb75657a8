// Sum-of-squares corpus: correct-float4-odd-tail. A correct pair that loads x as float4, four
// elements per thread, the n mod 4 elements of an odd n added by the last block's first threads,
// and adds with warp shuffles: fast, and full marks.

#include <cstddef>
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

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  const std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 4;
  float total = 0.0f;
  if (v < vectors) {
    const float4 q = reinterpret_cast<const float4*>(x)[v];
    total = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  }
  // The odd tail: the last block's first n mod 4 threads take one element each.
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n - 4 * vectors) {
    const float t = x[4 * vectors + threadIdx.x];
    total += t * t;
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
