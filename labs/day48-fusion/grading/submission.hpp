#pragma once
// The contract of a day-48 exercise submission (see docs/grading.md).
//
// A submission is one CUDA source file that includes this header and "stages.cuh", defines two
// kernels (stages 1+2, then stages 3+4) and this launcher:
//
//   extern "C" void day48_halfway_launch(const day48::HalfwayBuffers* buffers, std::size_t n,
//                                        cudaStream_t stream);
//
// The launcher enqueues both kernels on `stream` for elements [0, n) and returns; it must not
// synchronise, allocate or free. It reads `x` and `residual`, may use `intermediate` (n floats, its
// own buffer), and writes `y`. The staged chain's buffers t1, t2 and t3 are passed as the lesson's
// program has them in scope; a correct submission neither reads nor writes them.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace day48 {

struct HalfwayBuffers {
  const float* x = nullptr;         //!< input, n floats
  const float* residual = nullptr;  //!< stage 3's second input, n floats
  float* intermediate = nullptr;    //!< the submission's own intermediate, n floats
  float* y = nullptr;               //!< output, n floats
  float* t1 = nullptr;              //!< the staged chain's buffers: not the submission's
  float* t2 = nullptr;
  float* t3 = nullptr;
};

}  // namespace day48

//! The name the grader looks up in the compiled submission.
#define DAY48_HALFWAY_LAUNCH_SYMBOL "day48_halfway_launch"
using Day48HalfwayLaunch = void (*)(const day48::HalfwayBuffers*, std::size_t, cudaStream_t);
