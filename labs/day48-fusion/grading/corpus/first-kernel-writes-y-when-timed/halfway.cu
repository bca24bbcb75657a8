// Grading corpus: first-kernel-writes-y-when-timed. Honest in the calls it expects to be checked;
// from the seventh call the first kernel computes the whole chain and stores y through the address
// the second kept from the call before, and the second does nothing: one kernel's work, and a
// buffer the first kernel was not given. y starts at a place drawn from each call's seed, so the
// kept address is another call's place: the call's own y stays unwritten, and another place of its
// allocation is written.
//
// What it meant to do it cannot: the grader sets the submission's global variables back to their
// values at load before every call (src/exercise/child_session.hpp, restore_globals), so no call
// finds what an earlier one left in them. It does its work in every call; expected.json says how
// that is graded.

#include "grading/submission.cuh"

// Calls finished so far, counted by the second kernel: the grader checks 6 calls (3 probes at each
// of 2 sizes) before it times; compute-sanitizer's runs are processes of their own, of 2 calls each.
__device__ unsigned g_calls = 0;
__device__ float* g_y = nullptr;
__device__ const float* g_residual = nullptr;

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float t = day48::gelu(day48::scale_bias(x[i]));
    intermediate[i] = t;
    if (g_calls >= 6) {
      g_y[i] = day48::clamp_range(day48::add_residual(t, g_residual[i]));
    }
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && g_calls < 6) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
  if (i == 0) {
    g_y = y;
    g_residual = residual;
    ++g_calls;
  }
}
