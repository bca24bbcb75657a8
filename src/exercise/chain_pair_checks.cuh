#pragma once
// A chain-pair exercise's checking kernels (chain_pair_checks.hpp states their contracts), made from
// the lab's own math: the lab's .cu instantiates them once,
//
//   labrun::ChainPairChecks halfway_checks() { return labrun::chain_pair_checks<ChainMath>(); }
//
// where ChainMath has, each a static function the device can call (the first three the host too):
//
//   float input(std::uint64_t seed, std::uint64_t i);   // the first kernel's input, element i
//   float second(std::uint64_t seed, std::uint64_t i);  // the second kernel's own input
//   double output(int composition, float input, float second);  // 0: the chain; 1..kCompositions:
//                                                                // the wrong ones the lab names
//   double intermediate(float input);  // the first kernel's stages, in float64
//   float planted(float input);        // the same in float, with the lab's stage functions
//   static constexpr int kCompositions;
//
// nvcc only.

#include <cstdint>

#include "exercise/chain_pair_checks.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/device_reduce.cuh"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace chain_pair {

using device::check_blocks;
using device::first_index;
using device::grid_stride;
using device::kCheckThreads;
using device::lane_zero;
using device::warp_max;
using device::warp_min;
using device::warp_sum;
using device::within;

template <typename Math>
__global__ void generate_inputs_kernel(float* __restrict__ input, float* __restrict__ second, std::size_t n,
                                       std::uint64_t seed_input, std::uint64_t seed_second) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    input[i] = Math::input(seed_input, i);
    second[i] = Math::second(seed_second, i);
  }
}

template <typename Math>
__global__ void plant_intermediate_kernel(float* __restrict__ intermediate, std::size_t n,
                                          std::uint64_t seed_input) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    intermediate[i] = Math::planted(Math::input(seed_input, i));
  }
}

template <typename Math>
__global__ void inspect_output_kernel(const std::uint32_t* __restrict__ output, std::size_t n,
                                      std::uint64_t seed_input, std::uint64_t seed_second, double absolute,
                                      double relative, bool count_compositions,
                                      ChainOutputCounters* counters) {
  constexpr int kCount = Math::kCompositions + 1;
  unsigned long long mismatches = 0;
  unsigned long long unwritten = 0;
  unsigned long long non_finite = 0;
  unsigned long long written_end = 0;
  unsigned long long first_bad = ~0ull;
  unsigned long long max_error_bits = 0;
  unsigned long long matches[kCount] = {};
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const std::uint32_t bits = output[i];
    const float in = Math::input(seed_input, i);
    const float other = Math::second(seed_second, i);
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
        const double expected = Math::output(0, in, other);
        const double error = fabs(got - expected);
        max_error_bits = max(max_error_bits, static_cast<unsigned long long>(__double_as_longlong(error)));
        bad = !within(got, expected, absolute, relative);
        if (count_compositions) {
#pragma unroll
          for (int c = 1; c < kCount; ++c) {
            matches[c] += within(got, Math::output(c, in, other), absolute, relative) ? 1 : 0;
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
  for (int c = 1; c < kCount; ++c) {
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
    for (int c = 1; c < kCount; ++c) {
      atomicAdd(&counters->composition_matches[c], matches[c]);
    }
  }
}

template <typename Math>
__global__ void inspect_intermediate_kernel(const std::uint32_t* __restrict__ intermediate, std::size_t n,
                                            std::uint64_t seed_input, double absolute, double relative,
                                            ChainIntermediateCounters* counters) {
  unsigned long long unwritten = 0;
  unsigned long long mismatches = 0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const std::uint32_t bits = intermediate[i];
    if (bits == kPoisonWord) {
      ++unwritten;
      continue;
    }
    const double got = static_cast<double>(__uint_as_float(bits));
    const double expected = Math::intermediate(Math::input(seed_input, i));
    mismatches += (!isfinite(got) || !within(got, expected, absolute, relative)) ? 1 : 0;
  }
  unwritten = warp_sum(unwritten);
  mismatches = warp_sum(mismatches);
  if (lane_zero()) {
    atomicAdd(&counters->unwritten, unwritten);
    atomicAdd(&counters->mismatches, mismatches);
  }
}

template <typename Math>
__global__ void count_input_changes_kernel(const float* __restrict__ input, const float* __restrict__ second,
                                           std::size_t n, std::uint64_t seed_input, std::uint64_t seed_second,
                                           unsigned long long* total) {
  unsigned long long changed = 0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    changed += (__float_as_uint(input[i]) != __float_as_uint(Math::input(seed_input, i)) ||
                __float_as_uint(second[i]) != __float_as_uint(Math::second(seed_second, i)))
                   ? 1
                   : 0;
  }
  changed = warp_sum(changed);
  if (lane_zero() && changed > 0) {
    atomicAdd(total, changed);
  }
}

