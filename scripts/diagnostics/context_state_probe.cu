// Diagnostic for issue 31 (docs/measurement.md, "Where a context's offset lives"): does the offset a
// new CUDA context gives a small gated case come from the context as a whole, or from the hardware
// queue its stream lands on? In the 2026-12-04 20:35Z benchmark a day-48 hot-gated context moved all
// of its small cases together (a shared offset of 2.0% sd, against 2.4% for each case), while rounds
// inside one context moved them by 0.2-0.5%. A stream is mapped onto one of the context's hardware queues
// (CUDA_DEVICE_MAX_CONNECTIONS of them); if the offset is a queue's, streams of one context differ as
// contexts do, and a round on a stream of its own would sample it for microseconds, not 0.25 s.
//
// In each of CONTEXTS contexts (the device reset between them), ROUNDS rounds, each timing every
// variant in turn, every variant the same two gated workloads:
//   default       the legacy default stream (where labs launch)
//   stream-K      STREAMS non-blocking streams created when the context is, kept for its rounds
//   fresh         a non-blocking stream created for the round and destroyed after it
//   new-memory    the default stream, on buffers allocated for the round and kept until the context
//                 ends (so that no round's allocation can reuse another's memory): whether the offset
//                 is where the buffers lie, and the page tables that map them
// Workloads, each sample but chain-hot's queued behind a gate kernel that spins on a host-mapped flag
// until the host has enqueued the sample's launches and its stop event, so that a sample is GPU time
// alone:
//   chain         four dependent elementwise kernels over 16,384 floats (day 48's staged chain)
//   empty         32 launches of an empty kernel
//   pass-1M       one elementwise kernel from 2^20 floats to 2^20 others (8 MiB, inside the L2): where
//                 fusion-verdicts' fused pair at 2^20 (timed hot there) sits at one of two levels,
//                 context by context
//   chain-hot     the chain with no gate: the host's launch latency inside the sample, as hot timing
//                 has it (where the shared offset is two to three times the gated one)
// A round's figure is the median of SAMPLES samples after 3 warm-ups. Every round is one CSV row on
// stdout: context,round,variant,workload,median_us,cpu (the CPU the host thread was on when the round
// ended: in hot timing the host paces the launches).
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o /tmp/state-probe scripts/diagnostics/context_state_probe.cu
//   /tmp/state-probe [CONTEXTS] [ROUNDS] [STREAMS] [SAMPLES] > probe.csv
//   python3 scripts/diagnostics/context-state-probe.py probe.csv
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kChainElements = 1 << 14;
constexpr int kPassElements = 1 << 20;
constexpr int kChainStages = 4;
constexpr int kEmptyLaunches = 32;
constexpr int kWarmups = 3;
constexpr unsigned long long kGateTimeoutNs = 1000000000ULL;  // a gate never held past 1 s

void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(code));
    std::exit(1);
  }
}

__device__ unsigned long long global_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Spins until the host sets *release (or the timeout passes, recorded in *timed_out).
__global__ void gate_kernel(const volatile int* release, int* timed_out) {
  const unsigned long long start = global_ns();
  while (*release == 0) {
    if (global_ns() - start > kGateTimeoutNs) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void stage_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 1.0001f + 0.5f;
  }
}

__global__ void empty_kernel() {}

struct Gate {
  volatile int* host = nullptr;  // [0] release, [1] timed out
  int* device = nullptr;
  Gate() {
    int* mapped = nullptr;
    check(cudaHostAlloc(&mapped, 2 * sizeof(int), cudaHostAllocMapped), "cudaHostAlloc");
    host = mapped;
    host[0] = 0;
    host[1] = 0;
    check(cudaHostGetDevicePointer(&device, mapped, 0), "cudaHostGetDevicePointer");
  }
  ~Gate() { cudaFreeHost(const_cast<int*>(host)); }
};

struct Buffers {
  std::vector<float*> stages;  // the chain's
  float* pass_in = nullptr;
  float* pass_out = nullptr;
  Buffers() {
    stages.resize(kChainStages + 1);
    for (float*& b : stages) {
      allocate(&b, kChainElements);
    }
    allocate(&pass_in, kPassElements);
    allocate(&pass_out, kPassElements);
  }
  ~Buffers() {
    for (float* b : stages) {
      cudaFree(b);
    }
    cudaFree(pass_in);
    cudaFree(pass_out);
  }
  static void allocate(float** buffer, int elements) {
    check(cudaMalloc(buffer, static_cast<std::size_t>(elements) * sizeof(float)), "cudaMalloc");
    check(cudaMemset(*buffer, 0, static_cast<std::size_t>(elements) * sizeof(float)), "cudaMemset");
  }
};

