#pragma once
// A reduction exercise's checking kernels (reduction_checks.cu; reduction_exercise.hpp says what
// they are for). Host-includable, and nvcc compiles it too, so it includes no harness type.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace labrun {

//! What each element adds to the total: its value, or its square.
enum class CountedTerm { kValue, kSquare };

// The harness's checking kernels (reduction_checks.cu), on `stream`, none synchronising; each
// regenerates the counted inputs from their seed (device_checks.hpp's fill_counted_inputs writes
// them), so what it compares with is never a buffer the submission could have changed.
//! Adds the float64 total of the counted inputs drawn from `seed`, no term applied, to *total.
void counted_input_total(std::size_t n, std::uint64_t seed, double* total, cudaStream_t stream);
//! Adds the float64 total of the written ones of partials[0, blocks) to *total, the poisoned to
//! *unwritten, and to *not_whole the written ones that are no whole number of `term`'s granule.
void total_partials(CountedTerm term, const float* partials, std::size_t blocks, double* total,
                    unsigned long long* unwritten, unsigned long long* not_whole, cudaStream_t stream);
//! partials[b] = the total of `term` over block b's share (ceil(n / blocks) elements) of counted
//! inputs drawn from `seed`: partials a correct first stage could have stored.
void plant_partials(CountedTerm term, float* partials, std::size_t blocks, std::size_t n, std::uint64_t seed,
                    cudaStream_t stream);

}  // namespace labrun
