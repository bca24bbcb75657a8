// The grading child's generic kernels; device_checks.hpp states their contracts.

#include <algorithm>
#include <cstdint>

#include "exercise/counted_inputs.hpp"
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

// An element of `width` bytes is poisoned when every byte of it is 0xFF.
__global__ void count_elements_not_kernel(const unsigned char* __restrict__ bytes, std::size_t count,
                                          unsigned width, unsigned long long* total) {
  unsigned long long differing = 0;
  for (std::size_t i = first_index(); i < count; i += grid_stride()) {
    bool poisoned = true;
    for (unsigned b = 0; b < width; ++b) {
      poisoned = poisoned && bytes[i * width + b] == 0xFFu;
    }
    differing += poisoned ? 0 : 1;
  }
  differing = warp_sum(differing);
  if (lane_zero() && differing > 0) {
    atomicAdd(total, differing);
  }
}

__global__ void compare_elements_kernel(const unsigned char* __restrict__ got,
                                        const unsigned char* __restrict__ expected,
                                        const unsigned char* __restrict__ classes, std::size_t n,
                                        unsigned width, unsigned long long* counts) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    bool wrong = false;
    bool poisoned = true;
    bool one = true;
    for (unsigned b = 0; b < width; ++b) {
      const unsigned char value = got[i * width + b];
      wrong = wrong || value != expected[i * width + b];
      poisoned = poisoned && value == 0xFFu;
      one = one && value == (b == 0 ? 1u : 0u);
    }
    if (!wrong) {
      continue;
    }
    atomicAdd(counts + labrun::kWrongElements, 1ull);
    atomicAdd(counts + labrun::kUnwrittenElements, poisoned ? 1ull : 0ull);
    atomicMin(counts + labrun::kFirstWrong, static_cast<unsigned long long>(i));
    const unsigned in = classes == nullptr ? 0u : classes[i];
    for (unsigned c = 0; c < 8; ++c) {
      if ((in >> c) & 1u) {
        atomicAdd(counts + labrun::kWrongInClass + c, 1ull);
        atomicAdd(counts + labrun::kWrongSetInClass + c, one ? 1ull : 0ull);
      }
    }
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

// Each thread keeps four 16-byte loads in flight per step of its grid-stride loop.
constexpr unsigned kStreamThreads = 512;
constexpr unsigned kStreamBlocksPerMultiprocessor = 4;
constexpr std::size_t kStreamUnroll = 4;

// Visits every float4 of x once, each thread keeping kStreamUnroll loads in flight per step.
template <typename Visit>
__device__ void visit_vectors(const float4* __restrict__ x, std::size_t vectors, Visit visit) {
  const std::size_t stride = grid_stride();
  std::size_t i = first_index();
  for (; i + (kStreamUnroll - 1) * stride < vectors; i += kStreamUnroll * stride) {
    float4 v[kStreamUnroll];
#pragma unroll
    for (std::size_t k = 0; k < kStreamUnroll; ++k) {
      v[k] = x[i + k * stride];
    }
#pragma unroll
    for (std::size_t k = 0; k < kStreamUnroll; ++k) {
      visit(i + k * stride, v[k]);
    }
  }
  for (; i < vectors; i += stride) {
    visit(i, x[i]);
  }
}

__global__ void read_stream_kernel(const float4* __restrict__ x, std::size_t vectors,
                                   const float* __restrict__ tail, std::size_t tail_count, float* sink) {
  float sum = 0.0f;
  visit_vectors(x, vectors, [&sum](std::size_t, float4 v) { sum += v.x + v.y + v.z + v.w; });
  for (std::size_t t = first_index(); t < tail_count; t += grid_stride()) {
    sum += tail[t];
  }
  // Never true for the grader's inputs (finite, and not this value): the loads cannot be left out.
  if (sum == -1.0e38f) {
    sink[blockIdx.x] = sum;
  }
}

__global__ void copy_stream_kernel(const float4* __restrict__ x, float4* __restrict__ y, std::size_t vectors,
                                   const float* __restrict__ tail_x, float* __restrict__ tail_y,
                                   std::size_t tail_count) {
  visit_vectors(x, vectors, [y](std::size_t i, float4 v) { y[i] = v; });
  for (std::size_t t = first_index(); t < tail_count; t += grid_stride()) {
    tail_y[t] = tail_x[t];
  }
}

// The digest's key, as its terms use it: the key itself whitens each unit's bits, and an odd
// multiplier drawn from it spreads the units' positions.
struct DigestKey {
  std::uint64_t whiten = 0;
  std::uint64_t multiplier = 1;
};

