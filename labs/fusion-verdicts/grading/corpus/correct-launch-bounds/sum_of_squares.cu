// Sum-of-squares corpus: correct-launch-bounds. A correct grid-stride pair compiled with
// __launch_bounds__, four loads in flight per thread, and warp shuffles: fast, and full marks.

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

extern "C" __global__ void __launch_bounds__(512, 2)
    sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const float p = x[i], q = x[i + stride], r = x[i + 2 * stride], s = x[i + 3 * stride];
    a += p * p;
    b += q * q;
    c += r * r;
    d += s * s;
  }
  for (; i < n; i += stride) {
    a += x[i] * x[i];
  }
  const float total = block_total((a + b) + (c + d));
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

// One block: each thread adds every blockDim.x-th partial, then the block adds its threads'.
extern "C" __global__ void __launch_bounds__(1024)
    sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum, std::size_t blocks) {
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    *sum = total;
  }
}