template <typename Math>
void generate_inputs(float* input, float* second, std::size_t n, std::uint64_t seed_input,
                     std::uint64_t seed_second, cudaStream_t stream) {
  generate_inputs_kernel<Math>
      <<<check_blocks(n), kCheckThreads, 0, stream>>>(input, second, n, seed_input, seed_second);
  LABRUN_CHECK_LAUNCH("generate_inputs_kernel");
}

template <typename Math>
void plant_intermediate(float* intermediate, std::size_t n, std::uint64_t seed_input, cudaStream_t stream) {
  plant_intermediate_kernel<Math><<<check_blocks(n), kCheckThreads, 0, stream>>>(intermediate, n, seed_input);
  LABRUN_CHECK_LAUNCH("plant_intermediate_kernel");
}

template <typename Math>
void inspect_output(const float* output, std::size_t n, std::uint64_t seed_input, std::uint64_t seed_second,
                    double absolute, double relative, bool count_compositions, ChainOutputCounters* counters,
                    cudaStream_t stream) {
  ChainOutputCounters initial{};
  initial.first_bad = ~0ull;
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(counters, &initial, sizeof initial, cudaMemcpyHostToDevice, stream));
  inspect_output_kernel<Math><<<check_blocks(n), kCheckThreads, 0, stream>>>(
      reinterpret_cast<const std::uint32_t*>(output), n, seed_input, seed_second, absolute, relative,
      count_compositions, counters);
  LABRUN_CHECK_LAUNCH("inspect_output_kernel");
  // The copy reads `initial` before this function returns: wait for it.
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <typename Math>
void inspect_intermediate(const float* intermediate, std::size_t n, std::uint64_t seed_input, double absolute,
                          double relative, ChainIntermediateCounters* counters, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(counters, 0, sizeof(ChainIntermediateCounters), stream));
  inspect_intermediate_kernel<Math><<<check_blocks(n), kCheckThreads, 0, stream>>>(
      reinterpret_cast<const std::uint32_t*>(intermediate), n, seed_input, absolute, relative, counters);
  LABRUN_CHECK_LAUNCH("inspect_intermediate_kernel");
}

template <typename Math>
void count_input_changes(const float* input, const float* second, std::size_t n, std::uint64_t seed_input,
                         std::uint64_t seed_second, unsigned long long* count, cudaStream_t stream) {
  count_input_changes_kernel<Math>
      <<<check_blocks(n), kCheckThreads, 0, stream>>>(input, second, n, seed_input, seed_second, count);
  LABRUN_CHECK_LAUNCH("count_input_changes_kernel");
}

template <typename Math>
double expected_at(std::uint64_t seed_input, std::uint64_t seed_second, std::uint64_t i) {
  return Math::output(0, Math::input(seed_input, i), Math::second(seed_second, i));
}

}  // namespace chain_pair

//! The checks of the chain `Math` computes (this header's comment says what it must have).
template <typename Math>
ChainPairChecks chain_pair_checks() {
  static_assert(Math::kCompositions >= 0 && Math::kCompositions < kMaxChainCompositions,
                "a chain names at most kMaxChainCompositions - 1 wrong compositions");
  ChainPairChecks checks;
  checks.compositions = Math::kCompositions;
  checks.generate_inputs = chain_pair::generate_inputs<Math>;
  checks.plant_intermediate = chain_pair::plant_intermediate<Math>;
  checks.inspect_output = chain_pair::inspect_output<Math>;
  checks.inspect_intermediate = chain_pair::inspect_intermediate<Math>;
  checks.count_input_changes = chain_pair::count_input_changes<Math>;
  checks.expected_at = chain_pair::expected_at<Math>;
  return checks;
}

}  // namespace labrun
