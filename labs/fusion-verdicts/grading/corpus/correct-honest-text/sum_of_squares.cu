// Sum-of-squares corpus: correct-honest-text. A correct, fast pair whose source holds text that
// only looks like escapes: a commented-out include of an outside file, a raw string that holds an
// include, a string that mentions a pragma, debugging includes kept in groups the preprocessor
// skips, and _Pragma("unroll") in a macro. None of it is a directive the preprocessor acts on: full
// marks.

#include <cstddef>

/* Notes while writing this:
#include "/etc/passwd"
   #include <cstdio>   (for printf while debugging)
*/
#if 0
#include <cstdio>
#endif
#ifdef LABRUN_DEBUG_PRINTS
#include <iostream>
#endif

// A raw string over several lines, and a string that mentions a pragma: text, not directives.
static constexpr const char kNotes[] = R"notes(
#include </etc/shadow>
#pragma GCC dependency "/etc/passwd"
)notes";
static constexpr const char kPragmaNote[] = "_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\") is text here";
static_assert(sizeof(kNotes) > 1 && sizeof(kPragmaNote) > 1, "notes kept");

#define LABRUN_UNROLL _Pragma("unroll")
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

extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  float total = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    total += x[i] * x[i];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
  }
}

// One block: each thread adds every blockDim.x-th partial, then the block adds its threads'.
extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  float total = 0.0f;
  for (std::size_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    total += partials[b];
  }
  total = block_total(total);
  if (threadIdx.x == 0) {
    *sum = total;
  }
}
