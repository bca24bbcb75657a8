// Hostile to the grader's checks: write-outside-mid-timed. Its pair is right in every call; in its
// twentieth call (a timed one, mid-way), its second kernel also changes one word just past the
// output's allocation: the lab's first buffer, memory the grader owns and writes nothing to between
// timed calls. The grader's digests must see a change in exactly that call.
//
// Where the word is: the intermediate starts 2 MiB (its guard) into its allocation; allocations come
// in 2 MiB granules, one after the other; the output's allocation, next, is 2 MiB of guard, the n
// floats padded to 256 bytes, 15 more places of 256 bytes and 2 MiB of guard (child_session.hpp's
// GuardedBuffer, at the card-scaled n, the child's capacity). The word is written only where the
// output lies where that says (else the pair stays honest and the test that expects the mistake fails,
// naming it).

#include "grading/submission.cuh"

__device__ unsigned long long calls_of_the_pair = 0;
__device__ unsigned int word_kept = 0;

constexpr unsigned long long kWriteCall = 20;
constexpr unsigned long long kRestoreCall = 0;  // 0: never put back

__device__ unsigned int* word_past_output(const float* intermediate, const float* y, std::size_t n) {
  constexpr unsigned long long kGranule = 2ull << 20;
  const auto granules = [](unsigned long long bytes) { return (bytes + kGranule - 1) / kGranule * kGranule; };
  const unsigned long long elements = (n * sizeof(float) + 255) / 256 * 256;
  const unsigned long long output_base =
      reinterpret_cast<unsigned long long>(intermediate) - kGranule + granules(2 * kGranule + elements);
  const unsigned long long at = reinterpret_cast<unsigned long long>(y);
  if (at < output_base + kGranule || at >= output_base + kGranule + 16 * 256 ||
      (at - output_base) % 256 != 0) {
    return nullptr;
  }
  return reinterpret_cast<unsigned int*>(output_base + granules(2 * kGranule + elements + 15 * 256));
}

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
  if (i == 0) {
    const unsigned long long call = atomicAdd(&calls_of_the_pair, 1ull) + 1;
    unsigned int* word = word_past_output(intermediate, y, n);
    if (word != nullptr && call == kWriteCall) {
      word_kept = *word;
      *word = word_kept ^ 0x5A5A5A5Au;
    } else if (word != nullptr && call == kRestoreCall) {
      *word = word_kept;
    }
  }
}
