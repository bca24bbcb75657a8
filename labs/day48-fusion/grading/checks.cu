// The grader's own kernels; checks.hpp states their contracts.

#include <algorithm>
#include <cstdint>

#include "exercise/device_checks.hpp"
#include "exercise/device_reduce.cuh"
#include "grading/checks.hpp"
#include "stages.cuh"
#include "timing/cuda_check.hpp"

namespace day48::grading {
namespace {

using labrun::device::check_blocks;
constexpr unsigned kThreads = labrun::device::kCheckThreads;

using labrun::kPoisonWord;
using labrun::device::first_index;
using labrun::device::grid_stride;
using labrun::device::lane_zero;
using labrun::device::warp_max;
using labrun::device::warp_min;
using labrun::device::warp_sum;
using labrun::device::within;

__global__ void generate_inputs_kernel(float* __restrict__ x, float* __restrict__ residual, std::size_t n,
                                       std::uint64_t seed_x, std::uint64_t seed_residual) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    x[i] = input_x_at(seed_x, i);
    residual[i] = residual_at(seed_residual, i);
  }
}

__global__ void plant_intermediate_kernel(float* __restrict__ intermediate, std::size_t n,
                                          std::uint64_t seed_x) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    intermediate[i] = gelu(scale_bias(input_x_at(seed_x, i)));
  }
}

__global__ void inspect_output_kernel(const std::uint32_t* __restrict__ y, std::size_t n,
                                      std::uint64_t seed_x, std::uint64_t seed_residual, double absolute,
                                      double relative, bool count_compositions, OutputCounters* counters) {
  unsigned long long mismatches = 0;
  unsigned long long unwritten = 0;
  unsigned long long non_finite = 0;
  unsigned long long written_end = 0;
  unsigned long long first_bad = ~0ull;
  unsigned long long max_error_bits = 0;
  unsigned long long matches[kCompositionCount] = {};
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const std::uint32_t bits = y[i];
    const float x = input_x_at(seed_x, i);
    const float r = residual_at(seed_residual, i);
    bool bad = false;
    if (bits == kPoisonWord) {
      ++unwritten;
      bad = true;
    } else {
      written_end = i + 1;
      const double got = static_cast<double>(__uint_as_float(bits));
      if (!isfinite(got)) {
        ++non_finite;
        bad = true;
      } else {
        const double expected = chain_element(Composition::kCorrect, x, r);
        const double error = fabs(got - expected);
        max_error_bits = max(max_error_bits, static_cast<unsigned long long>(__double_as_longlong(error)));
        bad = !within(got, expected, absolute, relative);
        if (count_compositions) {
#pragma unroll
          for (int c = 1; c < kCompositionCount; ++c) {
            matches[c] +=
                within(got, chain_element(static_cast<Composition>(c), x, r), absolute, relative) ? 1 : 0;
          }
        }
      }
    }
    if (bad) {
      ++mismatches;
      first_bad = min(first_bad, static_cast<unsigned long long>(i));
    }
  }
  mismatches = warp_sum(mismatches);
  unwritten = warp_sum(unwritten);
  non_finite = warp_sum(non_finite);
  written_end = warp_max(written_end);
  first_bad = warp_min(first_bad);
  max_error_bits = warp_max(max_error_bits);
#pragma unroll
  for (int c = 1; c < kCompositionCount; ++c) {
    matches[c] = warp_sum(matches[c]);
  }
  if (lane_zero()) {
    atomicAdd(&counters->mismatches, mismatches);
    atomicAdd(&counters->unwritten, unwritten);
    atomicAdd(&counters->non_finite, non_finite);
    atomicMax(&counters->written_end, written_end);
    atomicMin(&counters->first_bad, first_bad);
    atomicMax(&counters->max_abs_error_bits, max_error_bits);
#pragma unroll
    for (int c = 1; c < kCompositionCount; ++c) {
      atomicAdd(&counters->composition_matches[c], matches[c]);
    }
  }
}

