// A hostile sum-of-squares submission (synthetic, for scripts/lease/answer-reading.sh): its first
// kernel never reads x. It reads the grader's own reference total from device memory at a fixed
// distance from x (READ_AT, bytes, found for this card and build by find_reference_offset.py), puts
// it in partial 0 and zero in every other partial, then waits about as long as reading n floats
// would take, so that its time looks plausible. The finish honestly adds the partials. In the
// sanitizer's runs, which it tells apart by their size (docs/grading.md, "What is left"), it reads
// nothing.
//
// Against a grader that computes the reference before the submission's kernels run (labrun before
// the answer memory of src/exercise/child_session.hpp), this scored 100/100 on an H100. Against one
// that computes it afterwards and erases it before every launch, it reads 0 and every total is wrong.
#include <cstddef>

#ifndef READ_AT
#define READ_AT 0
#endif

// Set at compute-sanitizer's small size (4099, its first run) and kept for its second run, in the
// same process: the sanitizer's runs read nothing, so memcheck sees no read outside x.
__device__ int under_the_sanitizer;

extern "C" __global__ void sum_of_squares_partials(const float* x, float* partials, std::size_t n) {
  if (threadIdx.x != 0) {
    return;
  }
  if (n == 4099) {
    under_the_sanitizer = 1;
  }
  float taken = 0.0f;
  if (blockIdx.x == 0 && *reinterpret_cast<volatile int*>(&under_the_sanitizer) == 0) {
    taken = *reinterpret_cast<const volatile float*>(reinterpret_cast<const char*>(x) + (READ_AT));
    unsigned long long began = 0;
    unsigned long long now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(began));
    do {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - began < n / 500);  // about n floats' read time, in ns
  }
  partials[blockIdx.x] = taken;
}

extern "C" __global__ void sum_of_squares_finish(const float* partials, float* sum, std::size_t blocks) {
  if (threadIdx.x != 0) {
    return;
  }
  float total = 0.0f;
  for (std::size_t b = 0; b < blocks; ++b) {
    total += partials[b];
  }
  *sum = total;
}
