// Sum-of-squares corpus: compiler-output-bad-bytes. A stray pair of bytes that are not UTF-8 stops
// the compile, and the compiler quotes them: the report replaces them and stays valid JSON.

#include <cstddef>
// Block b squares the elements it covers as it loads them and adds them with a shared-memory tree.
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float part[1024];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float v = i < n ? x[i] : 0.0f;
  part[threadIdx.x] = v * v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      part[threadIdx.x] += part[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = part[0];
  }
}

// One block: each thread adds every blockDim.x-th partial, then a shared-memory tree adds the threads'.
extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ float part[1024];
  int badÿþ = 1;  // bytes that are not UTF-8
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
