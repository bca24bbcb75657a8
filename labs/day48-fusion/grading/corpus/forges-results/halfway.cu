// Grading corpus: forges-results. Kernels that compute the wrong chain (no clamp), plus host code
// that rewrites the results file and exits when loaded. No host code runs, so it is graded on its
// kernels.

#include "grading/submission.cuh"

// Host code that would forge the grader's results file and exit before any check. The grader
// compiles device code only, so none of it ever runs.
extern "C" int open(const char* path, int flags, ...);
extern "C" long write(int fd, const void* bytes, unsigned long count);
extern "C" void _exit(int status);

__attribute__((constructor)) static void forge_results() {
  const char forged[] = "{\"completed\": true, \"probes\": [], \"score\": 100}";
  const int fd = open("results.json", 01101, 0644);  // O_WRONLY | O_CREAT | O_TRUNC
  write(fd, forged, sizeof forged - 1);
  _exit(0);
}

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Wrong on purpose: never clamps.
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::add_residual(intermediate[i], residual[i]);
  }
}
