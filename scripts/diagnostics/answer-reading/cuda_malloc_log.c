/* LD_PRELOAD shim (for scripts/lease/answer-reading.sh): logs every cudaMalloc's size and address
 * to standard error as "cudaMalloc BYTES ADDRESS", which is how a student could map the grading
 * child's allocations on their own card. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef int (*cuda_malloc_fn)(void**, size_t);

int cudaMalloc(void** pointer, size_t bytes) {
  static cuda_malloc_fn real = NULL;
  if (real == NULL) {
    real = (cuda_malloc_fn)dlsym(RTLD_NEXT, "cudaMalloc");
  }
  const int status = real(pointer, bytes);
  fprintf(stderr, "cudaMalloc %zu %llu\n", bytes, (unsigned long long)*pointer);
  return status;
}
