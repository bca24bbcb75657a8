// Grading corpus: read-past-n-at-powers-of-two. A correct pair whose first kernel also reads
// x[n], one element past the end, only where n is a power of two: the card-scaled size, where every
// timed call runs. compute-sanitizer's runs in buffers of exactly n elements are at odd sizes (4099
// and 1,049,187), where it reads nothing past n. In a graded call's buffers x[n] is the first word
// of x's guard, inside x's allocation, so memcheck alone cannot tell it from x[0]; the grader's
// replica of a timed call tells memcheck which n elements of each buffer the call is given.

#include "grading/submission.cuh"

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  float value = x[i];
  const bool power_of_two = (n & (n - 1)) == 0;
  if (power_of_two && i + 1 == n && x[n] == 1.0f) {
    value = 0.0f;  // never taken in a graded call: x[n] holds the guard's poison, a NaN
  }
  intermediate[i] = day48::gelu(day48::scale_bias(value));
}

// Stages 3 and 4: y = clamp(intermediate + residual).
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
