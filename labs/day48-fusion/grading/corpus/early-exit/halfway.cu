// Grading corpus: early-exit. Host code that calls exit(0) when loaded (it never runs), and a
// second kernel that traps: the run stops with a CUDA error, named with the kernel it stopped in.

#include "grading/submission.cuh"

// Host code that would end the grading process before any check; it never runs.
extern "C" void exit(int status);
__attribute__((constructor)) static void leave_early() {
  exit(0);
}

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Stops the kernel on the device instead.
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  __trap();
}
