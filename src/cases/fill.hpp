#pragma once
// Device fills the harness owns for declared labs (src/cases/declared_lab.hpp): seeded inputs and
// poisoned outputs. Host-includable; every call checks its launch and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace labrun {

//! out[i] = seeded_uniform(seed, stream_id, i, low, high) for i < n (src/cases/seeded_uniform.hpp),
//! enqueued on `stream` without synchronising.
void fill_seeded_uniform(float* out, std::size_t n, std::uint64_t seed, std::uint64_t stream_id, float low,
                         float high, cudaStream_t stream);

//! Every bit of out[0, n) set: each float becomes a NaN, so an element no kernel wrote, or a read of
//! a buffer another version left behind, cannot pass a comparison. Enqueued on `stream`.
void poison(float* out, std::size_t n, cudaStream_t stream);
//! Every bit of out[0, n) set: each byte becomes 255, which no byte output of a lab takes as a value
//! (a mask is 0 or 1). Enqueued on `stream`.
void poison(std::uint8_t* out, std::size_t n, cudaStream_t stream);

}  // namespace labrun
