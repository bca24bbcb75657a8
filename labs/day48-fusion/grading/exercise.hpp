#pragma once
// The day-48 exercise, declared (exercise/chain_pair_exercise.hpp): fuse the chain half way, one
// kernel for stages 1 and 2 and a second for stages 3 and 4, with one intermediate between them, and
// work out the pair's bytes per element and both ratios. Its contract for students is
// grading/submission.cuh; docs/grading.md says how it is graded. Host code only; its device side is
// the harness's, made from the lab's chain in checks.cu.

#include "exercise/exercise.hpp"
#include "registry/lab.hpp"

namespace day48::grading {

inline constexpr const char* kExerciseName = "halfway-pair";
//! Stages 1 and 2: (const float* x, float* intermediate, std::size_t n).
inline constexpr const char* kFirstKernel = "halfway_stages_1_2";
//! Stages 3 and 4: (const float* intermediate, const float* residual, float* y, std::size_t n).
inline constexpr const char* kSecondKernel = "halfway_stages_3_4";
//! Absolute and relative tolerance of every output against its float64 reference, as in the lab.
inline constexpr double kTolerance = 1e-5;

//! The exercise: contract, manifest, sizes, rubric, wording, lab cases, and its chain.
[[nodiscard]] labrun::Exercise halfway_exercise();

//! The exercise as day48-fusion lists it (labrun_register_exercise in the lab's CMakeLists.txt).
[[nodiscard]] labrun::LabExercise halfway_entry(const labrun::Lab& lab);

}  // namespace day48::grading
