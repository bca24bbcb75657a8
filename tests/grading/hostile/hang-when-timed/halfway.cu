// Hostile to the batch: hang-when-timed. Its pair is right while it is checked; from its seventh
// call on (the first timed one), its second kernel never ends. It holds the GPU alone then: the
// grader must end it at the per-launch limit and give the GPU back, and no submission waiting for
// its turn may be marked down for the wait.

#include "grading/submission.cuh"

__device__ unsigned long long calls_of_the_pair = 0;

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
  __shared__ unsigned long long call;
  if (threadIdx.x == 0) {
    volatile unsigned long long* calls = &calls_of_the_pair;
    call = blockIdx.x == 0 ? atomicAdd(&calls_of_the_pair, 1ull) + 1 : *calls;
  }
  __syncthreads();
  while (call > 6) {
    __nanosleep(1000000);
  }
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