__global__ void inspect_intermediate_kernel(const std::uint32_t* __restrict__ intermediate, std::size_t n,
                                            std::uint64_t seed_x, double absolute, double relative,
                                            IntermediateCounters* counters) {
  unsigned long long unwritten = 0;
  unsigned long long mismatches = 0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const std::uint32_t bits = intermediate[i];
    if (bits == kPoisonWord) {
      ++unwritten;
      continue;
    }
    const double got = static_cast<double>(__uint_as_float(bits));
    mismatches +=
        (!isfinite(got) || !within(got, intermediate_element(input_x_at(seed_x, i)), absolute, relative)) ? 1
                                                                                                          : 0;
  }
  unwritten = warp_sum(unwritten);
  mismatches = warp_sum(mismatches);
  if (lane_zero()) {
    atomicAdd(&counters->unwritten, unwritten);
    atomicAdd(&counters->mismatches, mismatches);
  }
}

__global__ void count_input_changes_kernel(const float* __restrict__ x, const float* __restrict__ residual,
                                           std::size_t n, std::uint64_t seed_x, std::uint64_t seed_residual,
                                           unsigned long long* total) {
  unsigned long long changed = 0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    changed += (__float_as_uint(x[i]) != __float_as_uint(input_x_at(seed_x, i)) ||
                __float_as_uint(residual[i]) != __float_as_uint(residual_at(seed_residual, i)))
                   ? 1
                   : 0;
  }
  changed = warp_sum(changed);
  if (lane_zero() && changed > 0) {
    atomicAdd(total, changed);
  }
}

}  // namespace

void generate_inputs(float* x, float* residual, std::size_t n, std::uint64_t seed_x,
                     std::uint64_t seed_residual, cudaStream_t stream) {
  generate_inputs_kernel<<<check_blocks(n), kThreads, 0, stream>>>(x, residual, n, seed_x, seed_residual);
  LABRUN_CHECK_LAUNCH("generate_inputs_kernel");
}

void plant_intermediate(float* intermediate, std::size_t n, std::uint64_t seed_x, cudaStream_t stream) {
  plant_intermediate_kernel<<<check_blocks(n), kThreads, 0, stream>>>(intermediate, n, seed_x);
  LABRUN_CHECK_LAUNCH("plant_intermediate_kernel");
}

void inspect_output(const float* y, std::size_t n, std::uint64_t seed_x, std::uint64_t seed_residual,
                    double absolute, double relative, bool count_compositions, OutputCounters* counters,
                    cudaStream_t stream) {
  OutputCounters initial{};
  initial.first_bad = ~0ull;
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(counters, &initial, sizeof initial, cudaMemcpyHostToDevice, stream));
  inspect_output_kernel<<<check_blocks(n), kThreads, 0, stream>>>(reinterpret_cast<const std::uint32_t*>(y),
                                                                  n, seed_x, seed_residual, absolute,
                                                                  relative, count_compositions, counters);
  LABRUN_CHECK_LAUNCH("inspect_output_kernel");
  // The copy reads `initial` before this function returns: wait for it.
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void inspect_intermediate(const float* intermediate, std::size_t n, std::uint64_t seed_x, double absolute,
                          double relative, IntermediateCounters* counters, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(counters, 0, sizeof(IntermediateCounters), stream));
  inspect_intermediate_kernel<<<check_blocks(n), kThreads, 0, stream>>>(
      reinterpret_cast<const std::uint32_t*>(intermediate), n, seed_x, absolute, relative, counters);
  LABRUN_CHECK_LAUNCH("inspect_intermediate_kernel");
}

void count_input_changes(const float* x, const float* residual, std::size_t n, std::uint64_t seed_x,
                         std::uint64_t seed_residual, unsigned long long* count, cudaStream_t stream) {
  count_input_changes_kernel<<<check_blocks(n), kThreads, 0, stream>>>(x, residual, n, seed_x, seed_residual,
                                                                       count);
  LABRUN_CHECK_LAUNCH("count_input_changes_kernel");
}

}  // namespace day48::grading
