// Hostile to the batch: compile-bomb. Its macros expand to 2^40 tokens: the preprocessor would run
// for days and take all memory. It is stopped at the compiler's limits (CPU seconds and memory per
// process), and nothing else of the batch waits for it.

#include "grading/submission.cuh"

#define LABRUN_BOMB0 int_token
#define LABRUN_BOMB1 LABRUN_BOMB0 LABRUN_BOMB0
#define LABRUN_BOMB2 LABRUN_BOMB1 LABRUN_BOMB1
#define LABRUN_BOMB3 LABRUN_BOMB2 LABRUN_BOMB2
#define LABRUN_BOMB4 LABRUN_BOMB3 LABRUN_BOMB3
#define LABRUN_BOMB5 LABRUN_BOMB4 LABRUN_BOMB4
#define LABRUN_BOMB6 LABRUN_BOMB5 LABRUN_BOMB5
#define LABRUN_BOMB7 LABRUN_BOMB6 LABRUN_BOMB6
#define LABRUN_BOMB8 LABRUN_BOMB7 LABRUN_BOMB7
#define LABRUN_BOMB9 LABRUN_BOMB8 LABRUN_BOMB8
#define LABRUN_BOMB10 LABRUN_BOMB9 LABRUN_BOMB9
#define LABRUN_BOMB11 LABRUN_BOMB10 LABRUN_BOMB10
#define LABRUN_BOMB12 LABRUN_BOMB11 LABRUN_BOMB11
#define LABRUN_BOMB13 LABRUN_BOMB12 LABRUN_BOMB12
#define LABRUN_BOMB14 LABRUN_BOMB13 LABRUN_BOMB13
#define LABRUN_BOMB15 LABRUN_BOMB14 LABRUN_BOMB14
#define LABRUN_BOMB16 LABRUN_BOMB15 LABRUN_BOMB15
#define LABRUN_BOMB17 LABRUN_BOMB16 LABRUN_BOMB16
#define LABRUN_BOMB18 LABRUN_BOMB17 LABRUN_BOMB17
#define LABRUN_BOMB19 LABRUN_BOMB18 LABRUN_BOMB18
#define LABRUN_BOMB20 LABRUN_BOMB19 LABRUN_BOMB19
#define LABRUN_BOMB21 LABRUN_BOMB20 LABRUN_BOMB20
#define LABRUN_BOMB22 LABRUN_BOMB21 LABRUN_BOMB21
#define LABRUN_BOMB23 LABRUN_BOMB22 LABRUN_BOMB22
#define LABRUN_BOMB24 LABRUN_BOMB23 LABRUN_BOMB23
#define LABRUN_BOMB25 LABRUN_BOMB24 LABRUN_BOMB24
#define LABRUN_BOMB26 LABRUN_BOMB25 LABRUN_BOMB25
#define LABRUN_BOMB27 LABRUN_BOMB26 LABRUN_BOMB26
#define LABRUN_BOMB28 LABRUN_BOMB27 LABRUN_BOMB27
#define LABRUN_BOMB29 LABRUN_BOMB28 LABRUN_BOMB28
#define LABRUN_BOMB30 LABRUN_BOMB29 LABRUN_BOMB29
#define LABRUN_BOMB31 LABRUN_BOMB30 LABRUN_BOMB30
#define LABRUN_BOMB32 LABRUN_BOMB31 LABRUN_BOMB31
#define LABRUN_BOMB33 LABRUN_BOMB32 LABRUN_BOMB32
#define LABRUN_BOMB34 LABRUN_BOMB33 LABRUN_BOMB33
#define LABRUN_BOMB35 LABRUN_BOMB34 LABRUN_BOMB34
#define LABRUN_BOMB36 LABRUN_BOMB35 LABRUN_BOMB35
#define LABRUN_BOMB37 LABRUN_BOMB36 LABRUN_BOMB36
#define LABRUN_BOMB38 LABRUN_BOMB37 LABRUN_BOMB37
#define LABRUN_BOMB39 LABRUN_BOMB38 LABRUN_BOMB38
#define LABRUN_BOMB40 LABRUN_BOMB39 LABRUN_BOMB39
LABRUN_BOMB40

// Stages 1 and 2: intermediate = gelu(x * g + b).
extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
  }
}

// Stages 3 and 4: y = clamp(intermediate + residual).
extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
  }
}
