// Diagnostic, not part of labrun: does a cold sample of several queued launches alternate between two
// levels from one sample to the next, and which step of the cold sample makes it do so?
//
// Each variant takes SAMPLES samples the way labrun's CaseSampler takes cold ones (src/timing/sampler.cpp:
// reset the persisting L2 lines, read a buffer of twice the L2 with 4 blocks of 512 threads per SM,
// record the start event, queue the region's launches, record the stop event, wait for it, then read
// the SM clock: a one-thread kernel spins 20 us and its two words are copied back to pageable host
// memory, and the stream is synchronised), leaving out or changing one step. The region is L launches
// of either an empty one-thread kernel or a small kernel that reads and writes 1024 floats (the staged
// chain's smallest size), for each L given.
//
// Prints one CSV row per variant, region and L: the median, the mean of even and of odd samples (us),
// the gap between those means (percent of the median), the lag-1 autocorrelation of the samples (a
// two-level alternation gives a gap of several percent and a correlation near -1), and the gap between
// the medians of the even and the odd samples (percent of the median; a few outliers do not move it).
// With the first L it also times a third region, "reduction-2^24": fusion-verdicts' folded sum of
// squares over 2^24 floats, two launches (a partial sum per block, then their total), the largest
// case whose cold figure moved by more than 1% on an H100 once labrun read the clock in its flush.
// PROBE_VARIANTS=a,b,... runs only the variants named.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o probe scripts/diagnostics/cold_alternation_probe.cu
//   ./probe [SAMPLES [L...]]        (defaults: 400 samples, L = 4)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    const cudaError_t status_ = (call);                                                               \
    if (status_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

namespace {

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// This thread's share of a flush: reads buffer[0..count) with a grid-stride loop, and writes to `sink`
// only if the words' XOR is a value no real buffer gives, which keeps the loads.
__device__ __forceinline__ void read_share(const uint4* __restrict__ buffer, std::size_t count,
                                           unsigned* sink) {
  unsigned sum = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const uint4 word = buffer[i];
    sum ^= word.x ^ word.y ^ word.z ^ word.w;
  }
  if (sum == 0x5EED1E55u) {
    *sink = sum;
  }
}

__global__ void flush_read(const uint4* __restrict__ buffer, std::size_t count, unsigned* sink) {
  read_share(buffer, count, sink);
}

// flush_read that also records, from one thread of block 0, clock64 and %globaltimer at its start and
// its end: the SM clock over the flush, with no kernel of its own.
__global__ void flush_read_clocked(const uint4* __restrict__ buffer, std::size_t count, unsigned* sink,
                                   unsigned long long* clocks) {
  const bool recorder = blockIdx.x == 0 && threadIdx.x == 0;
  if (recorder) {
    const unsigned long long ns = global_timer_ns();
    clocks[0] = static_cast<unsigned long long>(clock64());
    clocks[1] = ns;
  }
  read_share(buffer, count, sink);
  if (recorder) {
    const unsigned long long ns = global_timer_ns();
    clocks[2] = static_cast<unsigned long long>(clock64());
    clocks[3] = ns;
  }
}

// flush_read as labrun's cold flush reads the clock since 2026-12-06 (the branch cold-clock-from-flush)
// (src/timing/probes.cu): thread 0 of block 0 starts on an edge of %globaltimer, does its share of the
// reads, then spins to an edge at least 20 us after the start, and writes {cycles, ns} between them.
__global__ void flush_read_clocked_spanned(const uint4* __restrict__ buffer, std::size_t count,
                                           unsigned* sink, unsigned long long* clocks) {
  const bool recorder = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long start_ns = 0;
  long long start_cycles = 0;
  if (recorder) {
    const unsigned long long first = global_timer_ns();
    start_ns = first;
    while (start_ns == first) {
      start_ns = global_timer_ns();
    }
    start_cycles = clock64();
  }
  read_share(buffer, count, sink);
  if (recorder) {
    const unsigned long long last = global_timer_ns();
    unsigned long long now = last;
    while (now == last || now - start_ns < 20000) {
      now = global_timer_ns();
    }
    clocks[0] = static_cast<unsigned long long>(clock64() - start_cycles);
    clocks[1] = now - start_ns;
  }
}

__global__ void empty_kernel() {}

// The region "reduction": fusion-verdicts' folded sum of squares, two launches: one partial sum per
// block over a grid-stride loop of in[i] squared, then one block totals the partials.
constexpr int kReduceThreads = 256;

__global__ void partial_sums_of_squares(const float* __restrict__ in, float* partials, std::size_t n) {
  __shared__ float scratch[kReduceThreads];
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    sum += in[i] * in[i];
  }
  scratch[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      scratch[threadIdx.x] += scratch[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = scratch[0];
  }
}

__global__ void total_of_partials(const float* partials, int count, float* total) {
  __shared__ float scratch[kReduceThreads];
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += kReduceThreads) {
    sum += partials[i];
  }
  scratch[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      scratch[threadIdx.x] += scratch[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    *total = scratch[0];
  }
}

__global__ void small_stage(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 1.0001f + 0.5f;
  }
}