__host__ __device__ __forceinline__ std::uint64_t finalise(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

DigestKey digest_key(std::uint64_t key) {
  return {key, finalise(key ^ 0xD1B54A32D192ED03ull) | 1ull};
}

// One unit's term: its bits whitened by the key, plus its position times the key's multiplier,
// through splitmix64's finaliser. The digest is the sum of the terms: any change to a unit changes
// its term, and changes whose terms cancel (a swap of two units included) can be chosen only
// knowing the key. A unit is 8 bytes where the region is 16-byte aligned, else a word.
__device__ __forceinline__ unsigned long long digest_term(const DigestKey& key, std::uint64_t unit,
                                                          std::uint64_t bits) {
  return finalise((bits ^ key.whiten) + unit * key.multiplier);
}

// A 16-byte aligned region: 16-byte loads, four in flight per thread (visit_vectors); vector i
// holds units 2i and 2i + 1; the last count % 4 words are units 2 * vectors + t, one each.
__global__ void digest_vectors_kernel(const float4* __restrict__ x, std::size_t vectors,
                                      const std::uint32_t* __restrict__ tail, std::size_t tail_count,
                                      DigestKey key, unsigned long long* digest) {
  unsigned long long sum = 0;
  visit_vectors(x, vectors, [&sum, &key](std::size_t i, float4 v) {
    const std::uint64_t low = __float_as_uint(v.x) | (static_cast<std::uint64_t>(__float_as_uint(v.y)) << 32);
    const std::uint64_t high =
        __float_as_uint(v.z) | (static_cast<std::uint64_t>(__float_as_uint(v.w)) << 32);
    sum += digest_term(key, 2 * i, low) + digest_term(key, 2 * i + 1, high);
  });
  for (std::size_t t = first_index(); t < tail_count; t += grid_stride()) {
    sum += digest_term(key, 2 * vectors + t, tail[t]);
  }
  sum = warp_sum(sum);
  if (lane_zero()) {
    atomicAdd(digest, sum);
  }
}

// Any other region: one word a unit.
__global__ void digest_words_kernel(const std::uint32_t* __restrict__ words, std::size_t count, DigestKey key,
                                    unsigned long long* digest) {
  unsigned long long sum = 0;
  for (std::size_t i = first_index(); i < count; i += grid_stride()) {
    sum += digest_term(key, i, words[i]);
  }
  sum = warp_sum(sum);
  if (lane_zero()) {
    atomicAdd(digest, sum);
  }
}

__global__ void fill_counted_inputs_kernel(float* __restrict__ x, std::size_t n, std::uint64_t seed,
                                           int sparsity) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    x[i] = counted_input(seed, i, sparsity);
  }
}

unsigned stream_blocks(int multiprocessors) {
  return static_cast<unsigned>(std::max(multiprocessors, 1)) * kStreamBlocksPerMultiprocessor;
}

}  // namespace

void read_stream(const float* x, std::size_t n, float* sink, int multiprocessors, cudaStream_t stream) {
  const std::size_t vectors = n / 4;
  read_stream_kernel<<<stream_blocks(multiprocessors), kStreamThreads, 0, stream>>>(
      reinterpret_cast<const float4*>(x), vectors, x + vectors * 4, n - vectors * 4, sink);
  LABRUN_CHECK_LAUNCH("read_stream_kernel");
}

void copy_stream(const float* x, float* y, std::size_t n, int multiprocessors, cudaStream_t stream) {
  const std::size_t vectors = n / 4;
  copy_stream_kernel<<<stream_blocks(multiprocessors), kStreamThreads, 0, stream>>>(
      reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), vectors, x + vectors * 4,
      y + vectors * 4, n - vectors * 4);
  LABRUN_CHECK_LAUNCH("copy_stream_kernel");
}

void fill_counted_inputs(float* x, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  fill_counted_inputs_kernel<<<check_blocks(n), kThreads, 0, stream>>>(x, n, seed, counted_input_sparsity(n));
  LABRUN_CHECK_LAUNCH("fill_counted_inputs_kernel");
}

void count_words_not(const void* words, std::size_t count_words, std::uint32_t pattern,
                     unsigned long long* count, cudaStream_t stream) {
  if (count_words == 0) {
    return;
  }
  count_words_not_kernel<<<check_blocks(count_words), kThreads, 0, stream>>>(
      static_cast<const std::uint32_t*>(words), count_words, pattern, count);
  LABRUN_CHECK_LAUNCH("count_words_not_kernel");
}

void count_elements_not(const void* bytes, std::size_t count, std::size_t element_bytes,
                        unsigned long long* total, cudaStream_t stream) {
  if (element_bytes == sizeof(std::uint32_t)) {
    count_words_not(bytes, count, kPoisonWord, total, stream);
    return;
  }
  if (count == 0) {
    return;
  }
  count_elements_not_kernel<<<check_blocks(count), kThreads, 0, stream>>>(
      static_cast<const unsigned char*>(bytes), count, static_cast<unsigned>(element_bytes), total);
  LABRUN_CHECK_LAUNCH("count_elements_not_kernel");
}

void compare_elements(const void* got, const void* expected, const unsigned char* classes, std::size_t n,
                      std::size_t width, unsigned long long* counts, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  compare_elements_kernel<<<check_blocks(n), kThreads, 0, stream>>>(
      static_cast<const unsigned char*>(got), static_cast<const unsigned char*>(expected), classes, n,
      static_cast<unsigned>(width), counts);
  LABRUN_CHECK_LAUNCH("compare_elements_kernel");
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
  const DigestKey digest_with = digest_key(key);
  if (reinterpret_cast<std::uintptr_t>(words) % sizeof(float4) == 0) {
    const std::size_t vectors = count_words / 4;
    const auto* tail = static_cast<const std::uint32_t*>(words) + vectors * 4;
    const std::size_t tail_count = count_words - vectors * 4;
    digest_vectors_kernel<<<check_blocks(std::max(vectors, tail_count)), kThreads, 0, stream>>>(
        static_cast<const float4*>(words), vectors, tail, tail_count, digest_with, digest);
    LABRUN_CHECK_LAUNCH("digest_vectors_kernel");
    return;
  }
  digest_words_kernel<<<check_blocks(count_words), kThreads, 0, stream>>>(
      static_cast<const std::uint32_t*>(words), count_words, digest_with, digest);
  LABRUN_CHECK_LAUNCH("digest_words_kernel");
}

}  // namespace labrun
