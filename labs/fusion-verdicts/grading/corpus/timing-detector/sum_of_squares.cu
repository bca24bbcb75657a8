// Sum-of-squares corpus: timing-detector. Right for its first ten calls (the eight checked probes
// and the two warm-up calls the timing starts with), then the finish skips its work, hoping the
// later calls are only timed: every timed call is checked too.
//
// What it meant to do it cannot: the grader sets the submission's global variables back to their
// values at load before every call (src/exercise/child_session.hpp, restore_globals), so no call
// finds what an earlier one left in them. It does its work in every call; expected.json says how
// that is graded.

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

__device__ unsigned g_calls = 0;

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __shared__ float part[1024];
  __shared__ unsigned calls;
  if (threadIdx.x == 0) {
    calls = ++g_calls;
  }
  __syncthreads();
  if (calls > 10) {
    return;
  }
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
