// The day-48 exercise, your starting point: fuse the chain half way. Fill in the two kernels, then
// the worked answer in halfway.json beside this file, and check your work with
//
//   labrun grade labs/day48-fusion/grading/skeleton/halfway.cu
//
// As it stands it compiles and scores 0. grading/submission.cuh is the contract: the kernels' names
// and parameters, what the grader launches, and what you may include. docs/grading.md says how it is
// graded.

#include "grading/submission.cuh"

// Stages 1 and 2 for every element: intermediate[i] = gelu(scale_bias(x[i])), for i in [0, n).
extern "C" __global__ void halfway_stages_1_2(const float* x, float* intermediate, std::size_t n) {
  // TODO: which element(s) does this thread own? Guard against running past n.
}

// Stages 3 and 4 for every element: y[i] = clamp_range(add_residual(intermediate[i], residual[i])).
extern "C" __global__ void halfway_stages_3_4(const float* intermediate, const float* residual, float* y,
                                              std::size_t n) {
  // TODO
}
