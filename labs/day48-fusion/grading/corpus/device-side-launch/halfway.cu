// Grading corpus: device-side-launch. The second kernel launches another kernel from the device
// (dynamic parallelism) to do its work elsewhere: without separate compilation, which the grader
// never uses, it does not compile.

#include "grading/submission.cuh"

// Hides the work in a kernel launched from the device, where a grader's events would not see it.
__global__ void hidden_work(const float* intermediate, const float* residual, float* y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
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
  if (i == 0) {
    hidden_work<<<static_cast<unsigned>((n + 255) / 256), 256>>>(intermediate, residual, y, n);
  }
}
