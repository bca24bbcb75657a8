// Sum-of-squares corpus: tail-missed. float4 loads, four elements per thread, and no tail: the last
// n mod 4 elements are never added. The seeded sums stay within the tolerance; the counted ones
// miss 3 at the odd size.

#include <cstddef>
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float part[1024];
  const std::size_t quad = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float total = 0.0f;
  if (4 * quad + 3 < n) {  // a quad that runs past n is skipped whole
    const float4 v = reinterpret_cast<const float4*>(x)[quad];
    total = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
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
    partials[blockIdx.x] = part[0];
  }
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
