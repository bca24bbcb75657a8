// Diagnostic for docs/grading-at-scale.md: what one grading child's CUDA set-up costs when many
// processes do it at once. Each process creates its context, allocates BUFFERS buffers of ELEMENTS
// floats (the grading child holds 11 of the card-scaled size, 134,217,728 floats on an H200), sets
// them, frees them, and prints the seconds each step took.
//   nvcc -O2 -o /tmp/probe scripts/diagnostics/context_and_memory_probe.cu
//   /tmp/probe [BUFFERS] [ELEMENTS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(code));
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int buffers = argc > 1 ? std::atoi(argv[1]) : 11;
  const size_t elements = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 134217728ULL;
  auto start = std::chrono::steady_clock::now();
  if (!check(cudaFree(nullptr), "context")) return 1;
  const double context_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  std::vector<float*> memory(static_cast<size_t>(buffers), nullptr);
  for (float*& m : memory) {
    if (!check(cudaMalloc(&m, elements * sizeof(float)), "cudaMalloc")) return 1;
    if (!check(cudaMemset(m, 0xff, elements * sizeof(float)), "cudaMemset")) return 1;
  }
  if (!check(cudaDeviceSynchronize(), "synchronize")) return 1;
  const double allocate_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  for (float* m : memory) {
    if (!check(cudaFree(m), "cudaFree")) return 1;
  }
  const double free_s = seconds_since(start);
  std::printf("context %.3f s, allocate and set %.3f s, free %.3f s\n", context_s, allocate_s, free_s);
  return 0;
}
