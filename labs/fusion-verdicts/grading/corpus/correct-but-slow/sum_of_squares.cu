// Sum-of-squares corpus: correct-but-slow. Correct, but only the first thread of each 1,024-thread
// block works, adding its block's elements one after another: several times slower than the lab's
// folded kernel.

#include <cstddef>
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  if (threadIdx.x != 0) {
    return;
  }
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  float total = 0.0f;
  for (std::size_t i = first; i < first + blockDim.x && i < n; ++i) {
    total += x[i] * x[i];
  }
  partials[blockIdx.x] = total;
}

// One block: each thread adds every blockDim.x-th partial, then a shared-memory tree adds the threads'.
extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ float part[1024];
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  part[threadIdx.x] = total;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      part[threadIdx.x] += part[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    *sum = part[0];
  }
}
