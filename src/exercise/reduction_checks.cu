// A reduction exercise's checking kernels (reduction_checks.hpp states their contracts). They
// regenerate every counted input from its seed, so what they compare with is never a buffer the
// submission could have changed.

#include <cstdint>

#include "exercise/counted_inputs.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/device_reduce.cuh"
#include "exercise/reduction_checks.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

using device::check_blocks;
using device::first_index;
using device::grid_stride;
using device::kCheckThreads;
using device::lane_zero;
using device::warp_sum;

__device__ __forceinline__ float term_of(CountedTerm term, float v) {
  return term == CountedTerm::kSquare ? v * v : v;
}

// Every counted input is a multiple of 1/4, so every term a multiple of the granule: 1/16 squared.
__device__ __forceinline__ double granules_per_unit(CountedTerm term) {
  return term == CountedTerm::kSquare ? 16.0 : 4.0;
}

__global__ void input_total_kernel(std::size_t n, std::uint64_t seed, double* total) {
  const int sparsity = counted_input_sparsity(n);
  double sum = 0.0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    sum += counted_input(seed, i, sparsity);
  }
  sum = warp_sum(sum);
  if (lane_zero()) {
    atomicAdd(total, sum);
  }
}

__global__ void partials_kernel(CountedTerm term, const std::uint32_t* __restrict__ partials,
                                std::size_t blocks, double* total, unsigned long long* unwritten,
                                unsigned long long* not_whole) {
  const double granules = granules_per_unit(term);
  double sum = 0.0;
  unsigned long long poisoned = 0;
  unsigned long long fractional = 0;
  for (std::size_t b = first_index(); b < blocks; b += grid_stride()) {
    if (partials[b] == kPoisonWord) {
      ++poisoned;
    } else {
      const double value = static_cast<double>(__uint_as_float(partials[b]));
      sum += value;
      fractional += isfinite(value) && floor(value * granules) == value * granules ? 0 : 1;
    }
  }
  sum = warp_sum(sum);
  poisoned = warp_sum(poisoned);
  fractional = warp_sum(fractional);
  if (lane_zero()) {
    atomicAdd(total, sum);
    atomicAdd(unwritten, poisoned);
    atomicAdd(not_whole, fractional);
  }
}

// Block b's total of terms of counted inputs drawn from `seed` over its share of [0, n): what a
// correct first stage would store for them, exactly (every partial total of counted inputs is).
__global__ void plant_kernel(CountedTerm term, float* __restrict__ partials, std::size_t blocks,
                             std::size_t n, std::uint64_t seed) {
  const int sparsity = counted_input_sparsity(n);
  const std::size_t share = (n + blocks - 1) / blocks;
  for (std::size_t b = first_index(); b < blocks; b += grid_stride()) {
    float sum = 0.0f;
    for (std::size_t i = b * share; i < n && i < (b + 1) * share; ++i) {
      sum += term_of(term, counted_input(seed, i, sparsity));
    }
    partials[b] = sum;
  }
}

}  // namespace

void counted_input_total(std::size_t n, std::uint64_t seed, double* total, cudaStream_t stream) {
  input_total_kernel<<<check_blocks(n), kCheckThreads, 0, stream>>>(n, seed, total);
  LABRUN_CHECK_LAUNCH("input_total_kernel");
}

void total_partials(CountedTerm term, const float* partials, std::size_t blocks, double* total,
                    unsigned long long* unwritten, unsigned long long* not_whole, cudaStream_t stream) {
  partials_kernel<<<check_blocks(blocks), kCheckThreads, 0, stream>>>(
      term, reinterpret_cast<const std::uint32_t*>(partials), blocks, total, unwritten, not_whole);
  LABRUN_CHECK_LAUNCH("partials_kernel");
}

void plant_partials(CountedTerm term, float* partials, std::size_t blocks, std::size_t n, std::uint64_t seed,
                    cudaStream_t stream) {
  plant_kernel<<<check_blocks(blocks), kCheckThreads, 0, stream>>>(term, partials, blocks, n, seed);
  LABRUN_CHECK_LAUNCH("plant_kernel");
}

}  // namespace labrun
