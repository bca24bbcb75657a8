#pragma once
// Day 48's checking kernels (checks.cu): they generate a call's inputs, plant an intermediate, and
// inspect what a submission's kernels left in device memory (the harness's own, which count and
// digest memory for every exercise, are exercise/device_checks.hpp). Each regenerates the inputs and the
// float64 reference from the seeds it is given (chain_math.hpp) rather than reading a buffer the
// submission could have changed, and each runs after the submission's kernels have finished, on
// the same stream, so what it counts is what the submission did. Every launcher checks its launch
// and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "chain_math.hpp"

namespace day48::grading {

//! What inspect_output counts; written by the device, read once after the kernel.
struct OutputCounters {
  unsigned long long mismatches;
  unsigned long long unwritten;
  unsigned long long non_finite;
  unsigned long long written_end;         //!< one past the last element that is not poison; 0 if none
  unsigned long long first_bad;           //!< the smallest mismatching index; ~0 if none
  unsigned long long max_abs_error_bits;  //!< bits of a non-negative double (their order is the doubles')
  unsigned long long composition_matches[kCompositionCount];  //!< by Composition
};

struct IntermediateCounters {
  unsigned long long unwritten;
  unsigned long long mismatches;  //!< against stage 2's output in float64
};

//! x[i] = input_x_at(seed_x, i), residual[i] = residual_at(seed_residual, i) for i < n.
void generate_inputs(float* x, float* residual, std::size_t n, std::uint64_t seed_x,
                     std::uint64_t seed_residual, cudaStream_t stream);

//! intermediate[i] = gelu(scale_bias(input_x_at(seed_x, i))) in float, with the lab's stage functions.
void plant_intermediate(float* intermediate, std::size_t n, std::uint64_t seed_x, cudaStream_t stream);

//! Compares y[0, n) with clamp(gelu(scale_bias(x)) + r) in float64, x and r regenerated from their
//! seeds, and (when asked; it costs seven more float64 evaluations per element) counts the wrong
//! compositions it matches. `counters` is device memory; it is reset here, and the stream is
//! synchronised before returning. Tolerance: |got - expected| <= absolute + relative * |expected|.
void inspect_output(const float* y, std::size_t n, std::uint64_t seed_x, std::uint64_t seed_residual,
                    double absolute, double relative, bool count_compositions, OutputCounters* counters,
                    cudaStream_t stream);

//! Counts the intermediate's unwritten elements and those that are not stage 2's output of x.
void inspect_intermediate(const float* intermediate, std::size_t n, std::uint64_t seed_x, double absolute,
                          double relative, IntermediateCounters* counters, cudaStream_t stream);

//! Adds to *count the elements of x and residual that differ from their generated values.
void count_input_changes(const float* x, const float* residual, std::size_t n, std::uint64_t seed_x,
                         std::uint64_t seed_residual, unsigned long long* count, cudaStream_t stream);

}  // namespace day48::grading