// Spins `spin_ns` of %globaltimer; writes the span to out[0] (device or host-mapped memory).
__global__ void spin(unsigned long long* out, unsigned long long spin_ns) {
  const unsigned long long start = global_timer_ns();
  unsigned long long now = start;
  while (now - start < spin_ns) {
    now = global_timer_ns();
  }
  out[0] = now - start;
  out[1] = 1;
}

// What follows each sample's stop event, once the host has waited for it.
enum class After {
  kNothing,
  kSpinPageableCopy,   // labrun's clock probe: spin, cudaMemcpyAsync to a host stack array, sync
  kSpinOnly,           // spin, sync: no copy
  kPageableCopyOnly,   // the copy of two words to the stack and the sync, no spin
  kSpinPinnedCopy,     // spin, cudaMemcpyAsync to cudaMallocHost memory, sync
  kSpinMapped,         // spin writing host-mapped memory directly, sync: no copy
  kShortSpinPageable,  // labrun's probe with a 2 us spin
  kSpinOtherStream,    // labrun's probe on a second stream, that stream synchronised
  kClockedFlushCopy,   // no kernel: the flush recorded the clock; copy its four words back, sync
  kSpannedFlushCopy,   // no kernel: the flush recorded the clock as labrun's branch does; copy, sync
  kSpinSyncSleep,      // labrun's probe, then the host waits 50 us more before the next sample
  kEmptyKernel,        // one empty kernel, sync
};

