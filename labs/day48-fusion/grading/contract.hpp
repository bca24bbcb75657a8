#pragma once
// The day-48 exercise as the grader sees it (host side): the kernels a submission defines, their
// signatures, and the headers it may include. grading/submission.cuh is the students' version.

#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "grading/manifest.hpp"
#include "grading/source_check.hpp"

namespace day48::grading {

//! Stages 1 and 2: (const float* x, float* intermediate, std::size_t n).
inline constexpr const char* kFirstKernel = "halfway_stages_1_2";
//! Stages 3 and 4: (const float* intermediate, const float* residual, float* y, std::size_t n).
inline constexpr const char* kSecondKernel = "halfway_stages_3_4";
//! Parameters of each kernel, in order; every one is 8 bytes (a pointer or std::size_t).
inline constexpr std::size_t kFirstKernelParameters = 3;
inline constexpr std::size_t kSecondKernelParameters = 4;
inline constexpr std::size_t kParameterBytes = 8;

//! Both kernel names, first kernel first.
[[nodiscard]] std::vector<std::string> kernel_names();

//! The launch shape used where the manifest gives none that is usable.
[[nodiscard]] labrun::LaunchShape default_launch_shape();

//! What a submission may include: the lab's headers by name, a few standard headers that device code
//! needs, and any header under CUDA's include folder or its include/cccl (cuda/std, cub, thrust).
[[nodiscard]] labrun::IncludePolicy include_policy(const std::filesystem::path& cuda_include_dir);

}  // namespace day48::grading
