// Sum-of-squares corpus: barrier-in-divergent-branch. A shared-memory tree whose first step is
// taken by half the block, which waits at a barrier inside its branch while the other half waits
// at a second barrier in the other branch. The arrivals add up and the sums come out right on the
// H200, but a __syncthreads() that not every thread of the block reaches is undefined behaviour:
// compute-sanitizer's synccheck reports it.

#include <cstddef>

// The block's total of `value` (blockDim.x a power of two, at least 64).
__device__ float block_total(float value) {
  __shared__ float part[1024];
  part[threadIdx.x] = value;
  __syncthreads();
  const unsigned half = blockDim.x / 2;
  if (threadIdx.x < half) {
    part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  } else {
    __syncthreads();
  }
  for (unsigned step = half / 2; step > 0; step /= 2) {
    if (threadIdx.x < step) {
      part[threadIdx.x] += part[threadIdx.x + step];
    }
    __syncthreads();
  }
  return part[0];
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
