#pragma once
// Counted inputs: the graded inputs of an exercise whose answer is a sum (a reduction), chosen with
// its tolerance so that every element matters. Element i is 0, +-1/4, +-1/2 or +-3/4, from a hash
// of (seed, stream, i); which elements are not zero, and their values, are drawn anew from each
// call's seed (secret with --secret-seed). At most one element in 2^sparsity is not zero, where
// counted_input_sparsity(n) keeps the largest sum any draw can plausibly have under 2^19:
//
//   - every value is a multiple of 1/4, so every square is a multiple of 1/16, and a float holds
//     every multiple of 1/16 below 2^20 exactly (24 bits of significand). The squares are all >= 0,
//     so every partial sum of any subset, in any order and any tree, lies between 0 and the total,
//     below 2^20: every float32 addition of a correct kernel is exact, whatever its order, and its
//     answer is the float64 reference bit for bit. The tolerance is 0.
//   - so an element left out, or counted twice, changes the answer by its square (at least 1/16)
//     unless it is zero. A kernel cannot know which elements are zero without reading them: one that
//     leaves out any fixed set of m elements is right in one call with probability at most
//     (1 - 2^-sparsity)^m, and wrong at once where it scales a partial sum up to make up for them.
//   - |sum of x| <= the count of elements not zero times 3/4, below 2^22: a kernel that forgets to
//     square gets that sum exactly, and is told apart from one that squares.
//
// The count of elements not zero is binomial with mean n / 2^sparsity; sparsity is chosen so that
// even twice that mean, each element at its largest square (9/16), stays under 2^20, and a draw
// near twice its mean (over 500,000 at the card-scaled size) does not happen.
//
// Every call draws them the same way, its probes and its timed calls alike: no input of a checked
// call differs in kind from one that is not checked. Host and device code (nvcc and the host
// compiler), so that a reference can regenerate any element alone.

#include <cstdint>

#if defined(__CUDACC__)
#define LABRUN_COUNTED_HOST_DEVICE __host__ __device__
#else
#define LABRUN_COUNTED_HOST_DEVICE
#endif

namespace labrun {

//! The stream of the hash counted inputs are drawn from (other inputs of a call use others).
inline constexpr std::uint64_t kCountedInputStream = 0xC0C0;

//! The smallest s >= 1 with n * 2^-s * 9/16 <= 2^19: one element in 2^s is not zero.
LABRUN_COUNTED_HOST_DEVICE inline int counted_input_sparsity(std::uint64_t n) {
  int s = 1;
  while (s < 62 && (n >> s) * 9 > (std::uint64_t{1} << 23)) {  // (n / 2^s) * 9/16 > 2^19
    ++s;
  }
  return s;
}

//! Element i of the counted inputs drawn from `seed`: 0 unless the low `sparsity` bits of its hash
//! are 0, else k/4 with k in {-3, -2, -1, 1, 2, 3}.
LABRUN_COUNTED_HOST_DEVICE inline float counted_input(std::uint64_t seed, std::uint64_t i, int sparsity) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + kCountedInputStream * 0xD1B54A32D192ED03ull + i;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  if ((z & ((std::uint64_t{1} << sparsity) - 1)) != 0) {
    return 0.0f;
  }
  const auto magnitude = static_cast<float>(1 + (z >> 40) % 3);
  return ((z >> 39) & 1u) != 0 ? -0.25f * magnitude : 0.25f * magnitude;
}

}  // namespace labrun
