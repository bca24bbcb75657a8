// Sum-of-squares corpus: device-side-launch. The finish launches another kernel from the device
// (dynamic parallelism) to do its work where the grader's events would not see it: without separate
// compilation, which the grader never uses, it does not compile.

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

__global__ void hidden_finish(const float* partials, float* sum, std::size_t blocks) {
  float total = 0.0f;
  for (std::size_t b = 0; b < blocks; ++b) {
    total += partials[b];
  }
  *sum = total;
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  if (threadIdx.x == 0) {
    hidden_finish<<<1, 1>>>(partials, sum, blocks);
  }
}
