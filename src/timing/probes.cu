#include "timing/cuda_check.hpp"
#include "timing/probes.hpp"

namespace labrun {
namespace {

constexpr unsigned kFlushThreads = 512;
constexpr unsigned kImpossibleSum = 0x5EED1E55u;

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Cycles the probe may spin in all before it gives up (about a second at 2 GHz): a timer that never
// ticks must not hang the run.
constexpr long long kProbeCycleBudget = 1ll << 31;

// Not below this many nanoseconds does the flush's clock reading end: a card whose flush is short
// still gets a span as long as the clock probe's (ClockProbe's default spin), so the reading is as
// precise.
constexpr unsigned long long kFlushClockMinSpanNs = 20000;

// Reads buffer[0..count) with a grid-stride loop (launch_l2_flush_read). With `clock_out`, thread 0 of
// block 0 also times the SM clock over its share of the reads: it starts on an edge of %globaltimer,
// and after its share spins to an edge at least kFlushClockMinSpanNs later, so that both ends are
// edges of the timer; it writes {clock64 cycles, %globaltimer ns} between them to clock_out[0..1], or
// {0, 0} when the timer did not tick within kProbeCycleBudget cycles.
__global__ void l2_flush_read(const uint4* __restrict__ buffer, std::size_t count, unsigned* sink,
                              unsigned long long* clock_out) {
  const bool times_clock = clock_out != nullptr && blockIdx.x == 0 && threadIdx.x == 0;
  const long long budget_start = clock64();
  bool timer_ticks = true;
  unsigned long long start_ns = 0;
  long long start_cycles = 0;
  if (times_clock) {
    const unsigned long long first = global_timer_ns();
    start_ns = first;
    while (start_ns == first && timer_ticks) {
      timer_ticks = clock64() - budget_start <= kProbeCycleBudget;
      start_ns = global_timer_ns();
    }
    start_cycles = clock64();
  }
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
  if (times_clock) {
    const unsigned long long last = global_timer_ns();
    unsigned long long now_ns = last;
    long long now_cycles = clock64();
    while (timer_ticks && (now_ns == last || now_ns - start_ns < kFlushClockMinSpanNs)) {
      timer_ticks = clock64() - budget_start <= kProbeCycleBudget;
      now_ns = global_timer_ns();
      now_cycles = clock64();
    }
    clock_out[0] = timer_ticks ? static_cast<unsigned long long>(now_cycles - start_cycles) : 0;
    clock_out[1] = timer_ticks ? now_ns - start_ns : 0;
  }
}

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
                          cudaStream_t stream, unsigned long long* clock_out) {
  const unsigned blocks = static_cast<unsigned>(sm_count > 0 ? sm_count * 4 : 512);
  l2_flush_read<<<blocks, kFlushThreads, 0, stream>>>(buffer, count, sink, clock_out);
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
