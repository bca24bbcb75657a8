#pragma once
// A chain-pair exercise's checking kernels (chain_pair_exercise.hpp says what they are for), as the
// lab's .cu instantiates them from its own math (chain_pair_checks.cuh). Host-includable, and nvcc
// compiles it too, so it includes no harness type.
//
// Each kernel regenerates the inputs and the float64 reference from the seeds it is given rather
// than reading a buffer the submission could have changed, and runs after the submission's kernels
// have finished, on the same stream, so what it counts is what the submission did. Every launcher
// checks its launch and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace labrun {

//! Compositions of the chain a declaration may name, the right one (0) included.
inline constexpr int kMaxChainCompositions = 16;

//! What inspect_output counts; written by the device, read once after the kernel.
struct ChainOutputCounters {
  unsigned long long mismatches;
  unsigned long long unwritten;
  unsigned long long non_finite;
  unsigned long long written_end;         //!< one past the last element that is not poison; 0 if none
  unsigned long long first_bad;           //!< the smallest mismatching index; ~0 if none
  unsigned long long max_abs_error_bits;  //!< bits of a non-negative double (their order is the doubles')
  unsigned long long composition_matches[kMaxChainCompositions];  //!< by composition; [0] unused
};

struct ChainIntermediateCounters {
  unsigned long long unwritten;
  unsigned long long mismatches;  //!< against the first kernel's stages in float64
};

//! The checks of one lab's chain. "input" is the first kernel's input, "second" the second kernel's
//! own input; each is drawn from its seed by the lab's generator.
struct ChainPairChecks {
  //! Wrong compositions the lab names: 1 to this (below kMaxChainCompositions).
  int compositions = 0;
  //! input[i], second[i] for i < n, from their seeds.
  void (*generate_inputs)(float* input, float* second, std::size_t n, std::uint64_t seed_input,
                          std::uint64_t seed_second, cudaStream_t stream) = nullptr;
  //! intermediate[i] = the first kernel's stages of input[i] drawn from `seed_input`, in float, with
  //! the lab's stage functions: what a correct first kernel stores.
  void (*plant_intermediate)(float* intermediate, std::size_t n, std::uint64_t seed_input,
                             cudaStream_t stream) = nullptr;
  //! Compares output[0, n) with the chain in float64, the inputs regenerated from their seeds, and
  //! (when asked; it costs one more float64 evaluation per wrong composition and element) counts
  //! the wrong compositions it matches. `counters` is device memory; it is reset here, and the
  //! stream is synchronised before returning. Tolerance: |got - expected| <= absolute + relative *
  //! |expected|.
  void (*inspect_output)(const float* output, std::size_t n, std::uint64_t seed_input,
                         std::uint64_t seed_second, double absolute, double relative, bool count_compositions,
                         ChainOutputCounters* counters, cudaStream_t stream) = nullptr;
  //! Counts the intermediate's unwritten elements and those that are not the first kernel's stages.
  void (*inspect_intermediate)(const float* intermediate, std::size_t n, std::uint64_t seed_input,
                               double absolute, double relative, ChainIntermediateCounters* counters,
                               cudaStream_t stream) = nullptr;
  //! Adds to *count the elements of input and second that differ from their generated values.
  void (*count_input_changes)(const float* input, const float* second, std::size_t n,
                              std::uint64_t seed_input, std::uint64_t seed_second, unsigned long long* count,
                              cudaStream_t stream) = nullptr;
  //! The chain's float64 value at element i, on the host.
  double (*expected_at)(std::uint64_t seed_input, std::uint64_t seed_second, std::uint64_t i) = nullptr;
};

}  // namespace labrun
