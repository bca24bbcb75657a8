// Grading corpus: timing-detector. Right for its first six calls, then skips its work, hoping the
// later calls are only timed: every timed call is checked too.
//
// What it meant to do it cannot: the grader sets the submission's global variables back to their
// values at load before every call (src/exercise/child_session.hpp, restore_globals), so no call
// finds what an earlier one left in them. It does its work in every call; expected.json says how
// that is graded.

#include "grading/submission.cuh"

// Counts its calls, and after the first six (as many as an earlier grader's checks) stops working,
// hoping that the rest are only timed.
__device__ unsigned g_calls = 0;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) {
    ++g_calls;
  }
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g_calls > 6) {
    return;
  }
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
