// Sum-of-squares corpus: correct-atomics. A correct pair whose threads add their squares into the
// block's shared accumulator with atomicAdd, after a barrier that orders the zeroing first; the
// finish does the same over the partials.

#include <cstddef>
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float total;
  if (threadIdx.x == 0) {
    total = 0.0f;
  }
  __syncthreads();
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&total, x[i] * x[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ float total;
  if (threadIdx.x == 0) {
    total = 0.0f;
  }
  __syncthreads();
  float mine = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    mine += partials[b];
  }
  atomicAdd(&total, mine);
  __syncthreads();
  if (threadIdx.x == 0) {
    *sum = total;
  }
}
