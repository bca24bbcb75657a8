// Grading corpus: host-launcher-stream-0. Correct kernels plus a host launcher that would put them
// on stream 0 instead of the given stream: the grader never runs it and launches the kernels on its
// own stream.

#include "grading/submission.cuh"

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
}

// A host launcher that would run the kernels on the default stream, outside the grader's timing.
// The grader launches the kernels itself, on its own stream, so this is never compiled into
// anything that runs.
void launch_on_stream_zero(const float* x, const float* residual, float* intermediate, float* y, std::size_t n) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  halfway_stages_1_2<<<blocks, 256, 0, 0>>>(x, intermediate, n);
  halfway_stages_3_4<<<blocks, 256, 0, 0>>>(intermediate, residual, y, n);
}
