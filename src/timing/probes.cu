#include "timing/cuda_check.hpp"
#include "timing/probes.hpp"

namespace labrun {
namespace {

constexpr unsigned kFlushThreads = 512;
constexpr unsigned kImpossibleSum = 0x5EED1E55u;

__global__ void l2_flush_read(const uint4* __restrict__ buffer, std::size_t count, unsigned* sink) {
  unsigned sum = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const uint4 word = buffer[i];
    sum ^= word.x ^ word.y ^ word.z ^ word.w;
  }
  if (sum == kImpossibleSum) {
    *sink = sum;
  }
}

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Cycles the probe may spin in all before it gives up (about a second at 2 GHz): a timer that never
// ticks must not hang the run.
constexpr long long kProbeCycleBudget = 1ll << 31;

__global__ void clock_probe(unsigned long long* out, unsigned long long spin_ns) {
  const long long budget_start = clock64();
  const auto out_of_budget = [budget_start] { return clock64() - budget_start > kProbeCycleBudget; };
  // Start on an edge of the global timer, whose resolution may be coarser than a microsecond, so
  // that the measured span is not short by up to one tick.
  const unsigned long long first = global_timer_ns();
  unsigned long long start_ns = first;
  while (start_ns == first) {
    if (out_of_budget()) {
      out[0] = 0;
      out[1] = 0;
      return;
    }
    start_ns = global_timer_ns();
  }
  const long long start_cycles = clock64();
  unsigned long long now_ns = start_ns;
  long long now_cycles = start_cycles;
  while (now_ns - start_ns < spin_ns) {
    if (out_of_budget()) {
      out[0] = 0;
      out[1] = 0;
      return;
    }
    now_ns = global_timer_ns();
    now_cycles = clock64();
  }
  out[0] = static_cast<unsigned long long>(now_cycles - start_cycles);
  out[1] = now_ns - start_ns;
}

__global__ void gate(const volatile int* release, volatile int* timed_out, unsigned long long timeout_ns) {
  const unsigned long long start_ns = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start_ns > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void labrun_profile_marker() {}

}  // namespace

void launch_l2_flush_read(const uint4* buffer, std::size_t count, unsigned* sink, int sm_count,
                          cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>(sm_count > 0 ? sm_count * 4 : 512);
  l2_flush_read<<<blocks, kFlushThreads, 0, stream>>>(buffer, count, sink);
  LABRUN_CHECK_LAUNCH("l2_flush_read");
}

void launch_clock_probe(unsigned long long* out, unsigned long long spin_ns, cudaStream_t stream) {
  clock_probe<<<1, 1, 0, stream>>>(out, spin_ns);
  LABRUN_CHECK_LAUNCH("clock_probe");
}

void launch_gate(const volatile int* release, volatile int* timed_out, unsigned long long timeout_ns,
                 cudaStream_t stream) {
  gate<<<1, 1, 0, stream>>>(release, timed_out, timeout_ns);
  LABRUN_CHECK_LAUNCH("gate");
}

void launch_profile_marker(cudaStream_t stream) {
  labrun_profile_marker<<<1, 1, 0, stream>>>();
  LABRUN_CHECK_LAUNCH("labrun_profile_marker");
}

}  // namespace labrun
