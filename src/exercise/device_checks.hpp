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

//! Adds to *count the elements of `element_bytes` (1, 2, 4 or 8) of [bytes, bytes + count *
//! element_bytes) that are not all 0xFF bytes (the poison); 4-byte elements are count_words_not's.
void count_elements_not(const void* bytes, std::size_t count, std::size_t element_bytes,
                        unsigned long long* total, cudaStream_t stream);

//! What compare_elements counts, as indices into its `counts` (each an unsigned long long, zeroed by
//! the caller but kFirstWrong, which it sets to ULLONG_MAX).
inline constexpr std::size_t kWrongElements = 0;
inline constexpr std::size_t kUnwrittenElements = 1;
inline constexpr std::size_t kWrongInClass = 2;      //!< 8 of them, one per class bit
inline constexpr std::size_t kWrongSetInClass = 10;  //!< 8: of those, the ones whose value is 1
inline constexpr std::size_t kFirstWrong = 18;       //!< the least wrong index
inline constexpr std::size_t kCompareCounts = 19;

//! Compares n elements of `width` bytes (1, 2, 4 or 8) of `got` with `expected`, byte for byte:
//! counts the wrong ones, the unwritten (all 0xFF), the wrong ones in each class of `classes` (one
//! byte per element, a bit per class; null: none), and the least wrong index.
void compare_elements(const void* got, const void* expected, const unsigned char* classes, std::size_t n,
                      std::size_t width, unsigned long long* counts, cudaStream_t stream);

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
