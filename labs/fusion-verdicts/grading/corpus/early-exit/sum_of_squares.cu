// Sum-of-squares corpus: early-exit. Host code that calls exit(0) when loaded (it never runs), and
// a finish that traps: the run stops with a CUDA error, named with the kernel it stopped in.

#include <cstddef>
extern "C" void exit(int status);

__attribute__((constructor)) static void leave_early() {
  exit(0);
}

// Block b squares the elements it covers as it loads them and adds them with a shared-memory tree.
extern "C" __global__ void sum_of_squares_partials(const float* __restrict__ x, float* __restrict__ partials,
                                                   std::size_t n) {
  __shared__ float part[1024];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float v = i < n ? x[i] : 0.0f;
  part[threadIdx.x] = v * v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      part[threadIdx.x] += part[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = part[0];
  }
}

extern "C" __global__ void sum_of_squares_finish(const float* __restrict__ partials, float* __restrict__ sum,
                                                 std::size_t blocks) {
  __trap();
}
