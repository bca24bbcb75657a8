// Hostile to the batch: hang-when-timed. Its pair is right while it is checked; in a timed call its
// second kernel never ends. It holds the GPU alone then: the grader must end it at the per-launch
// limit and give the GPU back, and no submission waiting for its turn may be marked down for the
// wait.
//
// It tells a timed call by the gap between its kernels, which no reset of its variables hides: a
// timed call launches the second kernel right behind the first (it starts microseconds after the
// first ends), while a checked call waits for the first kernel and digests the grader's memory
// before it launches the second (a millisecond or more). The first kernel's last block records when
// it ended; the grader sets both variables back to zero before every call.

#include "grading/submission.cuh"

__device__ unsigned int first_kernel_blocks_done = 0;
__device__ unsigned long long first_kernel_ended_ns = 0;

// Nanoseconds of the GPU's global timer.
__device__ unsigned long long global_ns() {
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&first_kernel_blocks_done, 1u) == gridDim.x - 1) {
      atomicExch(&first_kernel_ended_ns, global_ns());
    }
  }
}

// A gap under 50 us between the first kernel's end and this block's start: launched right behind it.
constexpr unsigned long long kBackToBackNs = 50000;

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  __shared__ bool timed;
  if (threadIdx.x == 0) {
    const unsigned long long ended = atomicAdd(&first_kernel_ended_ns, 0ull);
    const unsigned long long now = global_ns();
    timed = ended != 0 && now >= ended && now - ended < kBackToBackNs;
  }
  __syncthreads();
  while (timed) {
    __nanosleep(1000000);
  }
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
