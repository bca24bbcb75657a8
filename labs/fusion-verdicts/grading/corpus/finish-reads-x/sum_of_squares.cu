// Sum-of-squares corpus: finish-reads-x. The first kernel leaves x's address and n in device
// variables, and the finish ignores the partials and sums the squares of x itself: with x replaced
// and the partials planted, its sum follows x.

#include <cstddef>
__device__ const float* g_x = nullptr;
__device__ std::size_t g_n = 0;

// Block b squares the elements it covers as it loads them and adds them with a shared-memory tree.
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float part[1024];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    g_x = x;
    g_n = n;
  }
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

// Recomputes the whole sum from x through the stashed pointer.
extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ double part[1024];
  double total = 0.0;
  for (std::size_t i = threadIdx.x; i < g_n; i += blockDim.x) {
    total += static_cast<double>(g_x[i] * g_x[i]);
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
    *sum = static_cast<float>(part[0]);
  }
}