struct Variant {
  const char* name;
  bool reset_persisting;
  int flushes;        // reads of the flush buffer before the start event
  bool memset_flush;  // the flush writes (cudaMemsetAsync) instead of reading
  After after;
  bool flush_sync;  // wait for the flush before queuing the region (launches not queued behind it)
  int l2_multiple;  // the flush reads this many times the L2 (labrun: 2)
};

}  // namespace

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 400;
  std::vector<int> launch_counts;
  for (int a = 2; a < argc; ++a) {
    launch_counts.push_back(std::atoi(argv[a]));
  }
  if (launch_counts.empty()) {
    launch_counts.push_back(4);
  }
  const int device = 0;
  CHECK(cudaSetDevice(device));
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  int l2 = 0;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t l2_words = static_cast<std::size_t>(l2) / sizeof(uint4);
  const std::size_t words = 4 * l2_words;  // room for the largest multiple below
  uint4* flush_buffer = nullptr;
  unsigned* sink = nullptr;
  float* a = nullptr;
  float* b = nullptr;
  unsigned long long* spin_out = nullptr;
  unsigned long long* pinned = nullptr;
  unsigned long long* mapped = nullptr;
  unsigned long long* mapped_device = nullptr;
  CHECK(cudaMalloc(&flush_buffer, words * sizeof(uint4)));
  CHECK(cudaMemset(flush_buffer, 0x3C, words * sizeof(uint4)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&a, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&b, 1024 * sizeof(float)));
  CHECK(cudaMemset(a, 0, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&spin_out, 2 * sizeof(unsigned long long)));
  CHECK(cudaMallocHost(&pinned, 2 * sizeof(unsigned long long)));
  CHECK(cudaHostAlloc(&mapped, 2 * sizeof(unsigned long long), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&mapped_device, mapped, 0));
  unsigned long long* flush_clocks = nullptr;
  CHECK(cudaMalloc(&flush_clocks, 4 * sizeof(unsigned long long)));
  cudaStream_t stream;
  cudaStream_t other_stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&other_stream, cudaStreamNonBlocking));
  cudaEvent_t start;
  cudaEvent_t stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  int persisting_max = 0;
  CHECK(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, device));

  const Variant variants[] = {
      {"as-labrun", true, 1, false, After::kSpinPageableCopy, false, 2},
      {"no-clock-probe", true, 1, false, After::kNothing, false, 2},
      {"no-persisting-reset", false, 1, false, After::kSpinPageableCopy, false, 2},
      {"two-flushes", true, 2, false, After::kSpinPageableCopy, false, 2},
      {"memset-flush", true, 1, true, After::kSpinPageableCopy, false, 2},
      {"flush-then-sync", true, 1, false, After::kSpinPageableCopy, true, 2},
      {"flush-1x-l2", true, 1, false, After::kSpinPageableCopy, false, 1},
      {"flush-4x-l2", true, 1, false, After::kSpinPageableCopy, false, 4},
      {"probe-spin-only", true, 1, false, After::kSpinOnly, false, 2},
      {"probe-copy-only", true, 1, false, After::kPageableCopyOnly, false, 2},
      {"probe-pinned-copy", true, 1, false, After::kSpinPinnedCopy, false, 2},
      {"probe-mapped", true, 1, false, After::kSpinMapped, false, 2},
      {"probe-2us-spin", true, 1, false, After::kShortSpinPageable, false, 2},
      {"no-flush", false, 0, false, After::kSpinPageableCopy, false, 2},
      {"probe-other-stream", true, 1, false, After::kSpinOtherStream, false, 2},
      {"clock-in-flush", true, 1, false, After::kClockedFlushCopy, false, 2},
      {"probe-then-50us", true, 1, false, After::kSpinSyncSleep, false, 2},
      {"empty-kernel-after", true, 1, false, After::kEmptyKernel, false, 2},
      {"clock-in-flush-spanned", true, 1, false, After::kSpannedFlushCopy, false, 2},
  };
  // PROBE_VARIANTS (comma-separated names): only those variants; unset: every one.
  const char* only = std::getenv("PROBE_VARIANTS");
  const auto chosen = [only](const char* name) {
    if (only == nullptr || *only == 0) {
      return true;
    }
    const std::string list = std::string(",") + only + ",";
    return list.find(std::string(",") + name + ",") != std::string::npos;
  };
  // The reduction region's input: 2^24 floats, fusion-verdicts' largest folded sum; its grid, 4 blocks
  // of 256 threads per SM.
  const std::size_t reduce_n = std::size_t{1} << 24;
  const int reduce_blocks = sms * 4;
  float* reduce_in = nullptr;
  float* partials = nullptr;
  float* total = nullptr;
  CHECK(cudaMalloc(&reduce_in, reduce_n * sizeof(float)));
  CHECK(cudaMemset(reduce_in, 0, reduce_n * sizeof(float)));
  CHECK(cudaMalloc(&partials, reduce_blocks * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  std::printf(
      "variant,region,launches,samples,median_us,even_mean_us,odd_mean_us,gap_percent,lag1_corr,median_gap_"
      "percent\n");
  for (std::size_t l_index = 0; l_index < launch_counts.size(); ++l_index) {
    const int launches = launch_counts[l_index];
    for (const Variant& v : variants) {
      if (!chosen(v.name)) {
        continue;
      }
      // The reduction region (always two launches) runs with the first L only.
      for (int region = 0; region < (l_index == 0 ? 3 : 2); ++region) {
        std::vector<double> us;
        for (int s = 0; s < samples + 4; ++s) {
          if (v.reset_persisting && persisting_max > 0) {
            CHECK(cudaCtxResetPersistingL2Cache());
          }
          for (int f = 0; f < v.flushes; ++f) {
            const std::size_t count = static_cast<std::size_t>(v.l2_multiple) * l2_words;
            if (v.memset_flush) {
              CHECK(cudaMemsetAsync(flush_buffer, s & 0xFF, count * sizeof(uint4), stream));
            } else if (v.after == After::kSpannedFlushCopy) {
              flush_read_clocked_spanned<<<sms * 4, 512, 0, stream>>>(flush_buffer, count, sink,
                                                                      flush_clocks);
            } else if (v.after == After::kClockedFlushCopy) {
              flush_read_clocked<<<sms * 4, 512, 0, stream>>>(flush_buffer, count, sink, flush_clocks);
            } else {
              flush_read<<<sms * 4, 512, 0, stream>>>(flush_buffer, count, sink);
            }
          }
          if (v.flush_sync) {
            CHECK(cudaStreamSynchronize(stream));
          }
          CHECK(cudaEventRecord(start, stream));
          if (region == 2) {
            partial_sums_of_squares<<<reduce_blocks, kReduceThreads, 0, stream>>>(reduce_in, partials,
                                                                                  reduce_n);
            total_of_partials<<<1, kReduceThreads, 0, stream>>>(partials, reduce_blocks, total);
          }
          for (int l = 0; l < (region == 2 ? 0 : launches); ++l) {
            if (region == 0) {
              empty_kernel<<<1, 1, 0, stream>>>();
            } else {
              small_stage<<<4, 256, 0, stream>>>(l % 2 == 0 ? a : b, l % 2 == 0 ? b : a, 1024);
            }
          }
          CHECK(cudaEventRecord(stop, stream));
          CHECK(cudaEventSynchronize(stop));
          float ms = 0.0f;
          CHECK(cudaEventElapsedTime(&ms, start, stop));
          unsigned long long host[4] = {0, 0, 0, 0};
          switch (v.after) {
            case After::kNothing: break;
            case After::kSpinPageableCopy:
            case After::kShortSpinPageable:
              spin<<<1, 1, 0, stream>>>(spin_out, v.after == After::kSpinPageableCopy ? 20000 : 2000);
              CHECK(cudaMemcpyAsync(host, spin_out, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                    stream));
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kSpinOnly:
              spin<<<1, 1, 0, stream>>>(spin_out, 20000);
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kPageableCopyOnly:
              CHECK(cudaMemcpyAsync(host, spin_out, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                    stream));
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kSpinPinnedCopy:
              spin<<<1, 1, 0, stream>>>(spin_out, 20000);
              CHECK(cudaMemcpyAsync(pinned, spin_out, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                    stream));
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kSpinOtherStream:
              spin<<<1, 1, 0, other_stream>>>(spin_out, 20000);
              CHECK(cudaMemcpyAsync(host, spin_out, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                    other_stream));
              CHECK(cudaStreamSynchronize(other_stream));
              break;
            case After::kClockedFlushCopy:
            case After::kSpannedFlushCopy:
              CHECK(cudaMemcpyAsync(host, flush_clocks, sizeof host, cudaMemcpyDeviceToHost, stream));
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kSpinSyncSleep: {
              spin<<<1, 1, 0, stream>>>(spin_out, 20000);
              CHECK(cudaMemcpyAsync(host, spin_out, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                    stream));
              CHECK(cudaStreamSynchronize(stream));
              const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
              while (std::chrono::steady_clock::now() < until) {
              }
              break;
            }
            case After::kEmptyKernel:
              empty_kernel<<<1, 1, 0, stream>>>();
              CHECK(cudaStreamSynchronize(stream));
              break;
            case After::kSpinMapped:
              spin<<<1, 1, 0, stream>>>(mapped_device, 20000);
              CHECK(cudaStreamSynchronize(stream));
              break;
          }
          if (s >= 4) {
            us.push_back(ms * 1000.0);
          }
        }
        double even = 0.0;
        double odd = 0.0;
        double mean = 0.0;
        for (std::size_t i = 0; i < us.size(); ++i) {
          (i % 2 == 0 ? even : odd) += us[i];
          mean += us[i];
        }
        even /= static_cast<double>((us.size() + 1) / 2);
        odd /= static_cast<double>(us.size() / 2);
        mean /= static_cast<double>(us.size());
        double c0 = 0.0;
        double c1 = 0.0;
        for (std::size_t i = 0; i < us.size(); ++i) {
          c0 += (us[i] - mean) * (us[i] - mean);
          if (i + 1 < us.size()) {
            c1 += (us[i] - mean) * (us[i + 1] - mean);
          }
        }
        std::vector<double> evens;
        std::vector<double> odds;
        for (std::size_t i = 0; i < us.size(); ++i) {
          (i % 2 == 0 ? evens : odds).push_back(us[i]);
        }
        std::sort(evens.begin(), evens.end());
        std::sort(odds.begin(), odds.end());
        const double even_median = evens[evens.size() / 2];
        const double odd_median = odds[odds.size() / 2];
        std::vector<double> sorted = us;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted[sorted.size() / 2];
        std::printf("%s,%s,%d,%zu,%.3f,%.3f,%.3f,%.1f,%.2f,%.1f\n", v.name,
                    region == 0   ? "empty"
                    : region == 1 ? "small-stage"
                                  : "reduction-2^24",
                    region == 2 ? 2 : launches, us.size(), median, even, odd, 100.0 * (even - odd) / median,
                    c0 > 0.0 ? c1 / c0 : 0.0, 100.0 * (even_median - odd_median) / median);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
