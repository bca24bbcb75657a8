#pragma once
// A compiled submission (a cubin: device code only) loaded into this process with the CUDA library
// API, its two kernels found by their documented names and checked against the contract
// (contract.hpp), and the grids they are launched with. The grading child (grade_child.cpp) and
// `labrun run day48-fusion --submission DIR` (submission_case.cpp) load a submission only through
// this file, so both run exactly what the grader checks. Needs a CUDA context on the current device.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "grading/child_protocol.hpp"
#include "grading/launch_plan.hpp"
#include "grading/manifest.hpp"

namespace day48::grading {

//! What loading found. When `problem_kind` is empty both kernels were found with the contract's
//! parameters and `first`/`second` are usable until `library` is unloaded.
struct LoadedKernels {
  cudaLibrary_t library = nullptr;
  cudaKernel_t first = nullptr;   //!< halfway_stages_1_2
  cudaKernel_t second = nullptr;  //!< halfway_stages_3_4
  //! One entry per contract kernel, found or not, in contract order (child_protocol.hpp).
  std::vector<KernelInfo> kernels;
  //! "load" (the image is not loadable here), "kernel-missing" or "wrong-signature"; empty: usable.
  std::string problem_kind;
  std::string problem;                     //!< the sentence a student can act on
  std::vector<std::string> kernels_found;  //!< every kernel in the image, when one was missing
};

//! Loads `image` and looks up both kernels. Never throws for anything the image holds: a problem
//! is returned. Throws labrun::CudaError when the runtime fails on a kernel it did find.
[[nodiscard]] LoadedKernels load_submission_kernels(const std::string& image);

//! The grid for `kernel` with `shape` at n elements on the current device: its own thread limit,
//! and for grid-stride shapes its occupancy times the device's SM count. Throws labrun::CudaError.
[[nodiscard]] LaunchPlan plan_kernel_launch(cudaKernel_t kernel, const labrun::LaunchShape& shape,
                                            std::uint64_t n, int sm_count);

}  // namespace day48::grading