void enqueue(const std::string& workload, const Buffers& buffers, cudaStream_t stream) {
  const int threads = 256;
  if (workload == "chain") {
    const int blocks = (kChainElements + threads - 1) / threads;
    for (int s = 0; s < kChainStages; ++s) {
      stage_kernel<<<blocks, threads, 0, stream>>>(buffers.stages[s], buffers.stages[s + 1], kChainElements);
    }
  } else if (workload == "pass-1M") {
    stage_kernel<<<(kPassElements + threads - 1) / threads, threads, 0, stream>>>(
        buffers.pass_in, buffers.pass_out, kPassElements);
  } else {
    for (int l = 0; l < kEmptyLaunches; ++l) {
      empty_kernel<<<1, 1, 0, stream>>>();
    }
  }
}

// The median, in microseconds, of `samples` gated samples of `workload` on `stream`.
double round_median_us(const std::string& workload, const Buffers& buffers, Gate& gate, cudaStream_t stream,
                       cudaEvent_t start, cudaEvent_t stop, int samples) {
  const bool gated = workload != "chain-hot";
  std::vector<double> us;
  for (int s = 0; s < kWarmups + samples; ++s) {
    gate.host[0] = 0;
    if (gated) {
      gate_kernel<<<1, 1, 0, stream>>>(gate.host, gate.device + 1);
    }
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    enqueue(gated ? workload : "chain", buffers, stream);
    check(cudaGetLastError(), "a launch");
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    gate.host[0] = 1;
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    if (gate.host[1] != 0) {
      std::fprintf(stderr, "the gate timed out\n");
      std::exit(1);
    }
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (s >= kWarmups) {
      us.push_back(1000.0 * ms);
    }
  }
  std::sort(us.begin(), us.end());
  const std::size_t n = us.size();
  return n % 2 == 1 ? us[n / 2] : 0.5 * (us[n / 2 - 1] + us[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  const int contexts = argc > 1 ? std::atoi(argv[1]) : 12;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
  const int stream_count = argc > 3 ? std::atoi(argv[3]) : 8;
  const int samples = argc > 4 ? std::atoi(argv[4]) : 60;
  if (contexts < 2 || rounds < 1 || stream_count < 1 || samples < 1) {
    std::fprintf(stderr, "usage: state-probe [CONTEXTS>=2] [ROUNDS>=1] [STREAMS>=1] [SAMPLES>=1]\n");
    return 2;
  }
  std::printf("context,round,variant,workload,median_us,cpu\n");
  for (int c = 0; c < contexts; ++c) {
    check(cudaFree(nullptr), "context");
    {
      Gate gate;
      const Buffers buffers;
      std::vector<cudaStream_t> streams(static_cast<std::size_t>(stream_count));
      for (cudaStream_t& s : streams) {
        check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
      }
      cudaEvent_t start;
      cudaEvent_t stop;
      check(cudaEventCreate(&start), "cudaEventCreate");
      check(cudaEventCreate(&stop), "cudaEventCreate");
      std::vector<std::unique_ptr<Buffers>> round_buffers;  // new-memory's, one set a round
      for (int r = 0; r < rounds; ++r) {
        cudaStream_t fresh;
        check(cudaStreamCreateWithFlags(&fresh, cudaStreamNonBlocking), "cudaStreamCreate");
        round_buffers.push_back(std::make_unique<Buffers>());
        struct Variant {
          std::string name;
          cudaStream_t stream;
          const Buffers* buffers;
        };
        std::vector<Variant> variants{{"default", nullptr, &buffers},
                                      {"fresh", fresh, &buffers},
                                      {"new-memory", nullptr, round_buffers.back().get()}};
        for (int k = 0; k < stream_count; ++k) {
          variants.push_back({"stream-" + std::to_string(k), streams[static_cast<std::size_t>(k)], &buffers});
        }
        for (const char* workload : {"chain", "empty", "pass-1M", "chain-hot"}) {
          for (const Variant& v : variants) {
            const double median = round_median_us(workload, *v.buffers, gate, v.stream, start, stop, samples);
            std::printf("%d,%d,%s,%s,%.4f,%d\n", c, r, v.name.c_str(), workload, median, sched_getcpu());
          }
        }
        check(cudaStreamDestroy(fresh), "cudaStreamDestroy");
      }
      check(cudaEventDestroy(start), "cudaEventDestroy");
      check(cudaEventDestroy(stop), "cudaEventDestroy");
      for (cudaStream_t s : streams) {
        check(cudaStreamDestroy(s), "cudaStreamDestroy");
      }
    }
    std::fflush(stdout);
    check(cudaDeviceReset(), "cudaDeviceReset");
  }
  return 0;
}
