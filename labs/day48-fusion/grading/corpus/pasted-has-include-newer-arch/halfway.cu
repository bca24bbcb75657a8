// Grading corpus: pasted-has-include-newer-arch. Assembles __has_include by token pasting, which
// no check of the text sees, and only where the device code is compiled for sm_80 or newer steers
// an include computed inside an allowed CUDA header outside the allowed files. A check that
// preprocessed for the oldest architecture alone would let it pass on a machine without a GPU; the
// grader preprocesses for every architecture there, and compiles for the GPU's own where there is
// one: refused either way.

#include "grading/submission.cuh"
#define LABRUN_PASTE(a, b) a##b
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#if LABRUN_PASTE(__has_, include)(<thrust/universal_vector.h>)
#define cuda ../../../../../../../../../../../../../etc/labrun-escape>
#include <thrust/universal_vector.h>
#undef cuda
#endif
#endif

// Stages 1 and 2: intermediate = gelu(x * g + b).
extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
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
