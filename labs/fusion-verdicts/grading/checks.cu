// The sum-of-squares exercise's checking kernels; grading/exercise.hpp states their contracts. They
// regenerate every input from its seed, so what they compare with is never a buffer the
// submission could have changed.

#include <cstdint>

#include "../constants.hpp"
#include "cases/seeded_uniform.hpp"
#include "exercise.hpp"
#include "exercise/counted_inputs.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/device_reduce.cuh"
#include "timing/cuda_check.hpp"

namespace verdicts::grading {
namespace {

using labrun::device::check_blocks;
using labrun::device::first_index;
using labrun::device::grid_stride;
using labrun::device::kCheckThreads;
using labrun::device::lane_zero;
using labrun::device::warp_sum;

// Kind 0: the lab's own inputs; 1: counted inputs (exercise/counted_inputs.hpp), what every call
// of the submission is given.
__device__ __forceinline__ float input_at(std::uint64_t seed, int kind, std::size_t i, int sparsity) {
  if (kind == 0) {
    return labrun::seeded_uniform(seed, kInputStream, i, kInputLow, kInputHigh);
  }
  return labrun::counted_input(seed, i, sparsity);
}

__global__ void fill_kernel(float* __restrict__ x, std::size_t n, std::uint64_t seed, int kind) {
  const int sparsity = labrun::counted_input_sparsity(n);
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    x[i] = input_at(seed, kind, i, sparsity);
  }
}

// The float64 sums of x^2 (of the float product, as a kernel squares) and of x.
__global__ void reference_kernel(std::size_t n, std::uint64_t seed, int kind, double* sums) {
  const int sparsity = labrun::counted_input_sparsity(n);
  double squares = 0.0;
  double plain = 0.0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const double v = input_at(seed, kind, i, sparsity);
    squares += v * v;
    plain += v;
  }
  squares = warp_sum(squares);
  plain = warp_sum(plain);
  if (lane_zero()) {
    atomicAdd(sums, squares);
    atomicAdd(sums + 1, plain);
  }
}

__global__ void partials_kernel(const std::uint32_t* __restrict__ partials, std::size_t blocks, double* total,
                                unsigned long long* unwritten, unsigned long long* not_whole) {
  double sum = 0.0;
  unsigned long long poisoned = 0;
  unsigned long long fractional = 0;
  for (std::size_t b = first_index(); b < blocks; b += grid_stride()) {
    if (partials[b] == labrun::kPoisonWord) {
      ++poisoned;
    } else {
      const double value = static_cast<double>(__uint_as_float(partials[b]));
      sum += value;
      fractional += isfinite(value) && floor(value * 16.0) == value * 16.0 ? 0 : 1;
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

// Block b's partial sum of counted inputs drawn from `seed` over its share of [0, n): what a correct
// first kernel would store for them, exactly (every partial of counted inputs is).
__global__ void plant_kernel(float* __restrict__ partials, std::size_t blocks, std::size_t n,
                             std::uint64_t seed) {
  const int sparsity = labrun::counted_input_sparsity(n);
  const std::size_t share = (n + blocks - 1) / blocks;
  for (std::size_t b = first_index(); b < blocks; b += grid_stride()) {
    float sum = 0.0f;
    for (std::size_t i = b * share; i < n && i < (b + 1) * share; ++i) {
      const float v = labrun::counted_input(seed, i, sparsity);
      sum += v * v;
    }
    partials[b] = sum;
  }
}

}  // namespace

void fill_inputs(float* x, std::size_t n, std::uint64_t seed, int kind, cudaStream_t stream) {
  fill_kernel<<<check_blocks(n), kCheckThreads, 0, stream>>>(x, n, seed, kind);
  LABRUN_CHECK_LAUNCH("fill_kernel");
}

void reference_sums(std::size_t n, std::uint64_t seed, int kind, double* sums, cudaStream_t stream) {
  reference_kernel<<<check_blocks(n), kCheckThreads, 0, stream>>>(n, seed, kind, sums);
  LABRUN_CHECK_LAUNCH("reference_kernel");
}

void total_partials(const float* partials, std::size_t blocks, double* total, unsigned long long* unwritten,
                    unsigned long long* not_whole, cudaStream_t stream) {
  partials_kernel<<<check_blocks(blocks), kCheckThreads, 0, stream>>>(
      reinterpret_cast<const std::uint32_t*>(partials), blocks, total, unwritten, not_whole);
  LABRUN_CHECK_LAUNCH("partials_kernel");
}

void plant_partials(float* partials, std::size_t blocks, std::size_t n, std::uint64_t seed,
                    cudaStream_t stream) {
  plant_kernel<<<check_blocks(blocks), kCheckThreads, 0, stream>>>(partials, blocks, n, seed);
  LABRUN_CHECK_LAUNCH("plant_kernel");
}

}  // namespace verdicts::grading
