#pragma once
// A compiled submission (a cubin: device code only) loaded into this process with the CUDA library
// API, the kernels of its exercise's contract found by their documented names and checked against
// it (every parameter 8 bytes, as many as the contract says), and the grids they are launched
// with. The grading child (exercise/grade_child.cpp) and `labrun run LAB --submission DIR`
// (exercise/submission_run.cpp) load a submission only through this file, so both run exactly what
// the grader checks. Needs a CUDA context on the current device.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sizes.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/exercise.hpp"
#include "exercise/launch_plan.hpp"
#include "grading/manifest.hpp"

namespace labrun {

//! What loading found. When `problem_kind` is empty every kernel of the contract was found with its
//! parameters and `handles` (in contract order) are usable until `library` is unloaded.
struct LoadedKernels {
  cudaLibrary_t library = nullptr;
  std::vector<cudaKernel_t> handles;
  //! One entry per contract kernel, found or not, in contract order (child_protocol.hpp).
  std::vector<KernelInfo> kernels;
  //! "load" (the image is not loadable here), "kernel-missing" or "wrong-signature"; empty: usable.
  std::string problem_kind;
  std::string problem;                     //!< the sentence a student can act on
  std::vector<std::string> kernels_found;  //!< every kernel in the image, when one was missing
};

//! Loads `image` and looks up every kernel of `contract`. Never throws for anything the image holds:
//! a problem is returned. Throws labrun::CudaError when the runtime fails on a kernel it did find.
[[nodiscard]] LoadedKernels load_submission_kernels(const std::string& image,
                                                    const std::vector<ContractKernel>& contract);

//! The grid for `kernel` with `shape` at n elements on the current device: its own thread limit,
//! and for grid-stride shapes its occupancy times the device's SM count; one block for a
//! one_block kernel; for an image kernel, the 2-D grid over `image` (power_of_two_image(n) when not
//! given). Throws labrun::CudaError.
[[nodiscard]] LaunchPlan plan_kernel_launch(cudaKernel_t kernel, const ContractKernel& contract,
                                            const LaunchShape& shape, std::uint64_t n, int sm_count,
                                            std::optional<Shape> image = std::nullopt);

}  // namespace labrun
