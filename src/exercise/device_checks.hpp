#pragma once
// The grading child's own kernels that every exercise's checks use (device_checks.cu): they count
// what changed in memory the child owns and digest it with a key the submission never sees. Each
// runs after the submission's kernels have finished, on the same stream, so what it counts is what
// the submission did. Every launcher checks its launch and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace labrun {

//! The bit pattern every unwritten element holds (cudaMemset 0xFF): a NaN no arithmetic yields.
inline constexpr std::uint32_t kPoisonWord = 0xFFFFFFFFu;

//! Adds to *count the 4-byte words of [words, words + count_words) that differ from `pattern`.
void count_words_not(const void* words, std::size_t count_words, std::uint32_t pattern,
                     unsigned long long* count, cudaStream_t stream);

//! Adds to *count the 4-byte words where [a, a + count_words) and [b, b + count_words) differ.
void count_words_differing(const void* a, const void* b, std::size_t count_words, unsigned long long* count,
                           cudaStream_t stream);

//! Adds to *digest a keyed sum over the words of [words, words + count_words): any change to the
//! buffer changes it, except with negligible probability, unless the key is known.
void digest_words(const void* words, std::size_t count_words, std::uint64_t key, unsigned long long* digest,
                  cudaStream_t stream);

//! The card's memory measured for two kinds of traffic, for the bound on how fast any correct
//! submission can be (exercise/judge.hpp): a read-only stream (reads n floats, writes one float per
//! block, and only when the sum it keeps of them is a value it never is) and a copy (reads n floats,
//! writes n). Both load and store 16 bytes per access from 256-byte aligned buffers, with several
//! loads in flight per thread over a grid that fills the card, as the fastest honest submission
//! would.
void read_stream(const float* x, std::size_t n, float* sink, int multiprocessors, cudaStream_t stream);
void copy_stream(const float* x, float* y, std::size_t n, int multiprocessors, cudaStream_t stream);

//! x[i] = counted_input(seed, i, counted_input_sparsity(n)) for i < n (exercise/counted_inputs.hpp).
void fill_counted_inputs(float* x, std::size_t n, std::uint64_t seed, cudaStream_t stream);

}  // namespace labrun
