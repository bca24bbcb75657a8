// Sum-of-squares corpus: squares-materialised. The first kernel writes every square to an array of
// its own in global memory and sums the array back: right, but the n squares the exercise folds
// away are written.

#include <cstddef>
// Up to 2^22 squares: as many as the odd size needs, and a first share of the larger one.
constexpr std::size_t kStored = std::size_t{1} << 22;
__device__ float g_squares[kStored];

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float part[1024];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float square = 0.0f;
  if (i < n) {
    square = x[i] * x[i];
    if (i < kStored) {
      g_squares[i] = square;  // materialised, then read back
      square = static_cast<volatile float*>(g_squares)[i];
    }
  }
  part[threadIdx.x] = square;
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
