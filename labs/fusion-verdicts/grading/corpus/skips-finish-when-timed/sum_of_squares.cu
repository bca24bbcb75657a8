// Sum-of-squares corpus: skips-finish-when-timed. Honest in the calls it expects to be checked; from
// the ninth call the first kernel also totals the sum itself (the last block to finish adds the
// partials) and stores it through the sum's address that the finish kept from the call before,
// and the finish does nothing. The first kernel writes a buffer it was not given: the sum starts
// at a place drawn from each call's seed, so the kept address is another call's place, and the sum
// the call was given stays unwritten.
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

__device__ float* g_sum = nullptr;
__device__ unsigned g_blocks_done = 0;

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  float total = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    total += x[i] * x[i];
  }
  total = block_total(total);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
    __threadfence();
    last = g_calls >= 8 && atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    float all = 0.0f;
    for (std::size_t b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
      all += partials[b];
    }
    all = block_total(all);
    if (threadIdx.x == 0) {
      *g_sum = all;
      g_blocks_done = 0;
    }
  }
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  const bool timed = g_calls >= 8;
  float total = 0.0f;
  if (!timed) {
    for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
      total += partials[b];
    }
    total = block_total(total);
  }
  if (threadIdx.x == 0) {
    if (!timed) {
      *sum = total;
    }
    g_sum = sum;
    ++g_calls;
  }
}
