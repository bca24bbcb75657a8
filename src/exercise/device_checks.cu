// The grading child's generic kernels; device_checks.hpp states their contracts.

#include <algorithm>
#include <cstdint>

#include "exercise/device_checks.hpp"
#include "exercise/device_reduce.cuh"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

using device::first_index;
using device::grid_stride;
using device::lane_zero;
using device::warp_sum;

using labrun::device::check_blocks;
constexpr unsigned kThreads = labrun::device::kCheckThreads;

__global__ void count_words_not_kernel(const std::uint32_t* __restrict__ words, std::size_t count,
                                       std::uint32_t pattern, unsigned long long* total) {
  unsigned long long differing = 0;
  for (std::size_t i = first_index(); i < count; i += grid_stride()) {
    differing += words[i] != pattern ? 1 : 0;
  }
  differing = warp_sum(differing);
  if (lane_zero() && differing > 0) {
    atomicAdd(total, differing);
  }
}

__global__ void count_words_differing_kernel(const std::uint32_t* __restrict__ a,
                                             const std::uint32_t* __restrict__ b, std::size_t count,
                                             unsigned long long* total) {
  unsigned long long differing = 0;
  for (std::size_t i = first_index(); i < count; i += grid_stride()) {
    differing += a[i] != b[i] ? 1 : 0;
  }
  differing = warp_sum(differing);
  if (lane_zero() && differing > 0) {
    atomicAdd(total, differing);
  }
}

// splitmix64's finaliser over (key, index, word): a keyed hash of each word at its place.
__device__ __forceinline__ unsigned long long mix(std::uint64_t key, std::uint64_t index,
                                                  std::uint32_t word) {
  std::uint64_t z = key ^ (index * 0x9E3779B97F4A7C15ull) ^ (static_cast<std::uint64_t>(word) << 17);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__global__ void digest_words_kernel(const std::uint32_t* __restrict__ words, std::size_t count,
                                    std::uint64_t key, unsigned long long* digest) {
  unsigned long long sum = 0;
  for (std::size_t i = first_index(); i < count; i += grid_stride()) {
    sum += mix(key, i, words[i]);
  }
  sum = warp_sum(sum);
  if (lane_zero()) {
    atomicAdd(digest, sum);
  }
}

}  // namespace

void count_words_not(const void* words, std::size_t count_words, std::uint32_t pattern,
                     unsigned long long* count, cudaStream_t stream) {
  if (count_words == 0) {
    return;
  }
  count_words_not_kernel<<<check_blocks(count_words), kThreads, 0, stream>>>(
      static_cast<const std::uint32_t*>(words), count_words, pattern, count);
  LABRUN_CHECK_LAUNCH("count_words_not_kernel");
}

void count_words_differing(const void* a, const void* b, std::size_t count_words, unsigned long long* count,
                           cudaStream_t stream) {
  if (count_words == 0) {
    return;
  }
  count_words_differing_kernel<<<check_blocks(count_words), kThreads, 0, stream>>>(
      static_cast<const std::uint32_t*>(a), static_cast<const std::uint32_t*>(b), count_words, count);
  LABRUN_CHECK_LAUNCH("count_words_differing_kernel");
}

void digest_words(const void* words, std::size_t count_words, std::uint64_t key, unsigned long long* digest,
                  cudaStream_t stream) {
  if (count_words == 0) {
    return;
  }
  digest_words_kernel<<<check_blocks(count_words), kThreads, 0, stream>>>(
      static_cast<const std::uint32_t*>(words), count_words, key, digest);
  LABRUN_CHECK_LAUNCH("digest_words_kernel");
}

}  // namespace labrun
