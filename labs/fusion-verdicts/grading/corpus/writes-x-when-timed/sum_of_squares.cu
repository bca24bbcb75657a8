// Sum-of-squares corpus: writes-x-when-timed. Honest in the calls it expects to be checked; from
// the ninth call, when it hopes only the time is looked at, the first kernel also writes each
// square back into x, its input. The sum stays right, but every call is held to the contract: the
// inputs must not change, timed or not.
//
// What it meant to do it cannot: the grader sets the submission's global variables back to their
// values at load before every call (src/exercise/child_session.hpp, restore_globals), so no call
// finds what an earlier one left in them. It does its work in every call; expected.json says how
// that is graded.

#include <cstddef>
__device__ __forceinline__ float warp_total(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// The block's total: warp shuffles, one shared word per warp, then the first warp.
__device__ float block_total(float value) {
  __shared__ float warps[32];
  value = warp_total(value);
  if (threadIdx.x % 32 == 0) {
    warps[threadIdx.x / 32] = value;
  }
  __syncthreads();
  value = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? warp_total(value) : 0.0f;
}
// Calls finished so far, counted by the finish: the grader checks 8 calls (4 probes at each of 2
// sizes) before it times; compute-sanitizer's runs are processes of their own, of 2 calls each.
__device__ unsigned g_calls = 0;

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  const bool timed = g_calls >= 8;
  float* scratch = const_cast<float*>(x);
  float total = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float square = x[i] * x[i];
    total += square;
    if (timed) {
      scratch[i] = square;
    }
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    *sum = total;
    ++g_calls;
  }
}
