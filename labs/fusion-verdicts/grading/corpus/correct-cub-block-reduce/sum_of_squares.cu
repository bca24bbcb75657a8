// Sum-of-squares corpus: correct-cub-block-reduce. A correct grid-stride pair whose blocks add
// with CUB's BlockReduce (256 threads, as the manifest launches both kernels), loading x as float4
// with a scalar tail: as fast as the card reads, and it must get full marks, never impossible-time.

#include <cstddef>
#include <cub/block/block_reduce.cuh>

using BlockSum = cub::BlockReduce<float, 256>;

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ BlockSum::TempStorage scratch;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 4;
  float total = 0.0f;
  for (std::size_t v = first; v < vectors; v += stride) {
    const float4 q = reinterpret_cast<const float4*>(x)[v];
    total += q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  }
  for (std::size_t i = 4 * vectors + first; i < n; i += stride) {
    total += x[i] * x[i];
  }
  total = BlockSum(scratch).Sum(total);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ BlockSum::TempStorage scratch;
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  total = BlockSum(scratch).Sum(total);
  if (threadIdx.x == 0) {
    *sum = total;
  }
}
